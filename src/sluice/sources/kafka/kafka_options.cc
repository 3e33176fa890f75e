#include "sluice/sources/kafka/kafka_options.h"

#include <string_view>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources::kafka {

namespace {

// Spark lists the strategy options in this order (its Set's order) in messages.
constexpr std::string_view kStrategyOptions = "subscribe, subscribepattern, assign";

std::optional<std::string> Get(const formats::OptionMap& options, std::string_view key) {
  auto it = options.find(key);
  if (it == options.end()) return std::nullopt;
  return it->second;
}

bool Has(const formats::OptionMap& options, std::string_view key) {
  return options.find(key) != options.end();
}

std::string Trim(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && static_cast<unsigned char>(text[begin]) <= ' ') ++begin;
  while (end > begin && static_cast<unsigned char>(text[end - 1]) <= ' ') --end;
  return std::string(text.substr(begin, end - begin));
}

// An IllegalArgumentException of Spark's: no error class, Spark's text.
arrow::Status IllegalArgument(std::string_view message) {
  return arrow::Status::Invalid(message);
}

std::vector<std::string> SplitTopics(std::string_view value) {
  std::vector<std::string> topics;
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string_view::npos) comma = value.size();
    std::string topic = Trim(value.substr(start, comma - start));
    if (!topic.empty()) topics.push_back(std::move(topic));
    start = comma + 1;
  }
  return topics;
}

arrow::Result<ConsumerStrategy> ParseStrategy(const formats::OptionMap& options) {
  int count = Has(options, "assign") + Has(options, "subscribe") +
              Has(options, "subscribePattern");
  if (count == 0) {
    return IllegalArgument(
        "One of the following options must be specified for Kafka source: " +
        std::string(kStrategyOptions) + ". See the docs for more details.");
  }
  if (count > 1) {
    return IllegalArgument(
        "Only one of the following options can be specified for Kafka source: " +
        std::string(kStrategyOptions) + ". See the docs for more details.");
  }
  ConsumerStrategy strategy;
  if (auto value = Get(options, "assign")) {
    if (Trim(*value).rfind('{', 0) != 0) {
      return IllegalArgument(
          "No topicpartitions to assign as specified value for option 'assign' is '" + *value +
          "'");
    }
    strategy.kind = ConsumerStrategy::Kind::kAssign;
    auto assigned = ParseAssignedPartitions(*value);
    if (!assigned.ok()) {
      return IllegalArgument(assigned.status().message() + " (option 'assign')");
    }
    strategy.assigned = std::move(*assigned);
  } else if (auto value = Get(options, "subscribe")) {
    strategy.kind = ConsumerStrategy::Kind::kSubscribe;
    strategy.topics = SplitTopics(*value);
    if (strategy.topics.empty()) {
      return IllegalArgument(
          "No topics to subscribe to as specified value for option 'subscribe' is '" + *value +
          "'");
    }
  } else {
    std::string pattern = *Get(options, "subscribePattern");
    strategy.kind = ConsumerStrategy::Kind::kSubscribePattern;
    strategy.pattern = Trim(pattern);
    if (strategy.pattern.empty()) {
      return IllegalArgument(
          "Pattern to subscribe is empty as specified value for option 'subscribePattern' is "
          "'" +
          pattern + "'");
    }
  }
  return strategy;
}

// Spark's validateGeneralOptions after the strategy: the consumer settings it refuses.
arrow::Status CheckClientSettings(const formats::OptionMap& options) {
  if (Has(options, "kafka.auto.offset.reset")) {
    return IllegalArgument(
        "\nKafka option 'auto.offset.reset' is not supported.\n"
        "Instead set the source option 'startingoffsets' to 'earliest' or 'latest'\n"
        "to specify where to start. Structured Streaming manages which offsets are consumed\n"
        "internally, rather than relying on the kafkaConsumer to do it. This will ensure that "
        "no\n"
        "data is missed when new topics/partitions are dynamically subscribed. Note that\n"
        "'startingoffsets' only applies when a new Streaming query is started, and\n"
        "that resuming will always pick up from where the query left off. See the docs for "
        "more\n"
        "details.\n");
  }
  if (Has(options, "kafka.key.deserializer")) {
    return IllegalArgument(
        "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte "
        "arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly "
        "deserialize the keys.");
  }
  if (Has(options, "kafka.value.deserializer")) {
    return IllegalArgument(
        "Kafka option 'value.deserializer' is not supported as values are deserialized as "
        "byte arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly "
        "deserialize the values.");
  }
  for (std::string_view unsupported : {"enable.auto.commit", "interceptor.classes"}) {
    if (Has(options, "kafka." + std::string(unsupported))) {
      return IllegalArgument("Kafka option '" + std::string(unsupported) +
                             "' is not supported");
    }
  }
  if (!Has(options, "kafka.bootstrap.servers")) {
    return IllegalArgument(
        "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka consumer");
  }
  return arrow::Status::OK();
}

arrow::Status CheckGeneralOptions(const formats::OptionMap& options, KafkaSourceOptions* parsed) {
  ARROW_ASSIGN_OR_RAISE(parsed->strategy, ParseStrategy(options));
  if (Has(options, "minPartitions")) {
    ARROW_ASSIGN_OR_RAISE(int32_t min_partitions, IntOption(options, "minPartitions", 0));
    if (min_partitions <= 0) return IllegalArgument("minPartitions must be positive");
  }
  if (Has(options, "maxRecordsPerPartition")) {
    ARROW_ASSIGN_OR_RAISE(int64_t max_records, LongOption(options, "maxRecordsPerPartition", 0));
    if (max_records <= 0) return IllegalArgument("maxrecordsperpartition must be positive");
  }
  ARROW_RETURN_NOT_OK(CheckClientSettings(options));
  parsed->custom_group_id = Has(options, "kafka.group.id");
  if (Has(options, "minOffsetsPerTrigger") && Has(options, "maxOffsetsPerTrigger")) {
    ARROW_ASSIGN_OR_RAISE(int64_t min_offsets, LongOption(options, "minOffsetsPerTrigger", 0));
    ARROW_ASSIGN_OR_RAISE(int64_t max_offsets, LongOption(options, "maxOffsetsPerTrigger", 0));
    if (min_offsets > max_offsets) {
      return IllegalArgument("The value of minOffsetPerTrigger(" + std::to_string(min_offsets) +
                             ") is higher than the maxOffsetsPerTrigger(" +
                             std::to_string(max_offsets) + ").");
    }
  }
  for (const auto& [key, value] : options) {
    if (key.size() > 6 && AsciiLower(key.substr(0, 6)) == "kafka.") {
      parsed->client_config[key.substr(6)] = value;
    }
  }
  return arrow::Status::OK();
}

// Spark's getKafkaOffsetRangeLimit: the global timestamp wins over per-partition timestamps,
// which win over offsets.
arrow::Result<OffsetRangeLimit> ParseRangeLimit(const formats::OptionMap& options,
                                                std::string_view timestamp_key,
                                                std::string_view by_timestamp_key,
                                                std::string_view offsets_key,
                                                OffsetRangeLimit default_limit) {
  bool no_match_latest = false;
  if (auto strategy = Get(options, "startingOffsetsByTimestampStrategy")) {
    if (AsciiEqualsIgnoreCase(*strategy, "latest")) {
      no_match_latest = true;
    } else if (!AsciiEqualsIgnoreCase(*strategy, "error")) {
      std::string upper = *strategy;
      for (char& c : upper) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      return IllegalArgument("No value found for '" + upper +
                             "' (option 'startingOffsetsByTimestampStrategy': ERROR or "
                             "LATEST)");
    }
  }
  if (auto text = Get(options, timestamp_key)) {
    const std::string trimmed = Trim(*text);
    std::optional<int64_t> timestamp = ParseJavaLong(trimmed);
    if (!timestamp) {
      return IllegalArgument("Expected a single long value, got " + trimmed + " (option '" +
                             std::string(timestamp_key) + "')");
    }
    TimestampLimit limit;
    limit.global_timestamp_ms = *timestamp;
    limit.no_match_starts_at_latest = no_match_latest;
    return limit;
  }
  if (auto text = Get(options, by_timestamp_key)) {
    auto timestamps = ParsePartitionTimestamps(Trim(*text));
    if (!timestamps.ok()) {
      return IllegalArgument(timestamps.status().message() + " (option '" +
                             std::string(by_timestamp_key) + "')");
    }
    TimestampLimit limit;
    limit.partition_timestamps = std::move(*timestamps);
    limit.no_match_starts_at_latest = no_match_latest;
    return limit;
  }
  if (auto text = Get(options, offsets_key)) {
    const std::string trimmed = Trim(*text);
    const std::string lower = AsciiLower(trimmed);
    if (lower == "latest") return LatestLimit{};
    if (lower == "earliest") return EarliestLimit{};
    auto offsets = ParsePartitionOffsets(trimmed);
    if (!offsets.ok()) {
      return IllegalArgument(offsets.status().message() + " (option '" +
                             std::string(offsets_key) + "')");
    }
    return SpecificOffsetsLimit{std::move(*offsets)};
  }
  return default_limit;
}

arrow::Status ParseTriggerOptions(const formats::OptionMap& options,
                                  KafkaSourceOptions* parsed) {
  if (Has(options, "maxOffsetsPerTrigger")) {
    ARROW_ASSIGN_OR_RAISE(parsed->max_offsets_per_trigger,
                          LongOption(options, "maxOffsetsPerTrigger", 0));
  }
  if (Has(options, "minOffsetsPerTrigger")) {
    ARROW_ASSIGN_OR_RAISE(parsed->min_offsets_per_trigger,
                          LongOption(options, "minOffsetsPerTrigger", 0));
  }
  ARROW_ASSIGN_OR_RAISE(
      parsed->max_trigger_delay_ms,
      TimeStringOption(options, "maxTriggerDelay", TimeStringUnit::kMilliseconds,
                       parsed->max_trigger_delay_ms));
  return arrow::Status::OK();
}

arrow::Status ParseCommonOptions(const formats::OptionMap& options, KafkaSourceOptions* parsed) {
  if (auto prefix = Get(options, "groupIdPrefix")) parsed->group_id_prefix = *prefix;
  ARROW_ASSIGN_OR_RAISE(parsed->fail_on_data_loss,
                        BooleanOption(options, "failOnDataLoss", true));
  ARROW_ASSIGN_OR_RAISE(parsed->include_headers, BooleanOption(options, "includeHeaders", false));
  ARROW_ASSIGN_OR_RAISE(parsed->poll_timeout_ms,
                        LongOption(options, "kafkaConsumer.pollTimeoutMs",
                                   parsed->poll_timeout_ms));
  ARROW_ASSIGN_OR_RAISE(parsed->fetch_offset_num_retries,
                        IntOption(options, "fetchOffset.numRetries", 3));
  ARROW_ASSIGN_OR_RAISE(parsed->fetch_offset_retry_interval_ms,
                        LongOption(options, "fetchOffset.retryIntervalMs", 1000));
  return arrow::Status::OK();
}

// Spark's checkOffsetLimitValidity for two offset maps.
arrow::Status CheckOffsetLimitValidity(const OffsetRangeLimit& starting,
                                       const OffsetRangeLimit& ending) {
  const auto* start = std::get_if<SpecificOffsetsLimit>(&starting);
  const auto* end = std::get_if<SpecificOffsetsLimit>(&ending);
  if (start == nullptr || end == nullptr) return arrow::Status::OK();
  if (KeysOf(start->offsets) != KeysOf(end->offsets)) {
    return SparkError("MISMATCHED_TOPIC_PARTITIONS_BETWEEN_START_OFFSET_AND_END_OFFSET",
                      "The specified start offset and end offset should have the same "
                      "topic-partitions. Topic-partitions for start offset: " +
                          SetText(KeysOf(start->offsets)) +
                          ", topic-partitions for end offset: " + SetText(KeysOf(end->offsets)) +
                          ".");
  }
  for (const auto& [partition, start_offset] : start->offsets) {
    const int64_t end_offset = end->offsets.at(partition);
    if (start_offset > end_offset && start_offset >= 0 && end_offset >= 0) {
      return SparkError("UNRESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET",
                        "The specified start offset " + std::to_string(start_offset) +
                            " is greater than the end offset " + std::to_string(end_offset) +
                            " for topic " + partition.topic + " partition " +
                            std::to_string(partition.partition) + ".");
    }
  }
  return arrow::Status::OK();
}

}  // namespace

std::string ConsumerStrategy::ToString() const {
  std::string text;
  switch (kind) {
    case Kind::kAssign:
      text = "Assign[";
      for (size_t i = 0; i < assigned.size(); ++i) {
        if (i > 0) text += ", ";
        text += assigned[i].ToString();
      }
      return text + "]";
    case Kind::kSubscribe:
      text = "Subscribe[";
      for (size_t i = 0; i < topics.size(); ++i) {
        if (i > 0) text += ", ";
        text += topics[i];
      }
      return text + "]";
    case Kind::kSubscribePattern:
      return "SubscribePattern[" + pattern + "]";
  }
  return text;
}

arrow::Result<KafkaSourceOptions> ParseKafkaStreamOptions(const formats::OptionMap& options) {
  if (Has(options, "endingOffsets")) {
    return IllegalArgument("ending offset not valid in streaming queries");
  }
  if (Has(options, "endingOffsetsByTimestamp") || Has(options, "endingTimestamp")) {
    return IllegalArgument("ending timestamp not valid in streaming queries");
  }
  KafkaSourceOptions parsed;
  ARROW_RETURN_NOT_OK(CheckGeneralOptions(options, &parsed));
  ARROW_RETURN_NOT_OK(ParseTriggerOptions(options, &parsed));
  ARROW_RETURN_NOT_OK(ParseCommonOptions(options, &parsed));
  ARROW_ASSIGN_OR_RAISE(parsed.starting,
                        ParseRangeLimit(options, "startingTimestamp",
                                        "startingOffsetsByTimestamp", "startingOffsets",
                                        LatestLimit{}));
  return parsed;
}

arrow::Result<KafkaSourceOptions> ParseKafkaBatchOptions(const formats::OptionMap& options) {
  KafkaSourceOptions parsed;
  parsed.group_id_prefix = "spark-kafka-relation";
  ARROW_ASSIGN_OR_RAISE(parsed.starting,
                        ParseRangeLimit(options, "startingTimestamp",
                                        "startingOffsetsByTimestamp", "startingOffsets",
                                        EarliestLimit{}));
  if (std::holds_alternative<LatestLimit>(parsed.starting)) {
    return IllegalArgument("starting offset can't be latest for batch queries on Kafka");
  }
  if (const auto* specific = std::get_if<SpecificOffsetsLimit>(&parsed.starting)) {
    for (const auto& [partition, offset] : specific->offsets) {
      if (offset == kLatestOffset) {
        return IllegalArgument("startingOffsets for " + partition.ToString() +
                               " can't be latest for batch queries on Kafka");
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(parsed.ending,
                        ParseRangeLimit(options, "endingTimestamp", "endingOffsetsByTimestamp",
                                        "endingOffsets", LatestLimit{}));
  if (std::holds_alternative<EarliestLimit>(parsed.ending)) {
    return IllegalArgument("ending offset can't be earliest for batch queries on Kafka");
  }
  if (const auto* specific = std::get_if<SpecificOffsetsLimit>(&parsed.ending)) {
    for (const auto& [partition, offset] : specific->offsets) {
      if (offset == kEarliestOffset) {
        return IllegalArgument("ending offset for " + partition.ToString() +
                               " can't be earliest for batch queries on Kafka");
      }
    }
  }
  ARROW_RETURN_NOT_OK(CheckGeneralOptions(options, &parsed));
  ARROW_RETURN_NOT_OK(ParseCommonOptions(options, &parsed));
  ARROW_RETURN_NOT_OK(CheckOffsetLimitValidity(parsed.starting, parsed.ending));
  return parsed;
}

}  // namespace sluice::sources::kafka
