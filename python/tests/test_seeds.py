"""The seeds' PySpark examples, run with only their imports changed."""

import os
import re
import subprocess
import sys

SEEDS = os.path.join(os.path.dirname(__file__), "seeds")


def run_seed(name, *args, cwd=None):
    result = subprocess.run([sys.executable, os.path.join(SEEDS, name), *args],
                            capture_output=True, text=True, timeout=120, cwd=cwd,
                            env=dict(os.environ, TZ="UTC"))
    assert result.returncode == 0, result.stderr
    # Nothing is left for the interpreter to complain about at exit (references the engine
    # holds are released).
    assert "leaked" not in result.stderr, result.stderr
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


def test_seed_004_clickstream_windows_watermarks_and_upserts(tmp_path):
    out = run_seed("seed_004_clickstream.py", str(tmp_path))
    lines = out.splitlines()
    # The first run: the table and watermark the seed prints.
    assert lines[:13] == [
        "run1 watermark: 2026-06-10T10:20:00.000Z",
        "+-----+-----+--------+-----+",
        "|start|  end|    page|views|",
        "+-----+-----+--------+-----+",
        "|10:00|10:05|   /home|    1|",
        "|10:00|10:05|/pricing|    2|",
        "|10:05|10:10|   /home|    1|",
        "|10:05|10:10|/pricing|    1|",
        "|10:10|10:15|   /home|    2|",
        "|10:10|10:15|/pricing|    1|",
        "|10:15|10:20|   /home|    1|",
        "|10:15|10:20|/pricing|    1|",
        "+-----+-----+--------+-----+",
    ]
    # The second run's progress lines, as the seed quotes them.
    assert lines[13:15] == [
        "run2 batch 2 rows 2 watermark 2026-06-10T10:20:00.000Z droppedByWatermark [1]",
        "run2 batch 3 rows 0 watermark 2026-06-10T10:30:00.000Z droppedByWatermark [0]",
    ]
    # The listener: started, one progress line for the upsert's batch, terminated.
    assert re.fullmatch(r"started user_last_page [0-9a-f-]{36}", lines[15])
    name, batch_id, rows, input_rate, processed_rate = lines[16].split()
    assert (name, batch_id, rows) == ("user_last_page", "0", "18")
    assert float(processed_rate) > 0
    assert re.fullmatch(r"terminated [0-9a-f-]{36} exception=None", lines[17])
    # The upsert keeps each user's latest click (the late one included: foreachBatch has no
    # watermark).
    assert lines[18:] == [
        "+-------+--------+--------+",
        "|user_id|    page|      at|",
        "+-------+--------+--------+",
        "|     u1|/pricing|10:30:00|",
        "|     u2|   /home|10:21:00|",
        "|     u3|   /docs|10:40:00|",
        "|     u4|/pricing|10:24:00|",
        "|     u5|   /home|10:26:40|",
        "|     u6|/pricing|10:18:30|",
        "|     u7|   /docs|10:22:10|",
        "|     u8|   /docs|10:28:00|",
        "|     u9|   /home|10:03:00|",
        "+-------+--------+--------+",
    ]


def test_seed_000_upsert_every_batch(tmp_path):
    updates = tmp_path / "updates"
    updates.mkdir()

    def land(name, rows):
        (updates / name).write_text("".join(
            '{"id": %d, "name": "%s", "tier": "%s"}\n' % row for row in rows))

    land("0001.json", [(1, "ada", "bronze"), (2, "bob", "silver")])
    first = run_seed("seed_000_upsert.py", str(tmp_path), cwd=tmp_path)
    assert first.splitlines() == [
        "+---+----+------+",
        "| id|name|  tier|",
        "+---+----+------+",
        "|  1| ada|bronze|",
        "|  2| bob|silver|",
        "+---+----+------+",
    ]
    # A changed customer is updated in place, a new one inserted; the first file is not read
    # again (the checkpoint remembers it), so replaying it would change nothing either.
    land("0002.json", [(1, "ada", "gold"), (3, "cy", "bronze")])
    second = run_seed("seed_000_upsert.py", str(tmp_path), cwd=tmp_path)
    assert second.splitlines() == [
        "+---+----+------+",
        "| id|name|  tier|",
        "+---+----+------+",
        "|  1| ada|  gold|",
        "|  2| bob|silver|",
        "|  3|  cy|bronze|",
        "+---+----+------+",
    ]
