// Asks the broker which partitions the source reads and what their offsets are (Spark's
// KafkaOffsetReaderAdmin): the strategy's partitions from the cluster metadata, earliest,
// latest and by-timestamp offsets from ListOffsets, with Spark's retries and bounded waits.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/sources/kafka/kafka_consumer_handle.h"
#include "sluice/sources/kafka/kafka_options.h"

namespace sluice::sources::kafka {

/// Reports a data loss: fails (failOnDataLoss true) or warns and returns OK.
using DataLossReporter = std::function<arrow::Status(const arrow::Status& loss)>;

/// The driver side of the Kafka source. Thread-compatible: the query's batch loop uses it.
/// Every question is retried fetchOffset.numRetries times, fetchOffset.retryIntervalMs apart;
/// one attempt waits at most kAttemptTimeoutMs, and about 2 s while no broker can be reached, so
/// an unreachable kafka.bootstrap.servers fails after a bounded time with an error naming it.
class KafkaOffsetReader {
 public:
  /// The longest one attempt at a metadata or offsets question waits.
  static constexpr int64_t kAttemptTimeoutMs = 30000;

  static arrow::Result<std::unique_ptr<KafkaOffsetReader>> Make(const KafkaSourceOptions& options);

  /// The partitions the strategy reads now: assign's partitions that exist; subscribe's topics'
  /// partitions (a topic that does not exist fails, as in Spark); the partitions of every
  /// non-internal topic whose name contains a match of subscribePattern.
  arrow::Result<PartitionSet> AssignedPartitions();
  /// The latest offsets of the strategy's partitions (the high watermark, or the last stable
  /// offset under isolation.level=read_committed).
  arrow::Result<PartitionOffsets> FetchLatestOffsets();
  /// The earliest offsets of the strategy's partitions.
  arrow::Result<PartitionOffsets> FetchEarliestOffsets();
  /// The earliest offsets of those of `partitions` that still exist.
  arrow::Result<PartitionOffsets> FetchEarliestOffsets(const PartitionSet& partitions);
  /// Resolves a starting or ending limit against the broker (Spark's fetchPartitionOffsets,
  /// fetchSpecificOffsets and the timestamp forms): specific offsets must name exactly the
  /// strategy's partitions; -1 / -2 become the latest / earliest offsets; timestamps become
  /// the first offset at or after them (no such offset: an error for a starting limit unless
  /// startingOffsetsByTimestampStrategy is latest, else latest).
  arrow::Result<PartitionOffsets> Resolve(const OffsetRangeLimit& limit, bool is_starting);

 private:
  KafkaOffsetReader(const KafkaSourceOptions& options,
                    std::unique_ptr<KafkaConsumerHandle> handle);

  // Runs `attempt` up to fetch_offset_num_retries times.
  arrow::Result<PartitionOffsets> WithRetries(
      const std::function<arrow::Result<PartitionOffsets>()>& attempt);
  arrow::Result<PartitionSet> AssignedPartitionsOnce();
  // ListOffsets for each partition with its query (-1 latest, -2 earliest, or a timestamp).
  arrow::Result<PartitionOffsets> ListOffsets(const PartitionOffsets& queries);
  // An unreachable-broker error naming kafka.bootstrap.servers.
  arrow::Status Unreachable(const std::string& what, const std::string& detail) const;

  KafkaSourceOptions options_;
  std::unique_ptr<KafkaConsumerHandle> handle_;
};

}  // namespace sluice::sources::kafka
