// Filter + three projections over in-memory rows (issue: >= 100M rows/s on one core), and a
// decimal product.
#include <benchmark/benchmark.h>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/table.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"

namespace {

namespace F = sluice::functions;

constexpr int64_t kRows = 10'000'000;
constexpr int64_t kBatchRows = 64 * 1024;

std::shared_ptr<arrow::Table> MakeTable() {
  arrow::RecordBatchVector batches;
  auto schema = arrow::schema({arrow::field("a", arrow::int64()), arrow::field("b", arrow::int64()),
                               arrow::field("c", arrow::float64())});
  for (int64_t start = 0; start < kRows; start += kBatchRows) {
    const int64_t rows = std::min(kBatchRows, kRows - start);
    arrow::Int64Builder a, b;
    arrow::DoubleBuilder c;
    (void)a.Reserve(rows);
    (void)b.Reserve(rows);
    (void)c.Reserve(rows);
    for (int64_t i = start; i < start + rows; ++i) {
      a.UnsafeAppend((i * 7919) % 1000);
      b.UnsafeAppend(i);
      c.UnsafeAppend(static_cast<double>(i) * 0.5);
    }
    batches.push_back(arrow::RecordBatch::Make(
        schema, rows, {a.Finish().ValueOrDie(), b.Finish().ValueOrDie(), c.Finish().ValueOrDie()}));
  }
  return arrow::Table::FromRecordBatches(schema, batches).ValueOrDie();
}

/// Runs `query` over the kRows rows each iteration: count() computes every column it has.
void CountRows(benchmark::State& state, const sluice::DataFrame& query) {
  if (!query.ok()) state.SkipWithError(query.status().ToString().c_str());
  for (auto _ : state) {
    auto rows = query.count();
    if (!rows.ok()) state.SkipWithError(rows.status().ToString().c_str());
    benchmark::DoNotOptimize(rows);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

void BM_FilterAndThreeProjections(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto input = spark->createDataFrame(MakeTable());
  CountRows(state, input.filter(F::col("a") < 500)
                       .select({(F::col("a") + F::col("b")).alias("x"),
                                (F::col("c") * 2.0).alias("y"), (F::col("b") - 1).alias("z")}));
}
BENCHMARK(BM_FilterAndThreeProjections)->Unit(benchmark::kMillisecond)->UseRealTime();

// A decimal literal times a bigint column, as Nexmark q1's `0.908 * price` (decimal(24,3)).
void BM_DecimalTimesBigint(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  CountRows(state, spark->createDataFrame(MakeTable()).select({F::expr("0.908 * b").alias("x")}));
}
BENCHMARK(BM_DecimalTimesBigint)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
