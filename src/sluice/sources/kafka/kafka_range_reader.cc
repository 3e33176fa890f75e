#include "sluice/sources/kafka/kafka_range_reader.h"

#include <chrono>

#include "sluice/sources/kafka/kafka_data_loss.h"
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

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
};

struct MessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
using Message = std::unique_ptr<rd_kafka_message_t, MessageDeleter>;

/// Reads the ranges one after another with one consumer, assigning each partition at the
/// range's first offset.
class KafkaRangeReader final : public arrow::RecordBatchReader {
 public:
  KafkaRangeReader(const KafkaSourceOptions& options, std::vector<KafkaOffsetRange> ranges,
                   DataLossReporter report_data_loss)
      : options_(options),
        ranges_(std::move(ranges)),
        report_data_loss_(std::move(report_data_loss)),
        columns_(options.include_headers) {}

  std::shared_ptr<arrow::Schema> schema() const override {
    return KafkaSchema(options_.include_headers);
  }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    while (columns_.num_rows() < kMaxBatchRows && next_range_ < ranges_.size()) {
      ARROW_RETURN_NOT_OK(ReadSome());
    }
    if (columns_.num_rows() == 0) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(*batch, columns_.Finish());
    return arrow::Status::OK();
  }

 private:
  // Reads the current range until it ends or the batch is full.
  arrow::Status ReadSome() {
    KafkaOffsetRange& range = ranges_[next_range_];
    if (range.from >= range.until) return FinishRange();
    if (!assigned_) ARROW_RETURN_NOT_OK(Assign(range));
    while (columns_.num_rows() < kMaxBatchRows) {
      Message message(rd_kafka_consumer_poll(handle_->get(), kPollSliceMs));
      if (message == nullptr) {
        if (SteadyNowMs() >= deadline_ms_) return TimedOut(range);
        continue;
      }
      // Events of a partition read before this one (the consumer is reused) are not this
      // range's: an old end-of-partition must not end it.
      const bool ours = message->rkt != nullptr &&
                        message->partition == range.partition.partition &&
                        range.partition.topic == rd_kafka_topic_name(message->rkt);
      if (message->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
        // The partition ends before `until` only while records are still arriving.
        if (ours && message->offset >= range.until) return FinishRange();
        continue;
      }
      if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
        ARROW_ASSIGN_OR_RAISE(bool range_over, OnError(range, *message));
        if (range_over) return FinishRange();
        continue;
      }
      if (!ours) continue;
      if (message->offset >= range.until) return FinishRange();
      if (message->offset < range.from) continue;
      ARROW_RETURN_NOT_OK(columns_.Append(*message));
      deadline_ms_ = SteadyNowMs() + options_.poll_timeout_ms;
      range.from = message->offset + 1;
      if (range.from >= range.until) return FinishRange();
    }
    return arrow::Status::OK();
  }

  arrow::Status Assign(const KafkaOffsetRange& range) {
    if (handle_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(handle_, KafkaConsumerHandle::Make(options_.client_config,
                                                               options_.group_id_prefix));
    }
    std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter> list(
        rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), range.partition.topic.c_str(),
                                      range.partition.partition)
        ->offset = range.from;
    rd_kafka_resp_err_t error = rd_kafka_assign(handle_->get(), list.get());
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("Cannot read ", range.partition.ToString(), " from offset ",
                                    range.from, ": ", KafkaErrorText(error));
    }
    assigned_ = true;
    deadline_ms_ = SteadyNowMs() + options_.poll_timeout_ms;
    last_error_.clear();
    return arrow::Status::OK();
  }

  arrow::Status FinishRange() {
    if (assigned_) {
      rd_kafka_assign(handle_->get(), nullptr);
      assigned_ = false;
    }
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
            " with consumer group " + handle_->group_id() + ". " +
            rd_kafka_message_errstr(&message))));
    if (gone) return true;
    // Aged out: go on from the earliest offset the broker still has.
    int64_t low = 0;
    int64_t high = 0;
    rd_kafka_resp_err_t error = rd_kafka_query_watermark_offsets(
        handle_->get(), range.partition.topic.c_str(), range.partition.partition, &low, &high,
        static_cast<int>(std::min<int64_t>(options_.poll_timeout_ms, 60000)));
    if (error != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return arrow::Status::IOError("Cannot find the earliest offset of ",
                                    range.partition.ToString(), ": ", KafkaErrorText(error));
    }
    if (low >= range.until) return true;
    range.from = std::max(range.from, low);
    rd_kafka_assign(handle_->get(), nullptr);
    ARROW_RETURN_NOT_OK(Assign(range));
    return false;
  }

  arrow::Status TimedOut(const KafkaOffsetRange& range) const {
    // Spark fails with Kafka's TimeoutException here, which has no error class.
    return arrow::Status::IOError(
        "Cannot read the records in offset [" + std::to_string(range.from) + ", " +
            std::to_string(range.until) + ") of topic partition " + range.partition.ToString() +
            " from kafka.bootstrap.servers=" + handle_->bootstrap_servers() + " within " +
            std::to_string(options_.poll_timeout_ms) + " ms (kafkaConsumer.pollTimeoutMs)" +
            (last_error_.empty() ? "." : ": " + last_error_));
  }

  const KafkaSourceOptions options_;
  std::vector<KafkaOffsetRange> ranges_;
  DataLossReporter report_data_loss_;
  KafkaRecordColumns columns_;
  std::unique_ptr<KafkaConsumerHandle> handle_;
  size_t next_range_ = 0;
  bool assigned_ = false;
  int64_t deadline_ms_ = 0;
  std::string last_error_;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ReadKafkaRanges(
    const KafkaSourceOptions& options, std::vector<KafkaOffsetRange> ranges,
    DataLossReporter report_data_loss) {
  return std::make_shared<KafkaRangeReader>(options, std::move(ranges),
                                            std::move(report_data_loss));
}

}  // namespace sluice::sources::kafka
