"""The seeds' PySpark examples, run with only their imports changed."""

import os
import re
import subprocess
import sys

SEEDS = os.path.join(os.path.dirname(__file__), "seeds")


def run_seed(name):
    result = subprocess.run([sys.executable, os.path.join(SEEDS, name)], capture_output=True,
                            text=True, timeout=120, env=dict(os.environ, TZ="UTC"))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_seed_002_rate_source_counts():
    out = run_seed("seed_002_rate_counts.py")
    lines = out.splitlines()
    assert lines[:3] == ["+------+-----+", "|bucket|count|", "+------+-----+"]
    rows = [re.match(r"\|\s*(\d+)\|\s*(\d+)\|", line).groups() for line in lines[3:6]]
    assert [int(b) for b, _ in rows] == [0, 1, 2]
    counts = [int(c) for _, c in rows]
    # About five seconds of 20 rows per second (give or take a trigger), spread evenly over
    # the three buckets.
    assert 40 <= sum(counts) <= 140
    assert max(counts) - min(counts) <= 1
