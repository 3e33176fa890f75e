# Sourced by the golden generators: checks for Java, prepares the venv (GOLDEN_VENV, default
# .golden-venv) with the pinned PySpark the expected answers come from, and sets the process
# up for it. Expects repo_root; sets venv.
readonly PYSPARK_VERSION="4.0.1"
# pandas and pyarrow, for the scenarios written with applyInPandasWithState, and protobuf, for
# transformWithStateInPandas's state server; versions PySpark 4.0 supports.
readonly GOLDEN_PANDAS="pandas==2.2.3"
readonly GOLDEN_PYARROW="pyarrow==18.1.0"
readonly GOLDEN_PROTOBUF="protobuf==5.29.3"
venv="${GOLDEN_VENV:-${repo_root}/.golden-venv}"

if ! command -v java >/dev/null 2>&1; then
  echo "error: java not found; PySpark ${PYSPARK_VERSION} needs Java 17 or 21 on PATH (or JAVA_HOME)" >&2
  exit 1
fi

if ! "${venv}/bin/python" -c "import google.protobuf, pandas, pyarrow, pyspark, sys; sys.exit(pyspark.__version__ != '${PYSPARK_VERSION}')" 2>/dev/null; then
  echo "preparing ${venv} with pyspark==${PYSPARK_VERSION}" >&2
  python3 -m venv "${venv}"
  "${venv}/bin/pip" install --quiet --disable-pip-version-check "pyspark==${PYSPARK_VERSION}" \
    "${GOLDEN_PANDAS}" "${GOLDEN_PYARROW}" "${GOLDEN_PROTOBUF}"
fi

# Collected timestamps are converted in the process time zone; keep everything in UTC.
export TZ=UTC
export PYSPARK_PYTHON="${venv}/bin/python"
