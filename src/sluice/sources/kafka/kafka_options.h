// The options of the Kafka source, streaming and batch (Spark's KafkaSourceProvider), parsed
// once from the string options with Spark's defaults, checks and messages.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

/// Which partitions the source reads: exactly one of assign, subscribe, subscribePattern.
struct ConsumerStrategy {
  enum class Kind { kAssign, kSubscribe, kSubscribePattern };
  Kind kind = Kind::kSubscribe;
  /// assign: these partitions, in the order given.
  std::vector<TopicPartition> assigned;
  /// subscribe: every partition of these topics (trimmed, empty names dropped).
  std::vector<std::string> topics;
  /// subscribePattern: every partition of the topics whose name contains a match of this
  /// regex (Java's Matcher.find, as Spark; RE2 syntax, which agrees with Java's for common
  /// patterns).
  std::string pattern;

  /// Spark's ConsumerStrategy.toString: "Assign[t-0, t-1]", "Subscribe[a, b]",
  /// "SubscribePattern[t.*]".
  std::string ToString() const;
};

/// Where reading starts or ends (Spark's KafkaOffsetRangeLimit).
struct EarliestLimit {};
struct LatestLimit {};
/// Offsets per partition; kEarliestOffset / kLatestOffset resolve against the broker.
struct SpecificOffsetsLimit {
  PartitionOffsets offsets;
};
/// The first offset at or after a timestamp, per partition (startingOffsetsByTimestamp) or for
/// every partition (startingTimestamp).
struct TimestampLimit {
  /// Per partition; empty for a global timestamp.
  PartitionOffsets partition_timestamps;
  std::optional<int64_t> global_timestamp_ms;
  /// startingOffsetsByTimestampStrategy "latest": a partition without such an offset starts at
  /// latest instead of failing.
  bool no_match_starts_at_latest = false;
};
using OffsetRangeLimit =
    std::variant<EarliestLimit, LatestLimit, SpecificOffsetsLimit, TimestampLimit>;

/// The Kafka source's options, streaming or batch.
struct KafkaSourceOptions {
  ConsumerStrategy strategy;
  /// The kafka.* options without the prefix, handed to librdkafka as they are (SASL, TLS,
  /// isolation.level, ...). Always holds bootstrap.servers.
  std::map<std::string, std::string> client_config;
  /// kafka.group.id was set (Spark warns; data loss messages mention it).
  bool custom_group_id = false;
  /// groupIdPrefix: the start of the group id the source's consumers use when kafka.group.id
  /// is not set ("spark-kafka-source" streaming, "spark-kafka-relation" batch). The group is
  /// never joined; brokers with ACLs on group ids still check it.
  std::string group_id_prefix = "spark-kafka-source";
  /// Where a new query (or a batch read) starts. Streaming default latest, batch earliest.
  OffsetRangeLimit starting = LatestLimit{};
  /// Where a batch read ends (default latest). Unused by streaming.
  OffsetRangeLimit ending = LatestLimit{};
  /// maxOffsetsPerTrigger: records per micro-batch over all partitions; none by default.
  std::optional<int64_t> max_offsets_per_trigger;
  /// minOffsetsPerTrigger: a micro-batch waits for this many new records ...
  std::optional<int64_t> min_offsets_per_trigger;
  /// ... or until maxTriggerDelay (default 15m) passed since the last batch.
  int64_t max_trigger_delay_ms = 15 * 60 * 1000;
  /// failOnDataLoss (default true): fail, or warn and go on, when data is gone.
  bool fail_on_data_loss = true;
  /// includeHeaders (default false): adds the headers column.
  bool include_headers = false;
  /// kafkaConsumer.pollTimeoutMs: the longest wait for records of a range that the broker
  /// said exist (Spark's default, spark.network.timeout, is 120s).
  int64_t poll_timeout_ms = 120000;
  /// fetchOffset.numRetries (3) and fetchOffset.retryIntervalMs (1000): attempts at asking
  /// the broker for offsets before failing.
  int32_t fetch_offset_num_retries = 3;
  int64_t fetch_offset_retry_interval_ms = 1000;
};

/// Reads and checks readStream.format("kafka")'s options as Spark's validateStreamOptions and
/// createSource do. Errors are Spark's messages and name the option.
arrow::Result<KafkaSourceOptions> ParseKafkaStreamOptions(const formats::OptionMap& options);

/// Reads and checks read.format("kafka")'s options as Spark's validateBatchOptions and
/// createRelation do (startingOffsets default earliest, endingOffsets default latest).
arrow::Result<KafkaSourceOptions> ParseKafkaBatchOptions(const formats::OptionMap& options);

}  // namespace sluice::sources::kafka
