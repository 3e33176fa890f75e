// The Kafka sink into one broker, 100-byte values, in exactly-once mode (one transaction per
// micro-batch) and in the default at-least-once mode:
// - throughput: micro-batches of 200K rows (Arrow batches of 10K); messages/s is
//   items_per_second;
// - the time a small micro-batch (100 rows) spends in the sink, transaction commit included:
//   the sink's share of end-to-end latency (Time per iteration).
//
// Needs a broker: SLUICE_KAFKA_BOOTSTRAP=host:port (e.g. the address scripts/kafka/broker.sh
// start <dir> writes to <dir>/bootstrap); the topics are created on first use.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <arrow/api.h>
#include <benchmark/benchmark.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/physical/batch_stream.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"

namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxRowsPerArrowBatch = 10'000;
constexpr int kValueBytes = 100;

/// The same record batches handed out again for every micro-batch.
class RepeatedBatches final : public sluice::physical::BatchStream {
 public:
  RepeatedBatches(std::shared_ptr<arrow::Schema> schema,
                  std::shared_ptr<arrow::RecordBatch> batch, int64_t count)
      : schema_(std::move(schema)), batch_(std::move(batch)), left_(count) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (left_ == 0) return nullptr;
    --left_;
    return batch_;
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<arrow::RecordBatch> batch_;
  int64_t left_;
};

std::shared_ptr<arrow::RecordBatch> ValueBatch(const std::shared_ptr<arrow::Schema>& schema,
                                               int64_t rows) {
  arrow::BinaryBuilder builder;
  std::string value(kValueBytes, 'x');
  for (int64_t i = 0; i < rows; ++i) {
    std::string number = std::to_string(i);
    value.replace(0, number.size(), number);
    (void)builder.Append(value);
  }
  return arrow::RecordBatch::Make(schema, rows, {builder.Finish().ValueOrDie()});
}

void BM_KafkaSink(benchmark::State& state, bool exactly_once) {
  const char* bootstrap = std::getenv("SLUICE_KAFKA_BOOTSTRAP");
  if (bootstrap == nullptr) {
    state.SkipWithError("set SLUICE_KAFKA_BOOTSTRAP to the host:port of a Kafka broker");
    return;
  }
  fs::path checkpoint =
      fs::temp_directory_path() / ("kafka-sink-bench-" + sluice::formats::RandomUuid());
  fs::create_directories(checkpoint);
  const std::string query_id = sluice::formats::RandomUuid();
  (void)sluice::checkpoint::WriteFileAtomically(
      (checkpoint / "metadata").string(), sluice::checkpoint::SerializeQueryMetadata(query_id));
  auto schema = arrow::schema({arrow::field("value", arrow::binary())});
  auto sink = sluice::sinks::MakeKafkaStreamSink(
      {{"kafka.bootstrap.servers", bootstrap},
       {"topic", "kafka-sink-bench-" + query_id},
       {"exactlyOnce", exactly_once ? "true" : "false"},
       {"kafka.linger.ms", "5"},
       {"kafka.batch.size", "1000000"},
       {"kafka.queue.buffering.max.messages", "1000000"}},
      schema, checkpoint.string());
  if (!sink.ok()) {
    state.SkipWithError(sink.status().ToString().c_str());
    return;
  }
  const int64_t rows_per_micro_batch = state.range(0);
  const int64_t arrow_rows = std::min(rows_per_micro_batch, kMaxRowsPerArrowBatch);
  auto batch = ValueBatch(schema, arrow_rows);
  int64_t batch_id = 0;
  int64_t rows = 0;
  for (auto _ : state) {
    RepeatedBatches data(schema, batch, rows_per_micro_batch / arrow_rows);
    auto status = (*sink)->AddBatch(batch_id++, data, sluice::sinks::OutputMode::kAppend);
    if (!status.ok()) {
      state.SkipWithError(status.ToString().c_str());
      break;
    }
    rows += (*sink)->last_output_rows();
  }
  (*sink)->Stop();
  state.SetItemsProcessed(rows);
  state.SetBytesProcessed(rows * kValueBytes);
  fs::remove_all(checkpoint);
}

BENCHMARK_CAPTURE(BM_KafkaSink, ExactlyOnce, true)
    ->Arg(200'000)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(5);
BENCHMARK_CAPTURE(BM_KafkaSink, AtLeastOnce, false)
    ->Arg(200'000)
    ->Arg(100)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->MinTime(5);

}  // namespace
