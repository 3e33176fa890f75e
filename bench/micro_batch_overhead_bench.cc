// Micro-batch overhead with a durable checkpoint: a source that has one new row at every
// trigger, a projection, the memory sink; every batch writes and fsyncs offsets/N and
// commits/N. Reports the median and p90 time between consecutive batches (the whole loop:
// latest offsets, offsets log, the plan, the sink, commit log, progress report).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>

#include <arrow/api.h>
#include <benchmark/benchmark.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/execution/query_listener.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/sinks/memory/memory_sink.h"
#include "sluice/sources/stream_source.h"

namespace {

namespace fs = std::filesystem;

/// One row per batch, forever: offset N holds the value N.
class CounterSource final : public sluice::sources::StreamSource {
 public:
  explicit CounterSource(std::shared_ptr<arrow::Schema> schema) : schema_(std::move(schema)) {}
  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override { return "CounterSource"; }
  arrow::Result<std::optional<std::string>> LatestOffset(
      const std::optional<std::string>& start, sluice::sources::ReadLimitMode) override {
    return std::optional<std::string>(std::to_string(start ? std::stoll(*start) + 1 : 0));
  }
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>&, const std::string& end) override {
    arrow::Int64Builder builder;
    ARROW_RETURN_NOT_OK(builder.Append(std::stoll(end)));
    ARROW_ASSIGN_OR_RAISE(auto values, builder.Finish());
    return arrow::RecordBatchReader::Make({arrow::RecordBatch::Make(schema_, 1, {values})},
                                          schema_);
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
};

class CounterProvider final : public sluice::sources::StreamSourceProvider {
 public:
  std::shared_ptr<arrow::Schema> schema() const override {
    return arrow::schema({arrow::field("value", arrow::int64())});
  }
  std::string Describe() const override { return "CounterSource"; }
  arrow::Result<std::unique_ptr<sluice::sources::StreamSource>> CreateSource(
      const sluice::sources::SourceContext&) const override {
    return std::make_unique<CounterSource>(schema());
  }
};

/// Records when each batch's progress arrives.
class BatchClock final : public sluice::execution::StreamingQueryListener {
 public:
  void onQueryProgress(const sluice::execution::QueryProgressEvent&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    times_.push_back(std::chrono::steady_clock::now());
  }
  std::vector<double> GapsMs() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<double> gaps;
    for (size_t i = 1; i < times_.size(); ++i) {
      gaps.push_back(std::chrono::duration<double, std::milli>(times_[i] - times_[i - 1]).count());
    }
    return gaps;
  }
  size_t count() {
    std::lock_guard<std::mutex> lock(mutex_);
    return times_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<std::chrono::steady_clock::time_point> times_;
};

void MicroBatchOverhead(benchmark::State& state) {
  constexpr size_t kBatches = 500;
  auto session = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto df = session->readStream()
                .load(std::make_shared<CounterProvider>())
                .select({(sluice::functions::col("value") * 2).alias("doubled")});
  for (auto _ : state) {
    fs::path checkpoint = fs::current_path() / ("bench-checkpoint-" + sluice::formats::RandomUuid());
    auto clock = std::make_shared<BatchClock>();
    session->streams()->addListener(clock);
    auto table = std::make_shared<sluice::sinks::MemoryTable>("bench", df.schema().ValueOrDie());
    auto query = df.writeStream()
                     .sink([table] { return sluice::sinks::MakeMemorySink(table); })
                     .option("checkpointLocation", checkpoint.string())
                     .start()
                     .ValueOrDie();
    while (clock->count() < kBatches) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    (void)query->stop();
    session->streams()->removeListener(clock);
    fs::remove_all(checkpoint);
    auto gaps = clock->GapsMs();
    std::sort(gaps.begin(), gaps.end());
    state.counters["median_ms"] = gaps[gaps.size() / 2];
    state.counters["p90_ms"] = gaps[gaps.size() * 9 / 10];
    state.counters["batches"] = static_cast<double>(gaps.size() + 1);
  }
}

}  // namespace

BENCHMARK(MicroBatchOverhead)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
