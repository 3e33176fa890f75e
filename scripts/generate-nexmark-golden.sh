#!/usr/bin/env bash
# Regenerates tests/golden_nexmark/expected/ from Apache Spark: writes a small run of Nexmark
# events with the built nexmark_runner (Sluice's generator) to Parquet, then has PySpark run the
# benchmark's queries over them (tests/golden_nexmark/generate.py). Run by hand when the queries
# or the generator change; CI never runs it.
#
# Needs a build (BUILD_DIR, default build), python3 and Java 17 or 21; PySpark comes from the
# venv of scripts/golden-spark-env.sh.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-${repo_root}/build}"
# shellcheck source=scripts/golden-spark-env.sh
source "${repo_root}/scripts/golden-spark-env.sh"

work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# golden QUERIES EVENTS PER_BATCH RATE: Spark's answers to QUERIES over EVENTS events at RATE
# per second of event time, in files of PER_BATCH (the run the C++ test repeats, reading the
# figures from the expected files).
golden() {
  local events_dir="${work}/events-$2-$4"
  "${build_dir}/bench/nexmark_runner" --write-events "${events_dir}" --events "$2" \
    --per-batch "$3" --rate "$4"
  "${venv}/bin/python" "${repo_root}/tests/golden_nexmark/generate.py" --files "${events_dir}" \
    --events "$2" --per-batch "$3" --rate "$4" --queries "$1"
}
# Few events where every bid gives a row; more where few do; for sessions, 200 s of event time,
# so that sessions close under the watermark.
golden q0,q1,q14,q20,q21,q22 2000 500 10000
golden q2,q3,q8,q17 50000 10000 10000
golden q11 20000 4000 100
# Windows over processing time: what is compared is each bidder's bids (generate.py).
golden q12 20000 5000 10000
# Windows of 10 seconds close with the watermark: 100 s of event time.
golden q5,q7 100000 10000 1000
