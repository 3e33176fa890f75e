#!/usr/bin/env bash
# Regenerates the golden answers in tests/golden/expected/ by running the cases in
# tests/golden/cases/ on real Apache Spark. Run by hand when cases change; CI never runs it.
#
# Usage: scripts/generate-golden.sh [AREA ...]   (no area: all of them)
#
# Needs python3 and Java 17 (or 21). Creates .golden-venv (gitignored) with the pinned
# PySpark on first use; set GOLDEN_VENV to use another venv directory.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/golden-spark-env.sh
source "${repo_root}/scripts/golden-spark-env.sh"
exec "${venv}/bin/python" "${repo_root}/tests/golden/generate.py" "$@"
