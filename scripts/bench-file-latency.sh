#!/usr/bin/env bash
# Micro-batch latency, Sluice against Spark (make bench-latency): bench/nexmark/file_latency.py
# on both engines, a one-row JSON file renamed into a file stream's folder to its row in
# foreachBatch, default trigger; prints each engine's p50/p90/p99 and the ratio of the p50s.
#
# Usage: scripts/bench-file-latency.sh [FILES]      (100)
#
# Needs the build (BUILD_DIR, build) with its Python package, Java 17 or 21; PySpark comes from
# the venv of scripts/golden-spark-env.sh.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-${repo_root}/build}"
files="${1:-100}"

# shellcheck source=scripts/golden-spark-env.sh
source "${repo_root}/scripts/golden-spark-env.sh"

read -r _ _ sluice_p50 sluice_p90 sluice_p99 <<<"$(
  PYTHONPATH="${repo_root}/python:${build_dir}/python" "${repo_root}/.venv/bin/python" \
    "${repo_root}/bench/nexmark/file_latency.py" --engine sluice --files "${files}" |
    grep '^LATENCY ')"
read -r _ _ spark_p50 spark_p90 spark_p99 <<<"$(
  "${venv}/bin/python" "${repo_root}/bench/nexmark/file_latency.py" --engine spark \
    --files "${files}" 2>/dev/null | grep '^LATENCY ')"

echo "File to foreachBatch latency, ${files} files, default trigger (ms)"
printf '%-7s %8s %8s %8s\n' engine p50 p90 p99
printf '%-7s %8s %8s %8s\n' sluice "${sluice_p50}" "${sluice_p90}" "${sluice_p99}"
printf '%-7s %8s %8s %8s\n' spark "${spark_p50}" "${spark_p90}" "${spark_p99}"
awk -v a="${spark_p50}" -v b="${sluice_p50}" 'BEGIN { printf "p50 ratio: %.0fx lower in Sluice\n", a / b }'
