// Window function throughput: 1M rows in 1K partitions, ordered by a random key, through the
// DataFrame API on an in-memory table. One benchmark per way the Window operator computes a
// function: ranking (sort and runs), offsets, an aggregate over whole partitions, a running
// aggregate and a sliding one. Prints rows/s.
#include <random>

#include <arrow/api.h>
#include <benchmark/benchmark.h>

#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/api/window_spec.h"

namespace {

namespace F = sluice::functions;

constexpr int64_t kRows = 1'000'000;
constexpr int64_t kPartitions = 1'000;

std::shared_ptr<arrow::Table> MakeInput() {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int64_t> partition(0, kPartitions - 1);
  std::uniform_int_distribution<int64_t> time(0, 1'000'000'000);
  std::uniform_real_distribution<double> value(0, 100);
  arrow::Int64Builder keys, times;
  arrow::DoubleBuilder values;
  for (int64_t i = 0; i < kRows; ++i) {
    (void)keys.Append(partition(random));
    (void)times.Append(time(random));
    (void)values.Append(value(random));
  }
  auto schema = arrow::schema({arrow::field("k", arrow::int64()), arrow::field("t", arrow::int64()),
                               arrow::field("v", arrow::float64())});
  return arrow::Table::Make(schema, {keys.Finish().ValueOrDie(), times.Finish().ValueOrDie(),
                                     values.Finish().ValueOrDie()});
}

void RunWindow(benchmark::State& state, const sluice::Column& function) {
  static const auto input = MakeInput();
  auto session = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto df = session->createDataFrame(input).select({"k", "t", function.alias("x")});
  for (auto _ : state) {
    auto result = df.collect();
    if (!result.ok()) {
      state.SkipWithError(result.status().ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(result);
  }
  state.counters["rows_per_second"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
}

sluice::WindowSpec ByKeyAndTime() {
  return sluice::Window::partitionBy({"k"}).orderBy({"t"});
}

void RowNumber(benchmark::State& state) { RunWindow(state, F::row_number().over(ByKeyAndTime())); }
void Lag(benchmark::State& state) { RunWindow(state, F::lag(F::col("v")).over(ByKeyAndTime())); }
void PartitionSum(benchmark::State& state) {
  RunWindow(state, F::sum(F::col("v")).over(sluice::Window::partitionBy({"k"})));
}
void RunningSum(benchmark::State& state) {
  RunWindow(state, F::sum(F::col("v")).over(ByKeyAndTime()));
}
void SlidingAverage(benchmark::State& state) {
  RunWindow(state, F::avg(F::col("v")).over(ByKeyAndTime().rowsBetween(-5, 5)));
}

BENCHMARK(RowNumber)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Lag)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(PartitionSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(RunningSum)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(SlidingAverage)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
