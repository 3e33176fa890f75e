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

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/golden-spark-env.sh
source "${repo_root}/scripts/golden-spark-env.sh"
exec "${venv}/bin/python" "${repo_root}/tests/golden_stateful/generate.py" "$@"
