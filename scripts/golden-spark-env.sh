# Sourced by the golden generators: checks for Java, prepares the venv (GOLDEN_VENV, default
# .golden-venv) with the pinned PySpark the expected answers come from, and sets the process
# up for it. Expects repo_root; sets venv.
readonly PYSPARK_VERSION="4.0.1"
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
