#include "sluice/sources/kafka/kafka_range_reader.h"

#include <chrono>

#include "sluice/sources/kafka/kafka_data_loss.h"
#include "sluice/sources/kafka/kafka_partition_consumer.h"
#include "sluice/sources/kafka/kafka_record_columns.h"

namespace sluice::sources::kafka {

namespace {

// Rows per record batch handed downstream.
constexpr int64_t kMaxBatchRows = 64 * 1024;
// How long one poll waits before the reader checks its deadline.
constexpr int kPollSliceMs = 100;

int64_t SteadyNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Reads the ranges one after another with one consumer that has every range's partition
/// assigned from the start, so that librdkafka fetches them all at once.
class KafkaRangeReader final : public arrow::RecordBatchReader {
 public:
  KafkaRangeReader(const KafkaSourceOptions& options, std::vector<KafkaOffsetRange> ranges,
                   DataLossReporter report_data_loss, std::shared_ptr<KafkaConsumerCache> cache)
      : options_(options),
        ranges_(std::move(ranges)),
        report_data_loss_(std::move(report_data_loss)),
        cache_(std::move(cache)),
        columns_(options.include_headers) {}

  std::shared_ptr<arrow::Schema> schema() const override {
    return KafkaSchema(options_.include_headers);
  }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (consumer_ == nullptr && next_range_ < ranges_.size()) ARROW_RETURN_NOT_OK(Prepare());
    while (columns_.num_rows() < kMaxBatchRows && next_range_ < ranges_.size()) {
      ARROW_RETURN_NOT_OK(ReadSome());
    }
    // Every range read: the consumer serves the next batch, with what it fetched since.
    if (next_range_ == ranges_.size() && consumer_ != nullptr && cache_ != nullptr) {
      cache_->Keep(std::move(consumer_));
    }
    if (columns_.num_rows() == 0) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(*batch, columns_.Finish());
    return arrow::Status::OK();
  }

 private:
  // Takes the kept consumer (or makes one) and assigns at once the partitions of the first
  // range and of every small range, so that they are fetched together. The other large
  // ranges are assigned when their turn comes: librdkafka fetches each assigned partition up
  // to its queue limits, and several large ranges fetched at once would hold that much each.
  // A consumer kept for later also keeps the partitions of empty ranges, to fetch what comes.
  arrow::Status Prepare() {
    if (cache_ != nullptr) consumer_ = cache_->Take();
    if (consumer_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(consumer_, KafkaPartitionConsumer::Make(options_.client_config,
                                                                    options_.group_id_prefix));
    }
    PartitionOffsets starts;
    bool first = true;
    for (const auto& range : ranges_) {
      const int64_t records = range.until - range.from;
      if ((records > 0 && (first || records <= kMaxBatchRows)) ||
          (records == 0 && cache_ != nullptr)) {
        starts.emplace(range.partition, range.from);
      }
      first = first && records <= 0;
    }
    ARROW_RETURN_NOT_OK(consumer_->AssignExactly(starts));
    // Client errors from before this batch are not its story.
    consumer_->handle().DrainErrors();
    consumer_->handle().ClearErrors();
    return arrow::Status::OK();
  }

  // Reads the current range until it ends or the batch is full.
  arrow::Status ReadSome() {
    KafkaOffsetRange& range = ranges_[next_range_];
    if (range.from >= range.until) return FinishRange();
    if (queue_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(queue_, consumer_->QueueFrom(range.partition, range.from));
      deadline_ms_ = SteadyNowMs() + options_.poll_timeout_ms;
      last_error_.clear();
    }
    while (columns_.num_rows() < kMaxBatchRows) {
      KafkaMessage message = queue_->Poll(kPollSliceMs);
      if (message == nullptr) {
        if (SteadyNowMs() >= deadline_ms_) return TimedOut(range);
        KafkaConsumerHandle::ClientError client = consumer_->handle().DrainErrors();
        if (client.code != RD_KAFKA_RESP_ERR_NO_ERROR) last_error_ = client.text;
        continue;
      }
      if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        // The partition ends before `until` only while records are still arriving.
        if (message->offset >= range.until) {
          queue_->SkipTo(range.until);
          return FinishRange();
        }
        continue;
      }
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        ARROW_ASSIGN_OR_RAISE(bool range_over, OnError(range, *message));
        if (range_over) return FinishRange();
        continue;
      }
      if (message->offset >= range.until) {
        // The first record of the next batch: it stays for that batch.
        queue_->PutBack(std::move(message), range.until);
        return FinishRange();
      }
      if (message->offset < range.from) continue;
      ARROW_RETURN_NOT_OK(columns_.Append(*message));
      deadline_ms_ = SteadyNowMs() + options_.poll_timeout_ms;
      range.from = message->offset + 1;
      if (range.from >= range.until) return FinishRange();
    }
    return arrow::Status::OK();
  }

  arrow::Status FinishRange() {
    queue_ = nullptr;
    ++next_range_;
    return arrow::Status::OK();
  }

  // Whether the range is over after this error event; transient errors wait for the broker.
  arrow::Result<bool> OnError(KafkaOffsetRange& range, const rd_kafka_message_t& message) {
    const rd_kafka_resp_err_t code = message.err;
    const bool gone = code == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                      code == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC ||
                      code == RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION;
    const bool out_of_range = code == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET ||
                              code == RD_KAFKA_RESP_ERR_OFFSET_OUT_OF_RANGE;
    if (!gone && !out_of_range) {
      last_error_ = rd_kafka_message_errstr(&message);
      return false;
    }
    ARROW_RETURN_NOT_OK(report_data_loss_(KafkaDataLoss(
        "COULD_NOT_READ_OFFSET_RANGE",
        "Could not read records in offset [" + std::to_string(range.from) + ", " +
            std::to_string(range.until) + ") for topic partition " + range.partition.ToString() +
            " with consumer group " + consumer_->handle().group_id() + ". " +
            rd_kafka_message_errstr(&message))));
    // A partition whose range ends here is assigned again by the next batch: its queue
    // stopped before the range's end.
    if (gone) return true;
    // Aged out: go on from the earliest offset the broker still has.
    int64_t low = 0;
    int64_t high = 0;
    rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
        consumer_->handle().get(), range.partition.topic.c_str(), range.partition.partition,
        &low, &high, static_cast<int>(std::min<int64_t>(options_.poll_timeout_ms, 60000)));
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("Cannot find the earliest offset of ",
                                    range.partition.ToString(), ": ", KafkaErrorText(error));
    }
    if (low >= range.until) return true;
    range.from = std::max(range.from, low);
    ARROW_ASSIGN_OR_RAISE(queue_, consumer_->Reassign(range.partition, range.from));
    deadline_ms_ = SteadyNowMs() + options_.poll_timeout_ms;
    return false;
  }

  arrow::Status TimedOut(const KafkaOffsetRange& range) const {
    // Spark fails with Kafka's TimeoutException here, which has no error class.
    return arrow::Status::IOError(
        "Cannot read the records in offset [" + std::to_string(range.from) + ", " +
            std::to_string(range.until) + ") of topic partition " + range.partition.ToString() +
            " from kafka.bootstrap.servers=" + consumer_->handle().bootstrap_servers() +
            " within " + std::to_string(options_.poll_timeout_ms) +
            " ms (kafkaConsumer.pollTimeoutMs)" +
            (last_error_.empty() ? "." : ": " + last_error_));
  }

  const KafkaSourceOptions options_;
  std::vector<KafkaOffsetRange> ranges_;
  DataLossReporter report_data_loss_;
  // Where a consumer that read every range goes; null: the consumer closes with the reader.
  std::shared_ptr<KafkaConsumerCache> cache_;
  KafkaRecordColumns columns_;
  std::unique_ptr<KafkaPartitionConsumer> consumer_;
  // The queue of the range being read; owned by consumer_.
  KafkaPartitionQueue* queue_ = nullptr;
  size_t next_range_ = 0;
  int64_t deadline_ms_ = 0;
  std::string last_error_;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ReadKafkaRanges(
    const KafkaSourceOptions& options, std::vector<KafkaOffsetRange> ranges,
    DataLossReporter report_data_loss, std::shared_ptr<KafkaConsumerCache> cache) {
  return std::make_shared<KafkaRangeReader>(options, std::move(ranges),
                                            std::move(report_data_loss), std::move(cache));
}

}  // namespace sluice::sources::kafka
