#!/usr/bin/env bash
# Regenerates the golden answers in tests/golden_stateful/expected/ by running the streaming
# scenarios of tests/golden_stateful/scenarios.py on real Apache Spark, micro-batch by
# micro-batch. Run by hand when scenarios change; CI never runs it.
#
# Usage: scripts/generate-stateful-golden.sh [--work-dir DIR] [NAME ...]   (no name: all)
#
# Needs python3 and Java 17 (or 21). Shares the venv of scripts/generate-golden.sh
# (.golden-venv, gitignored, created with the pinned PySpark on first use; set GOLDEN_VENV to
# use another venv directory). A full run takes about fifteen minutes: each step waits for the
# query to go quiet so that Spark's no-data batches are recorded too.
set -euo pipefail

readonly PYSPARK_VERSION="4.0.1"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${GOLDEN_VENV:-${repo_root}/.golden-venv}"

if ! command -v java >/dev/null 2>&1; then
  echo "error: java not found; PySpark ${PYSPARK_VERSION} needs Java 17 or 21 on PATH (or JAVA_HOME)" >&2
  exit 1
fi

if ! "${venv}/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '${PYSPARK_VERSION}')" 2>/dev/null; then
  echo "preparing ${venv} with pyspark==${PYSPARK_VERSION}" >&2
  python3 -m venv "${venv}"
  "${venv}/bin/pip" install --quiet --disable-pip-version-check "pyspark==${PYSPARK_VERSION}"
fi

# Collected timestamps are converted in the process time zone; keep everything in UTC.
export TZ=UTC
export PYSPARK_PYTHON="${venv}/bin/python"
exec "${venv}/bin/python" "${repo_root}/tests/golden_stateful/generate.py" "$@"
