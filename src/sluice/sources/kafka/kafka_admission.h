// How much a Kafka micro-batch takes (Spark's KafkaMicroBatchStream.rateLimit and delayBatch)
// and how far behind the latest offsets the query is (its source metrics). Pure functions of
// offsets and time, so they are tested without a broker.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

/// maxOffsetsPerTrigger: the end offsets of a batch taking at most about `limit` records from
/// `from` towards `until`, split across partitions in proportion to their backlog. A share
/// below one record rounds up (no partition starves), others round down; no end passes
/// `until`. A partition missing from `from` starts at its `earliest_of_new` offset; one
/// missing there too keeps its `until` offset (the batch planning reports it). With no backlog
/// at all the result is `until`.
PartitionOffsets RateLimit(int64_t limit, const PartitionOffsets& from,
                           const PartitionOffsets& until,
                           const PartitionOffsets& earliest_of_new);

/// minOffsetsPerTrigger with maxTriggerDelay: decides whether to skip this trigger.
/// Thread-compatible; one per running source.
class TriggerDelay {
 public:
  TriggerDelay(int64_t min_offsets, int64_t max_trigger_delay_ms)
      : min_offsets_(min_offsets), max_trigger_delay_ms_(max_trigger_delay_ms) {}

  /// True when fewer than min_offsets records lie between `current` and `latest` (a
  /// partition missing from `current` counts from 0) and less than maxTriggerDelay passed
  /// since the last batch that was not skipped (the first trigger counts from time 0, as
  /// Spark's). A batch that is not skipped restarts the delay at `now_ms`.
  bool ShouldSkip(const PartitionOffsets& latest, const PartitionOffsets& current,
                  int64_t now_ms);

 private:
  int64_t min_offsets_;
  int64_t max_trigger_delay_ms_;
  int64_t last_trigger_ms_ = 0;
};

/// The source metrics of a progress report: minOffsetsBehindLatest, maxOffsetsBehindLatest and
/// avgOffsetsBehindLatest (Java's Double.toString) over the partitions of `latest`, behind the
/// `consumed` offsets of the last batch. Empty when `latest` is.
std::map<std::string, std::string> OffsetsBehindLatestMetrics(const PartitionOffsets& consumed,
                                                              const PartitionOffsets& latest);

}  // namespace sluice::sources::kafka
