// Reads the records of offset ranges of Kafka partitions into the source's columns (Spark's
// KafkaBatchPartitionReader over KafkaDataConsumer).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/sources/kafka/kafka_consumer_cache.h"
#include "sluice/sources/kafka/kafka_offset_reader.h"
#include "sluice/sources/kafka/kafka_options.h"

namespace sluice::sources::kafka {

/// The records of one partition in [from, until).
struct KafkaOffsetRange {
  TopicPartition partition;
  int64_t from = 0;
  int64_t until = 0;
};

/// The records of `ranges`, one partition after another in the order given, each in offset
/// order, as record batches of the source's schema. Offsets missing inside a range (control
/// records of transactions, records of aborted transactions under read_committed, compacted
/// records) are skipped: a range ends at `until`, not after a count of records. Waits for the
/// records of a range at most kafkaConsumer.pollTimeoutMs, then fails naming the partition
/// and the offsets. Records gone from the broker (retention, a deleted topic) are a data
/// loss, reported through `report_data_loss`: when it returns OK the reader goes on with what
/// is left. Deterministic: the same ranges give the same rows while the broker keeps them.
///
/// One consumer reads all the ranges. The partitions of the first range and of every range
/// that fits in one record batch are assigned at the first read, so that librdkafka fetches
/// them together; the other large ranges' partitions are assigned when their turn comes, so
/// that one large range at a time is fetched. librdkafka fetches an assigned partition ahead
/// up to kafka.queued.min.messages records or kafka.queued.max.messages.kbytes.
///
/// With `cache` (a streaming source), the consumer is taken from there (or made) and given
/// back once every range was read, its partitions (those of empty ranges too) still assigned
/// and fetching: the next batch reads what arrived meanwhile without waiting for the broker,
/// and assigns again only the partitions whose range does not start where the previous one
/// ended. A reader that fails, or is dropped before reading every range, closes its consumer.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ReadKafkaRanges(
    const KafkaSourceOptions& options, std::vector<KafkaOffsetRange> ranges,
    DataLossReporter report_data_loss, std::shared_ptr<KafkaConsumerCache> cache = nullptr);

}  // namespace sluice::sources::kafka
