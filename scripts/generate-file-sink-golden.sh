#!/usr/bin/env bash
# Regenerates tests/golden_streaming/file_sink_spark_rows.json: the rows real Apache Spark
# reads from file sink folders written by Sluice's file sink (a compaction, an empty batch, a
# replayed batch and the orphan files of a crashed batch among them). The test
# FileSinkSparkReadTest writes the folders, Spark reads them, and the test then checks that our
# own reading of the manifest finds exactly those rows. Run by hand when the fixture changes;
# CI never runs it.
#
# Usage: scripts/generate-file-sink-golden.sh
#
# Needs a built test binary (SLUICE_BUILD_DIR, default build/) and Java 17 (or 21). Spark runs
# on GOLDEN_PYTHON if set, else on the python of the venv that scripts/generate-golden.sh uses
# (GOLDEN_VENV, default .golden-venv), created with the pinned PySpark on first use.
set -euo pipefail

readonly PYSPARK_VERSION="4.0.1"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${SLUICE_BUILD_DIR:-${repo_root}/build}"
tests_binary="${build_dir}/tests/sluice_tests"
golden="${repo_root}/tests/golden_streaming/file_sink_spark_rows.json"

if [[ ! -x "${tests_binary}" ]]; then
  echo "error: ${tests_binary} not found; build sluice_tests first (or set SLUICE_BUILD_DIR)" >&2
  exit 1
fi
if ! command -v java >/dev/null 2>&1; then
  echo "error: java not found; PySpark ${PYSPARK_VERSION} needs Java 17 or 21 on PATH (or JAVA_HOME)" >&2
  exit 1
fi

python="${GOLDEN_PYTHON:-}"
if [[ -z "${python}" ]]; then
  venv="${GOLDEN_VENV:-${repo_root}/.golden-venv}"
  if ! "${venv}/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '${PYSPARK_VERSION}')" 2>/dev/null; then
    echo "preparing ${venv} with pyspark==${PYSPARK_VERSION}" >&2
    python3 -m venv "${venv}"
    "${venv}/bin/pip" install --quiet --disable-pip-version-check "pyspark==${PYSPARK_VERSION}"
  fi
  python="${venv}/bin/python"
fi

fixture="$(mktemp -d)"
trap 'rm -rf "${fixture}"' EXIT

export TZ=UTC
SLUICE_WRITE_FILE_SINK_FIXTURE="${fixture}" "${tests_binary}" \
  --gtest_filter='FileSinkSparkFixture.*' >/dev/null
export PYSPARK_PYTHON="${python}"
"${python}" "${repo_root}/tests/golden_streaming/read_file_sink.py" "${fixture}" > "${golden}.tmp"
mv "${golden}.tmp" "${golden}"
echo "wrote ${golden}"
