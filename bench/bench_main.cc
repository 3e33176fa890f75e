// The main of sluice_bench: Google Benchmark's own, and then a wait for the pools, as every
// program of the project does before it exits (a pool thread still ending a task while the
// process exits crashed the test binaries once).
#include <benchmark/benchmark.h>

#include "sluice/common/read_ahead.h"

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  sluice::WaitForPoolsIdle();
  return 0;
}
