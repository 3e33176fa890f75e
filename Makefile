# The front door: `make test` and `make demo` install what is missing, build, and run.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
VENV := .venv
PYTHON := $(VENV)/bin/python
CTEST_JOBS ?= 2

.PHONY: all setup build test sanitize demo soak bench bench-nexmark bench-nexmark-spark bench-latency bench-results fuzz clean

all: build

setup: $(VENV)/.requirements.sha256
	@scripts/install-system-packages.sh
	@scripts/kafka/fetch.sh >/dev/null

$(VENV)/.requirements.sha256: requirements.txt
	@scripts/install-system-packages.sh
	@scripts/setup-venv.sh

$(BUILD_DIR)/build.ninja: CMakeLists.txt $(VENV)/.requirements.sha256
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DSLUICE_PYTHON=$(abspath $(PYTHON))

build: setup $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(CTEST_JOBS)

# The whole suite again, built with AddressSanitizer and UndefinedBehaviorSanitizer in a
# build folder of its own. Arrow allocates from the system allocator there, so that ASan sees
# every buffer.
SANITIZE_BUILD_DIR ?= $(BUILD_DIR)/sanitize
sanitize: setup
	cmake -S . -B $(SANITIZE_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DSLUICE_SANITIZE=ON -DSLUICE_PYTHON=$(abspath $(PYTHON))
	cmake --build $(SANITIZE_BUILD_DIR)
	cd $(SANITIZE_BUILD_DIR) && ARROW_DEFAULT_MEMORY_POOL=system \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(CTEST_JOBS)

demo: build
	$(BUILD_DIR)/examples/clickstream_demo $(BUILD_DIR)/demo-output

# The crash-restart soak: each pipeline killed and restarted SOAK_CYCLES times, then checked
# for lost and duplicated rows (SOAK_ARGS: --pipelines a,b, --seed S, --keep).
SOAK_CYCLES ?= 200
SOAK_ARGS ?=
soak: build
	TZ=UTC $(BUILD_DIR)/tests/sluice_soak --cycles $(SOAK_CYCLES) $(SOAK_ARGS)

bench: build
	$(BUILD_DIR)/bench/sluice_bench

# The Nexmark queries, each in a process of its own (NEXMARK_ARGS: --events N, --queries q0,q1,
# --sql, ...).
NEXMARK_ARGS ?=
bench-nexmark: build
	$(BUILD_DIR)/bench/nexmark_runner $(NEXMARK_ARGS)

# The same events and queries on Sluice and on PySpark (installed into its own venv), side by side.
NEXMARK_EVENTS ?= 10000000
bench-nexmark-spark: build
	BUILD_DIR=$(BUILD_DIR) scripts/bench-nexmark-vs-spark.sh $(NEXMARK_EVENTS)

# Micro-batch latency of a file stream in Sluice and in PySpark, side by side.
bench-latency: build
	BUILD_DIR=$(BUILD_DIR) scripts/bench-file-latency.sh

# Regenerates bench/RESULTS.md from the three above.
bench-results: build
	BUILD_DIR=$(BUILD_DIR) scripts/nexmark-results.sh $(NEXMARK_EVENTS)

# Fuzzes the parsers of untrusted bytes (SQL, JSON and CSV files, checkpoint and log files,
# options) with libFuzzer, each for FUZZ_SECONDS (needs clang, installed if missing).
FUZZ_SECONDS ?= 60
fuzz: build
	BUILD_DIR=$(BUILD_DIR) scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD_DIR)
