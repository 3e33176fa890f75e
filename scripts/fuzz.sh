#!/usr/bin/env bash
# Fuzzes Sluice's parsers of untrusted bytes with libFuzzer: the SQL parser, the JSON and CSV
# readers, the readers of checkpoint, sink, table and state files, and the option parsers
# (fuzz/*_fuzzer.cc). Each target is built with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer, its own sources instrumented for coverage (the layers below come
# from the regular build's libsluice.a), seeded with fuzz/corpus/<target>/ (the SQL parser also
# with every query of the golden corpus), and run for SECONDS. The targets run two at a time.
# A finding leaves its input in build/fuzz/<target>/ and fails the script.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (default 60 s, every target; run by `make fuzz`)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(sql_parser json_reader csv_reader checkpoint_log option_parsing)
build_dir="${BUILD_DIR:-build}"
out="${build_dir}/fuzz"
python=".venv/bin/python"

# The sources each target exercises, instrumented so that libFuzzer sees their branches.
sources_of() {
  local text_values="src/sluice/formats/column_buffer.cc src/sluice/formats/text_values.cc
    src/sluice/formats/line_reader.cc src/sluice/formats/value_text.cc src/sluice/datetime/*.cc"
  case "$1" in
    sql_parser) echo src/sluice/sql/*.cc ;;
    json_reader) echo src/sluice/formats/json_reader.cc ${text_values} ;;
    csv_reader) echo src/sluice/formats/csv_reader.cc ${text_values} ;;
    checkpoint_log) echo src/sluice/checkpoint/*.cc src/sluice/delta/delta_actions.cc \
      src/sluice/sources/file/file_source_offset.cc src/sluice/sources/file/file_stream_source_log.cc \
      src/sluice/sources/kafka/kafka_offset_json.cc src/sluice/sources/kafka/kafka_initial_offsets.cc \
      src/sluice/state/state_file_format.cc src/sluice/state/rocksdb_changelog.cc ;;
    option_parsing) echo src/sluice/formats/format_options.cc src/sluice/common/durations.cc \
      src/sluice/sources/file/file_stream_options.cc src/sluice/sinks/file/file_sink_options.cc \
      src/sluice/sources/kafka/kafka_options.cc src/sluice/sinks/kafka/kafka_sink_options.cc \
      src/sluice/sources/rate/rate_options.cc src/sluice/sources/socket/socket_options.cc ;;
    *) echo "scripts/fuzz.sh: no fuzz target $1" >&2; exit 2 ;;
  esac
}

# clang, and compiler-rt for libFuzzer and the sanitizers' runtimes (libclang-rt-dev).
if ! command -v clang++ >/dev/null || ! dpkg -s libclang-rt-dev >/dev/null 2>&1; then
  echo "Installing Debian packages: clang libclang-rt-dev (libFuzzer)"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    clang libclang-rt-dev
fi

cmake --build "${build_dir}" --target sluice
pyarrow_dir="$("${python}" -c 'import os, pyarrow; print(os.path.dirname(pyarrow.__file__))')"
arrow_libs=()
for name in arrow_dataset arrow_acero parquet arrow_compute arrow; do
  arrow_libs+=("$(ls "${pyarrow_dir}"/lib${name}.so.[0-9]* | grep -E "\.so\.[0-9]+$" | head -1)")
done

build_target() {
  local target="$1" dir="${out}/$1"
  mkdir -p "${dir}/corpus"
  cp fuzz/corpus/"${target}"/* "${dir}/corpus/"
  # shellcheck disable=SC2046
  clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DARROW_NO_DEPRECATED_API -I. -Isrc -isystem "${pyarrow_dir}/include" \
    "fuzz/${target}_fuzzer.cc" $(sources_of "${target}") "${build_dir}/libsluice.a" \
    -l:libre2.a -lsimdjson "${arrow_libs[@]}" -lrocksdb -lrdkafka -lcrypto -lz \
    -Wl,-rpath,"${pyarrow_dir}" -lpthread -o "${dir}/${target}_fuzzer"
}

run_target() {
  local target="$1" dir="${out}/$1"
  (cd "${dir}" && "./${target}_fuzzer" -max_total_time="${seconds}" -max_len=8192 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=./ corpus) >"${dir}/fuzz.log" 2>&1
}

for target in "${targets[@]}"; do
  echo "Building ${target}_fuzzer"
  build_target "${target}"
done

# The SQL parser also starts from every query of the golden corpus, one file each.
if [[ " ${targets[*]} " == *" sql_parser "* ]]; then
  "${python}" - "${out}/sql_parser/corpus" <<'PY'
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
fi

failed=0
# Runs the targets given at once and waits for them.
run_together() {
  local pids=() names=("$@") target index
  for target in "${names[@]}"; do
    echo "Fuzzing ${target} for ${seconds} s"
    run_target "${target}" & pids+=($!)
  done
  for index in "${!pids[@]}"; do
    if ! wait "${pids[${index}]}"; then
      echo "FINDING in ${names[${index}]}: see ${out}/${names[${index}]}/fuzz.log"
      failed=1
    fi
  done
}
for ((first = 0; first < ${#targets[@]}; first += 2)); do
  run_together "${targets[@]:first:2}"
done
for target in "${targets[@]}"; do
  echo "${target}: $(grep -E '^stat::number_of_executed_units' "${out}/${target}/fuzz.log" | awk '{print $2}') runs, $(ls "${out}/${target}/corpus" | wc -l) inputs in the corpus"
done
exit "${failed}"
