#!/usr/bin/env bash
# Fuzzes the SQL statement parser with libFuzzer: builds fuzz/sql_parser_fuzzer.cc and the
# parser with clang under AddressSanitizer and UndefinedBehaviorSanitizer (the layers below
# the parser come from the regular build's libsluice.a), seeds it with the queries of the SQL
# golden corpus, and runs it. A crash leaves its input in build/fuzz/ and fails the script.
#
# Usage: scripts/fuzz-sql-parser.sh [SECONDS]   (default 60; run by `make fuzz`)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"
seconds="${1:-60}"
build_dir="${BUILD_DIR:-build}"
out="${build_dir}/fuzz"
python=".venv/bin/python"

if ! command -v clang++ >/dev/null; then
  echo "Installing Debian package: clang (libFuzzer)"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends clang
fi

cmake --build "${build_dir}" --target sluice
pyarrow_dir="$("${python}" -c 'import os, pyarrow; print(os.path.dirname(pyarrow.__file__))')"
arrow_libs=()
for name in arrow_compute arrow; do
  arrow_libs+=("$(ls "${pyarrow_dir}"/lib${name}.so.[0-9]* | grep -E "\.so\.[0-9]+$" | head -1)")
done

mkdir -p "${out}/corpus"
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -DARROW_NO_DEPRECATED_API -Isrc -isystem "${pyarrow_dir}/include" \
  fuzz/sql_parser_fuzzer.cc src/sluice/sql/*.cc "${build_dir}/libsluice.a" \
  -l:libre2.a -lsimdjson "${arrow_libs[@]}" -Wl,-rpath,"${pyarrow_dir}" -lpthread \
  -o "${out}/sql_parser_fuzzer"

# Seeds: every SQL query of the golden corpus, one file each.
"${python}" - "${out}/corpus" <<'PY'
import hashlib, importlib, os, sys
sys.path.insert(0, "tests/golden/cases")
for area in ("sql", "window_functions", "intervals"):
    for case in importlib.import_module(area).CASES:
        for op in case["ops"]:
            if op["op"] != "sql":
                continue
            text = op["query"].encode()
            with open(os.path.join(sys.argv[1], hashlib.sha1(text).hexdigest()), "wb") as f:
                f.write(text)
PY

cd "${out}"
./sql_parser_fuzzer -max_total_time="${seconds}" -max_len=4096 -timeout=5 \
  -print_final_stats=1 corpus
