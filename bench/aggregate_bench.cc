// Hash aggregation throughput: groupBy(k).agg(count(*), sum(v)) over 10M rows with 1M distinct
// keys, through the DataFrame API on an in-memory table of 64K-row batches. Prints rows/s.
#include <random>

#include <arrow/api.h>
#include <benchmark/benchmark.h>

#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

namespace {

constexpr int64_t kRows = 10'000'000;
constexpr int64_t kBatchRows = 1 << 16;

std::shared_ptr<arrow::Table> MakeInput(int64_t distinct_keys, bool string_keys) {
  std::mt19937_64 random(42);
  std::uniform_int_distribution<int64_t> key(0, distinct_keys - 1);
  arrow::RecordBatchVector batches;
  std::shared_ptr<arrow::Schema> schema;
  for (int64_t begin = 0; begin < kRows; begin += kBatchRows) {
    const int64_t n = std::min(kBatchRows, kRows - begin);
    arrow::Int64Builder values;
    (void)values.Reserve(n);
    std::shared_ptr<arrow::Array> keys;
    if (string_keys) {
      arrow::StringBuilder builder;
      for (int64_t i = 0; i < n; ++i) (void)builder.Append("key-" + std::to_string(key(random)));
      keys = builder.Finish().ValueOrDie();
    } else {
      arrow::Int64Builder builder;
      (void)builder.Reserve(n);
      for (int64_t i = 0; i < n; ++i) builder.UnsafeAppend(key(random));
      keys = builder.Finish().ValueOrDie();
    }
    for (int64_t i = 0; i < n; ++i) values.UnsafeAppend(begin + i);
    schema = arrow::schema({arrow::field("k", keys->type()), arrow::field("v", arrow::int64())});
    batches.push_back(arrow::RecordBatch::Make(schema, n, {keys, values.Finish().ValueOrDie()}));
  }
  return arrow::Table::FromRecordBatches(schema, batches).ValueOrDie();
}

void GroupByCountSum(benchmark::State& state, bool string_keys) {
  const int64_t distinct_keys = state.range(0);
  auto session = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto df = session->createDataFrame(MakeInput(distinct_keys, string_keys))
                .groupBy({"k"})
                .agg({sluice::functions::count("*"), sluice::functions::sum("v")});
  for (auto _ : state) {
    auto result = df.collect();
    if (!result.ok()) {
      state.SkipWithError(result.status().ToString().c_str());
      return;
    }
    if ((*result)->num_rows() > distinct_keys) state.SkipWithError("too many groups");
    benchmark::DoNotOptimize(result);
  }
  state.counters["rows_per_second"] =
      benchmark::Counter(static_cast<double>(kRows), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_GroupByInt64CountSum(benchmark::State& state) { GroupByCountSum(state, false); }
void BM_GroupByStringCountSum(benchmark::State& state) { GroupByCountSum(state, true); }

}  // namespace

BENCHMARK(BM_GroupByInt64CountSum)->Arg(1'000'000)->Arg(1'000)->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_GroupByStringCountSum)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
