// FilterRows against Arrow's Filter on bid-like rows (three longs, a timestamp and a string of
// 100 bytes), for masks whose kept rows come in runs of a given mean length: the run copy
// must win from the length where FilterRows switches to it.
#include <benchmark/benchmark.h>

#include <random>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/compute/api_vector.h>
#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>

#include "sluice/physical/filter_rows.h"

namespace {

constexpr int64_t kRows = 64 * 1024;

std::shared_ptr<arrow::RecordBatch> BidRows() {
  std::mt19937_64 random(1);
  arrow::Int64Builder auction, bidder, price, time;
  arrow::StringBuilder extra;
  for (int64_t i = 0; i < kRows; ++i) {
    (void)auction.Append(static_cast<int64_t>(random() % 1000));
    (void)bidder.Append(static_cast<int64_t>(random() % 10000));
    (void)price.Append(static_cast<int64_t>(random() % 100000));
    (void)time.Append(i * 1000);
    (void)extra.Append(std::string(100, static_cast<char>('a' + i % 26)));
  }
  auto schema = arrow::schema({arrow::field("auction", arrow::int64()),
                               arrow::field("bidder", arrow::int64()),
                               arrow::field("price", arrow::int64()),
                               arrow::field("time", arrow::int64()),
                               arrow::field("extra", arrow::utf8())});
  return arrow::RecordBatch::Make(
      schema, kRows,
      {auction.Finish().ValueOrDie(), bidder.Finish().ValueOrDie(), price.Finish().ValueOrDie(),
       time.Finish().ValueOrDie(), extra.Finish().ValueOrDie()});
}

/// Runs kept and dropped in turn, of a random length with mean `mean_run`: half the rows kept.
std::shared_ptr<arrow::Array> RunMask(int64_t mean_run) {
  std::mt19937_64 random(2);
  arrow::BooleanBuilder mask;
  bool keep = true;
  for (int64_t i = 0; i < kRows; ++i) {
    if (static_cast<int64_t>(random() % static_cast<uint64_t>(mean_run)) == 0) keep = !keep;
    (void)mask.Append(keep);
  }
  return mask.Finish().ValueOrDie();
}

void BM_FilterRows(benchmark::State& state) {
  auto batch = BidRows();
  auto mask = RunMask(state.range(0));
  for (auto _ : state) {
    auto kept = sluice::physical::FilterRows(batch, *mask, arrow::default_memory_pool());
    benchmark::DoNotOptimize(kept);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_FilterRows)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(46);

void BM_ArrowFilter(benchmark::State& state) {
  auto batch = BidRows();
  auto mask = RunMask(state.range(0));
  for (auto _ : state) {
    auto kept = arrow::compute::Filter(batch, mask);
    benchmark::DoNotOptimize(kept);
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}
BENCHMARK(BM_ArrowFilter)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Arg(16)->Arg(46);

}  // namespace
