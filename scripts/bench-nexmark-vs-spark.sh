#!/usr/bin/env bash
# Sluice and Apache Spark side by side on the Nexmark queries (make bench-nexmark-spark): the
# same events, written once to Parquet by the Sluice generator, read by both engines with the
# file source (a file per micro-batch), each query run with Trigger.AvailableNow into the noop
# sink with a checkpoint; prints each engine's seconds and CPU seconds and the ratios.
# RUNS (2) is how many times each engine runs each query.
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
queries="${2:-q0,q1,q2,q3,q5,q7,q8,q11,q12,q14,q17,q20,q21,q22}"
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

# The engines take turns query by query, each query RUNS times (2) per engine, and each figure
# is the best of its runs: the machine's speed drifts over minutes, and timing all of one
# engine's queries before the other's made the ratios of two runs differ by up to 2x. Spark's
# JVM stays up throughout, warmed up by a first run of every query; likewise each Sluice run
# times the query's second run in its process (--warm), as a long-running job's process has
# its memory in use already (a fresh process's first touches of its memory were up to a
# quarter of a short query's CPU time on a virtual machine).
runs="${RUNS:-2}"
coproc SPARK { "${venv}/bin/python" "${repo_root}/bench/nexmark/spark_nexmark.py" \
                 --files "${folder}" --queries "${queries}" 2>/dev/null; }
declare -A spark_failed
while read -r outcome query rest <&"${SPARK[0]}"; do
  [[ "${outcome}" == READY ]] && break
  [[ "${outcome}" == FAILED ]] && spark_failed[${query}]="${rest}"
done

best() { tr ' ' '\n' | grep -v '^$' | sort -g | head -n 1; }

echo "Nexmark, ${events} events from ${folder#"${repo_root}"/}, Sluice and Spark $(
  "${venv}/bin/python" -c 'import pyspark; print(pyspark.__version__)') (local mode), $(nproc) cores,"
echo "the best of ${runs} runs of each engine, taking turns query by query"
printf '%-5s %12s %12s %12s %12s %10s %12s\n' query sluice_s spark_s sluice_cpu_s spark_cpu_s \
  speedup cpu_ratio
for query in ${queries//,/ }; do
  sluice_s="" sluice_c="" spark_s="" spark_c=""
  for ((run = 0; run < runs; ++run)); do
    line="$("${runner}" --child "${query}" --provider 0 --files "${folder}" --events "${events}" \
              --warm |
            grep '^RESULT ' || echo "RESULT nan nan")"
    read -r _ seconds cpu _ <<<"${line}"
    sluice_s+=" ${seconds}" sluice_c+=" ${cpu}"
    [[ -n "${spark_failed[${query}]:-}" ]] && continue
    echo "${query}" >&"${SPARK[1]}"
    while read -r outcome name rest <&"${SPARK[0]}"; do
      if [[ "${outcome}" == RESULT ]]; then
        read -r seconds cpu _ <<<"${rest}"
        spark_s+=" ${seconds}" spark_c+=" ${cpu}"
        break
      elif [[ "${outcome}" == FAILED ]]; then
        spark_failed[${query}]="${rest}"
        break
      fi
    done
  done
  sluice_s="$(best <<<"${sluice_s}")" sluice_c="$(best <<<"${sluice_c}")"
  if [[ -n "${spark_failed[${query}]:-}" ]]; then
    printf '%-5s %12.2f %12s   Spark failed: %s\n' "${query}" "${sluice_s}" - "${spark_failed[${query}]}"
    continue
  fi
  awk -v q="${query}" -v ss="${sluice_s}" -v sp="$(best <<<"${spark_s}")" \
      -v sc="${sluice_c}" -v pc="$(best <<<"${spark_c}")" \
      'BEGIN { printf "%-5s %12.2f %12.2f %12.2f %12.2f %9.1fx %11.1fx\n", q, ss, sp, sc, pc, sp / ss, pc / sc }'
done
exec {SPARK[1]}>&-
wait
