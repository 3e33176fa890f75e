// The state row codec at the rate the streaming aggregation needs (issue 4: 10M events/s,
// 1M groups per batch): EncodeRows over one batch of 1M rows, and decoding those rows back
// into arrays, for the three shapes an aggregation stores: (long) keys, (long, window) keys
// and (count, sum) values whose sum is sometimes null. Reports rows/s (items_per_second)
// and the encoded bytes per row.
#include <random>

#include <arrow/api.h>
#include <benchmark/benchmark.h>

#include "sluice/types/row_codec.h"

namespace {

constexpr int64_t kRows = 1'000'000;

struct Shape {
  std::vector<std::shared_ptr<arrow::DataType>> types;
  arrow::ArrayVector columns;
  bool for_keys;
};

std::shared_ptr<arrow::Array> Longs(std::mt19937_64& random, int64_t bound) {
  arrow::Int64Builder builder;
  (void)builder.Reserve(kRows);
  for (int64_t i = 0; i < kRows; ++i) builder.UnsafeAppend(static_cast<int64_t>(random() % bound));
  return builder.Finish().ValueOrDie();
}

Shape LongKeys() {
  std::mt19937_64 random(1);
  return {{arrow::int64()}, {Longs(random, 1'000'000'000)}, true};
}

Shape WindowKeys() {
  std::mt19937_64 random(2);
  auto timestamp = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  arrow::TimestampBuilder start(timestamp, arrow::default_memory_pool());
  arrow::TimestampBuilder end(timestamp, arrow::default_memory_pool());
  (void)start.Reserve(kRows);
  (void)end.Reserve(kRows);
  for (int64_t i = 0; i < kRows; ++i) {
    int64_t window = static_cast<int64_t>(random() % 100'000) * 10'000'000;
    start.UnsafeAppend(window);
    end.UnsafeAppend(window + 10'000'000);
  }
  arrow::FieldVector fields = {arrow::field("start", timestamp), arrow::field("end", timestamp)};
  auto windows = arrow::StructArray::Make(
                     {start.Finish().ValueOrDie(), end.Finish().ValueOrDie()}, fields)
                     .ValueOrDie();
  return {{arrow::int64(), arrow::struct_(fields)}, {Longs(random, 1'000'000), windows}, true};
}

Shape CountSumValues() {
  std::mt19937_64 random(3);
  arrow::DoubleBuilder sums;
  (void)sums.Reserve(kRows);
  for (int64_t i = 0; i < kRows; ++i) {
    if (random() % 10 == 0) {
      sums.UnsafeAppendNull();  // sum over only null inputs
    } else {
      sums.UnsafeAppend(static_cast<double>(random() % 1'000'000) / 100.0);
    }
  }
  return {{arrow::int64(), arrow::float64()},
          {Longs(random, 1'000), sums.Finish().ValueOrDie()},
          false};
}

void EncodeRows(benchmark::State& state, Shape (*make)()) {
  Shape shape = make();
  auto encoder = sluice::types::RowEncoder::Make(shape.types, shape.for_keys).ValueOrDie();
  std::string bytes;
  std::vector<uint32_t> offsets;
  for (auto _ : state) {
    encoder->EncodeRows(shape.columns, 0, kRows, &bytes, &offsets);
    benchmark::DoNotOptimize(bytes.data());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
  state.counters["bytes_per_row"] = static_cast<double>(bytes.size()) / kRows;
}

void DecodeRows(benchmark::State& state, Shape (*make)()) {
  Shape shape = make();
  auto encoder = sluice::types::RowEncoder::Make(shape.types, shape.for_keys).ValueOrDie();
  std::string bytes;
  std::vector<uint32_t> offsets;
  encoder->EncodeRows(shape.columns, 0, kRows, &bytes, &offsets);
  auto decoder = sluice::types::RowDecoder::Make(shape.types).ValueOrDie();
  for (auto _ : state) {
    for (int64_t r = 0; r < kRows; ++r) {
      auto status = decoder->Append(
          std::string_view(bytes).substr(offsets[r], offsets[r + 1] - offsets[r]));
      if (!status.ok()) state.SkipWithError(status.ToString().c_str());
    }
    auto arrays = decoder->Finish().ValueOrDie();
    benchmark::DoNotOptimize(arrays.data());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK_CAPTURE(EncodeRows, LongKeys, LongKeys)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(EncodeRows, WindowKeys, WindowKeys)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(EncodeRows, CountSumValues, CountSumValues)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(DecodeRows, LongKeys, LongKeys)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(DecodeRows, WindowKeys, WindowKeys)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(DecodeRows, CountSumValues, CountSumValues)->Unit(benchmark::kMillisecond);

}  // namespace
