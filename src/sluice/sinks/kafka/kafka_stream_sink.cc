#include "sluice/sinks/kafka/kafka_stream_sink.h"

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/common/fault_points.h"
#include "sluice/sinks/kafka/kafka_producer.h"
#include "sluice/sinks/kafka/kafka_write_columns.h"
#include "sluice/sinks/kafka/kafka_sink_options.h"

namespace sluice::sinks {

namespace {

class KafkaStreamSink final : public StreamSink {
 public:
  KafkaStreamSink(KafkaSinkOptions options, KafkaWriteColumns columns,
                  std::string checkpoint_root)
      : options_(std::move(options)),
        columns_(std::move(columns)),
        checkpoint_root_(std::move(checkpoint_root)) {}

  // Spark prints the table object's identity (KafkaTable@<hash>); the hash is left out, as it
  // differs on every run.
  std::string Describe() const override {
    return "org.apache.spark.sql.kafka010.KafkaSourceProvider$KafkaTable";
  }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    last_output_rows_ = 0;
    if (!options_.exactly_once) return WriteAtLeastOnce(data);
    return WriteExactlyOnce(batch_id, data);
  }

  // Spark's v2 write reports the rows its writers wrote.
  int64_t last_output_rows() const override { return last_output_rows_; }

  void Stop() override {
    // Nothing is left in flight between batches; dropping the producer closes its
    // connections.
    producer_.reset();
  }

 private:
  arrow::Status WriteAtLeastOnce(physical::BatchStream& data) {
    if (producer_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(producer_, KafkaProducer::Make(options_, std::nullopt));
    }
    auto status = SendAll(data, nullptr);
    // Every record sent must be acknowledged (or have failed) before the batch counts as
    // written, even when sending stopped early; a failed delivery is the whole story only
    // once every report is in.
    auto flushed = producer_->Flush();
    return flushed.ok() ? status : flushed;
  }

  arrow::Status WriteExactlyOnce(int64_t batch_id, physical::BatchStream& data) {
    if (producer_ == nullptr) ARROW_RETURN_NOT_OK(StartTransactions());
    if (last_committed_batch_ && batch_id <= *last_committed_batch_) {
      // Written by an earlier run that died before the checkpoint recorded it: the rows are
      // in Kafka already. Pull them anyway, so that the batch runs as it ran the first time.
      while (true) {
        ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
        if (batch == nullptr) return arrow::Status::OK();
      }
    }
    ARROW_RETURN_NOT_OK(producer_->BeginTransaction());
    std::optional<std::string> marker_topic = columns_.topic_option();
    auto status = SendAll(data, &marker_topic);
    // The batch marker goes while the records are still on their way: its two round trips
    // to the coordinators overlap the records' acknowledgements instead of following them.
    if (status.ok() && marker_topic) {
      status = producer_->SendOffsetsToTransaction(group_, *marker_topic, 0, batch_id + 1);
    }
    // Every record must be acknowledged (or have failed) before the commit. A failed
    // delivery says best why the batch fails, so it wins over the marker's error.
    auto flushed = producer_->Flush();
    if (!flushed.ok()) status = flushed;
    if (status.ok()) {
      KillPoint(fault_points::kKafkaRecordsFlushed);
      status = producer_->CommitTransaction();
    }
    if (!status.ok()) {
      // The batch fails; its records must never become visible. When even the abort fails
      // (a fenced or fatal producer), the next run's InitTransactions aborts the transaction.
      auto aborted = producer_->AbortTransaction();
      producer_.reset();
      if (!aborted.ok()) return status.WithMessage(status.message(), "; ", aborted.message());
      return status;
    }
    last_committed_batch_ = batch_id;
    return arrow::Status::OK();
  }

  /// Registers the query's transactional id (fencing an earlier run of the query) and reads
  /// the last batch the query committed into Kafka.
  arrow::Status StartTransactions() {
    checkpoint::CheckpointPaths paths(checkpoint_root_);
    ARROW_ASSIGN_OR_RAISE(auto metadata, checkpoint::ReadWholeFile(paths.metadata()));
    ARROW_ASSIGN_OR_RAISE(auto query_id,
                          checkpoint::ParseQueryMetadata(metadata, paths.metadata()));
    group_ = KafkaSinkTransactionalId(query_id);
    ARROW_ASSIGN_OR_RAISE(auto producer, KafkaProducer::Make(options_, group_));
    ARROW_RETURN_NOT_OK(producer->InitTransactions());
    ARROW_ASSIGN_OR_RAISE(auto offset, producer->LastCommittedOffset(group_));
    if (offset) last_committed_batch_ = *offset - 1;
    producer_ = std::move(producer);
    return arrow::Status::OK();
  }

  /// Sends every row of `data`. When `first_topic` holds no topic yet, it gets the topic of
  /// the first row sent.
  arrow::Status SendAll(physical::BatchStream& data, std::optional<std::string>* first_topic) {
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) return arrow::Status::OK();
      if (batch->num_rows() == 0) continue;
      KafkaRecordBatchView rows = columns_.Bind(*batch);
      if (first_topic != nullptr && !*first_topic) {
        if (auto topic = rows.topic(0)) *first_topic = std::string(*topic);
      }
      ARROW_RETURN_NOT_OK(producer_->Send(rows));
      last_output_rows_ += rows.num_rows();
    }
  }

  KafkaSinkOptions options_;
  KafkaWriteColumns columns_;
  std::string checkpoint_root_;
  std::unique_ptr<KafkaProducer> producer_;
  /// Exactly-once: the transactional id, also the consumer group holding the batch marker.
  std::string group_;
  std::optional<int64_t> last_committed_batch_;
  int64_t last_output_rows_ = 0;
};

}  // namespace

std::string KafkaSinkTransactionalId(const std::string& query_id) {
  return "sluice-kafka-sink-" + query_id;
}

arrow::Result<std::unique_ptr<StreamSink>> MakeKafkaStreamSink(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& schema,
    std::string checkpoint_root) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseKafkaSinkOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto columns, KafkaWriteColumns::Make(*schema, parsed.topic));
  ARROW_RETURN_NOT_OK(CheckKafkaProducerSettings(parsed));
  return std::make_unique<KafkaStreamSink>(std::move(parsed), std::move(columns),
                                           std::move(checkpoint_root));
}

}  // namespace sluice::sinks
