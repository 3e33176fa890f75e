// A librdkafka producer as the Kafka sink uses it: send the records of a batch, wait for every
// delivery report, and (in exactly-once mode) run one transaction per micro-batch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/sinks/kafka/kafka_write_columns.h"
#include "sluice/sinks/kafka/kafka_sink_options.h"

struct rd_kafka_s;
struct rd_kafka_topic_s;
struct rd_kafka_message_s;

namespace sluice::sinks {

/// Checks that librdkafka accepts every producer setting of `options`, without connecting.
/// Fails naming the kafka.* option librdkafka refuses, with librdkafka's reason.
arrow::Status CheckKafkaProducerSettings(const KafkaSinkOptions& options);

/// One librdkafka producer. Used by one thread at a time (the query's batch loop); delivery
/// reports are served on that thread, inside Send and Flush. Every wait is bounded: by the
/// delivery timeout (kafka.delivery.timeout.ms / message.timeout.ms: 120 s by default as in
/// Java's producer, at most kafka.transaction.timeout.ms (60 s) for a transactional one) for
/// records, by kafka.max.block.ms for the other calls.
class KafkaProducer {
 public:
  /// A producer with the sink's settings over librdkafka's defaults made to match Java's
  /// producer as Spark runs it: idempotence on, Java's murmur2 partitioner, a 120 s delivery
  /// timeout (non-transactional). With `transactional_id`, a transactional producer (call
  /// InitTransactions first).
  /// Connects in the background; fails only on settings librdkafka refuses.
  static arrow::Result<std::unique_ptr<KafkaProducer>> Make(
      const KafkaSinkOptions& options, std::optional<std::string> transactional_id);
  ~KafkaProducer();
  KafkaProducer(const KafkaProducer&) = delete;
  KafkaProducer& operator=(const KafkaProducer&) = delete;

  /// Queues every record of `rows` (waiting for queue space as long as deliveries progress).
  /// The record bytes are not copied: the view is kept until every record is acknowledged or
  /// failed (a Flush or an abort that completes), or the producer is destroyed. Fails on
  /// a record refused before sending (too large: names the topic and the size; a null topic;
  /// an unknown partition), and on the first failed delivery seen so far.
  arrow::Status Send(const KafkaRecordBatchView& rows);

  /// Waits until every queued record is acknowledged or failed, then reports the first failed
  /// delivery since the previous Flush, naming the topic, partition and record size. A broker
  /// that does not answer fails after the delivery timeout.
  arrow::Status Flush();

  /// Records acknowledged by the broker since this producer was made.
  int64_t delivered() const { return delivered_; }

  /// Transactional producers: registers the transactional id with its coordinator, which
  /// fences an older producer of the same id and aborts its unfinished transaction.
  arrow::Status InitTransactions();
  arrow::Status BeginTransaction();
  /// Adds to the open transaction the commit of offset `offset` of `topic` partition
  /// `partition` for consumer group `group`: the batch marker of the exactly-once sink.
  arrow::Status SendOffsetsToTransaction(const std::string& group, const std::string& topic,
                                         int32_t partition, int64_t offset);
  /// Flushes, then commits the open transaction.
  arrow::Status CommitTransaction();
  /// Aborts the open transaction (waiting at most kafka.max.block.ms); its records never
  /// reach a read_committed consumer.
  arrow::Status AbortTransaction();
  /// The largest offset that consumer group `group` has committed on any partition (read
  /// with only committed transactions counted), or nullopt when it has none.
  arrow::Result<std::optional<int64_t>> LastCommittedOffset(const std::string& group);

 private:
  KafkaProducer() = default;
  static void OnDelivery(rd_kafka_s* handle, const rd_kafka_message_s* message, void* opaque);
  void RecordDelivery(const rd_kafka_message_s& message);
  arrow::Result<rd_kafka_topic_s*> Topic(std::string_view name);
  arrow::Status SendRecord(const KafkaRecordBatchView& rows, int64_t row);
  /// The first failed delivery since the last call, cleared.
  arrow::Status TakeDeliveryError();
  /// Wraps a librdkafka failure of `what` with the broker list and the producer's identity.
  arrow::Status Failure(const std::string& what, const std::string& reason) const;

  rd_kafka_s* handle_ = nullptr;
  KafkaSinkOptions options_;
  std::unordered_map<std::string, rd_kafka_topic_s*> topics_;
  std::vector<KafkaRecordBatchView> in_flight_;
  std::string bootstrap_servers_;
  std::optional<std::string> transactional_id_;
  int64_t max_block_ms_ = 60'000;
  int64_t delivery_timeout_ms_ = 120'000;
  int64_t message_max_bytes_ = 1'000'000;
  int64_t delivered_ = 0;
  arrow::Status delivery_error_;
  /// The librdkafka error code and record size behind delivery_error_.
  int delivery_error_code_ = 0;
  int64_t delivery_error_size_ = 0;
};

}  // namespace sluice::sinks
