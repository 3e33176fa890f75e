#!/usr/bin/env bash
# Sluice and Apache Spark side by side on the Nexmark queries (make bench-nexmark-spark): the
# same events, written once to Parquet by the Sluice generator, read by both engines with the
# file source (a file per micro-batch), each query run with Trigger.AvailableNow into the noop
# sink with a checkpoint; prints each engine's seconds and CPU seconds and the ratios.
#
# Usage: scripts/bench-nexmark-vs-spark.sh [EVENTS] [QUERIES]     (10000000, every query)
#
# Needs Java 17 or 21; PySpark comes from the venv of scripts/golden-spark-env.sh (created on
# first use). BUILD_DIR (build) holds the built nexmark_runner; the events are kept in
# $BUILD_DIR/nexmark-events-<EVENTS> for later runs.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-${repo_root}/build}"
events="${1:-10000000}"
queries="${2:-q0,q1,q2,q3,q5,q7,q8,q11,q14,q17,q20,q21,q22}"
runner="${build_dir}/bench/nexmark_runner"
folder="${build_dir}/nexmark-events-${events}"

# shellcheck source=scripts/golden-spark-env.sh
source "${repo_root}/scripts/golden-spark-env.sh"

if [[ ! -d "${folder}/_spark_metadata" ]]; then
  rm -rf "${folder}"
  "${runner}" --write-events "${folder}" --events "${events}" >/dev/null
fi

# Both engines read the files from the page cache: the first query timed would otherwise pay
# for reading them from disk (the Sluice-only runs before this one evict them).
cat "${folder}"/*.parquet >/dev/null

declare -A sluice_seconds sluice_cpu
for query in ${queries//,/ }; do
  line="$("${runner}" --child "${query}" --provider 0 --files "${folder}" --events "${events}" |
          grep '^RESULT ' || echo "RESULT nan nan")"
  read -r _ seconds cpu _ <<<"${line}"
  sluice_seconds[${query}]="${seconds}"
  sluice_cpu[${query}]="${cpu}"
done

spark_lines="$("${venv}/bin/python" "${repo_root}/bench/nexmark/spark_nexmark.py" \
                 --files "${folder}" --queries "${queries}" 2>/dev/null | grep -E '^(RESULT|FAILED) ' || true)"

echo "Nexmark, ${events} events from ${folder#"${repo_root}"/}, Sluice and Spark $(
  "${venv}/bin/python" -c 'import pyspark; print(pyspark.__version__)') (local mode), $(nproc) cores"
printf '%-5s %12s %12s %12s %12s %10s %12s\n' query sluice_s spark_s sluice_cpu_s spark_cpu_s \
  speedup cpu_ratio
while read -r outcome query rest; do
  if [[ "${outcome}" == FAILED ]]; then
    printf '%-5s %12.2f %12s   Spark failed: %s\n' "${query}" "${sluice_seconds[${query}]}" - "${rest}"
    continue
  fi
  read -r seconds cpu _ <<<"${rest}"
  awk -v q="${query}" -v ss="${sluice_seconds[${query}]}" -v sp="${seconds}" \
      -v sc="${sluice_cpu[${query}]}" -v pc="${cpu}" \
      'BEGIN { printf "%-5s %12.2f %12.2f %12.2f %12.2f %9.1fx %11.1fx\n", q, ss, sp, sc, pc, sp / ss, pc / sc }'
done <<<"${spark_lines}"
