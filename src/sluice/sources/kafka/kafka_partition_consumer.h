// A consumer of the Kafka source that reads each assigned partition from a queue of its own
// and remembers where each queue continues, so that it can be kept from one micro-batch to
// the next (Spark's cached KafkaDataConsumer; here one consumer for all partitions).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include <librdkafka/rdkafka.h>

#include "sluice/sources/kafka/kafka_consumer_handle.h"
#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

struct KafkaMessageDeleter {
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
};
/// A record or an event (an error, the end of a partition) from librdkafka, owned.
using KafkaMessage = std::unique_ptr<rd_kafka_message_t, KafkaMessageDeleter>;

/// The records of one assigned partition in offset order, from next() on: every record before
/// next() was read (or is not there: control records, aborted or compacted records), and the
/// next record Poll returns is the first one at or after next(). librdkafka keeps fetching
/// the partition in the background (up to queued.max.messages.kbytes a partition), also
/// between batches.
class KafkaPartitionQueue {
 public:
  KafkaPartitionQueue(rd_kafka_queue_t* queue, int64_t next) : queue_(queue), next_(next) {}
  ~KafkaPartitionQueue();
  KafkaPartitionQueue(const KafkaPartitionQueue&) = delete;
  KafkaPartitionQueue& operator=(const KafkaPartitionQueue&) = delete;

  /// The next record or event of the partition, waiting at most `timeout_ms`; null when none
  /// came. A record moves next() past its offset.
  KafkaMessage Poll(int timeout_ms);
  /// Gives back `record`, the first record at or after `offset` (read past the end of a
  /// range), and makes next() `offset`: the next Poll returns `record` again.
  void PutBack(KafkaMessage record, int64_t offset);
  /// Moves next() to `offset` when the partition has no records in [next(), offset) (the
  /// partition ended there).
  void SkipTo(int64_t offset);
  int64_t next() const { return next_; }

 private:
  rd_kafka_queue_t* queue_;
  int64_t next_;
  KafkaMessage put_back_;
};

/// A KafkaConsumerHandle whose partitions are assigned explicitly, each read from its own
/// queue: librdkafka fetches all of them at once while the reader takes one after another.
/// Thread-compatible: one thread at a time (a kept consumer moves between batches).
class KafkaPartitionConsumer {
 public:
  /// A consumer with no partition assigned; see KafkaConsumerHandle::Make for the settings.
  static arrow::Result<std::unique_ptr<KafkaPartitionConsumer>> Make(
      const std::map<std::string, std::string>& client_config,
      const std::string& group_id_prefix);
  KafkaPartitionConsumer(const KafkaPartitionConsumer&) = delete;
  KafkaPartitionConsumer& operator=(const KafkaPartitionConsumer&) = delete;

  /// Makes `starts` the assignment: each of these partitions then reads from its offset, and
  /// no other partition stays assigned. A partition whose queue already continues from its
  /// offset keeps what it fetched; the others are assigned (again) together, in one call.
  arrow::Status AssignExactly(const PartitionOffsets& starts);
  /// The queue of `partition`, continuing from `offset`: the partition's queue when it
  /// continues from there, else the partition assigned (again) at `offset`, dropping what
  /// was fetched.
  arrow::Result<KafkaPartitionQueue*> QueueFrom(const TopicPartition& partition,
                                                int64_t offset);
  /// Assigns `partition` again at `offset`, dropping what was fetched (after an error that
  /// stopped its fetching), and returns its queue. A queue returned by QueueFrom or Reassign
  /// belongs to the consumer and lives until its partition is assigned again or unassigned.
  arrow::Result<KafkaPartitionQueue*> Reassign(const TopicPartition& partition,
                                               int64_t offset);

  const KafkaConsumerHandle& handle() const { return *handle_; }
  KafkaConsumerHandle& handle() { return *handle_; }

 private:
  explicit KafkaPartitionConsumer(std::unique_ptr<KafkaConsumerHandle> handle)
      : handle_(std::move(handle)) {}

  // Assigns `starts` (none of them assigned now) in one call, each with its own queue.
  arrow::Status Assign(const PartitionOffsets& starts);
  arrow::Status Unassign(const PartitionSet& partitions);

  // Declared first: the queues (and any record they hold) go before the handle.
  std::unique_ptr<KafkaConsumerHandle> handle_;
  std::map<TopicPartition, std::unique_ptr<KafkaPartitionQueue>> queues_;
};

}  // namespace sluice::sources::kafka
