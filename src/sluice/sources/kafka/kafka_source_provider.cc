#include "sluice/sources/kafka/kafka_source_provider.h"

#include <string>
#include <variant>
#include <vector>

#include "sluice/common/errors.h"
#include "sluice/sources/kafka/kafka_data_loss.h"
#include "sluice/sources/kafka/kafka_micro_batch_stream.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/sources/kafka/kafka_offset_reader.h"
#include "sluice/sources/kafka/kafka_options.h"
#include "sluice/sources/kafka/kafka_range_reader.h"
#include "sluice/sources/kafka/kafka_record_columns.h"

namespace sluice::sources::kafka {

namespace {

arrow::Status CheckNoUserSchema(const std::shared_ptr<arrow::Schema>& user_schema) {
  if (user_schema != nullptr) {
    return arrow::Status::Invalid(
        "requirement failed: Kafka source has a fixed schema and cannot be set with a custom "
        "one");
  }
  return arrow::Status::OK();
}

// Spark's KafkaOffsetRangeLimit.toString, as KafkaRelation prints its limits.
std::string LimitText(const OffsetRangeLimit& limit) {
  if (std::holds_alternative<EarliestLimit>(limit)) return "EarliestOffsetRangeLimit";
  if (std::holds_alternative<LatestLimit>(limit)) return "LatestOffsetRangeLimit";
  if (const auto* specific = std::get_if<SpecificOffsetsLimit>(&limit)) {
    return "SpecificOffsetRangeLimit(" + MapText(specific->offsets) + ")";
  }
  const auto& timestamps = std::get<TimestampLimit>(limit);
  const std::string strategy = timestamps.no_match_starts_at_latest ? "LATEST" : "ERROR";
  if (timestamps.global_timestamp_ms) {
    return "GlobalTimestampRangeLimit(" + std::to_string(*timestamps.global_timestamp_ms) +
           "," + strategy + ")";
  }
  return "SpecificTimestampRangeLimit(" + MapText(timestamps.partition_timestamps) + "," +
         strategy + ")";
}

class KafkaSourceProvider final : public StreamSourceProvider {
 public:
  explicit KafkaSourceProvider(KafkaSourceOptions options) : options_(std::move(options)) {}

  std::shared_ptr<arrow::Schema> schema() const override {
    return KafkaSchema(options_.include_headers);
  }
  std::string Describe() const override {
    return "KafkaV2[" + options_.strategy.ToString() + "]";
  }
  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    return MakeKafkaMicroBatchStream(options_, context);
  }

 private:
  KafkaSourceOptions options_;
};

class KafkaRelation final : public plan::DataSource {
 public:
  explicit KafkaRelation(KafkaSourceOptions options) : options_(std::move(options)) {}

  std::shared_ptr<arrow::Schema> schema() const override {
    return KafkaSchema(options_.include_headers);
  }

  std::string Describe() const override {
    return "KafkaRelation(strategy=" + options_.strategy.ToString() +
           ", start=" + LimitText(options_.starting) + ", end=" + LimitText(options_.ending) +
           ")";
  }

  // Spark's getOffsetRangesFromUnresolvedOffsets, then KafkaRelation's check of each range.
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override {
    ARROW_ASSIGN_OR_RAISE(auto reader, KafkaOffsetReader::Make(options_));
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets from,
                          reader->Resolve(options_.starting, /*is_starting=*/true));
    ARROW_ASSIGN_OR_RAISE(PartitionOffsets until,
                          reader->Resolve(options_.ending, /*is_starting=*/false));
    if (KeysOf(from) != KeysOf(until)) {
      return arrow::Status::Invalid(
          "different topic partitions for starting offsets topics[", TopicsText(from),
          "] and ending offsets topics[", TopicsText(until), "]");
    }
    std::vector<KafkaOffsetRange> ranges;
    for (const auto& [partition, until_offset] : until) {
      const int64_t from_offset = from.at(partition);
      if (from_offset > until_offset) {
        return SparkError(
            "RESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET",
            "The resolved start offset " + std::to_string(from_offset) +
                " is greater than the resolved end offset " + std::to_string(until_offset) +
                " for topic " + partition.topic + " partition " +
                std::to_string(partition.partition) +
                ". There may be multiple reasons: 1. Start offset is set to too big a value "
                "that after resolution, end offset is smaller than it. There are multiple input "
                "cases: (a) Start offset is set to a timestamp, and the end offset is set to an "
                "index. (b) Start offset is set to an index, and the end offset is set to a "
                "timestamp. (c) Start offset is set, and the end offset is set to latest. 2. The "
                "Kafka topic partition is broken.");
      }
      ranges.push_back({partition, from_offset, until_offset});
    }
    return ReadKafkaRanges(options_, std::move(ranges),
                           MakeDataLossReporter(options_.fail_on_data_loss));
  }

 private:
  static std::string TopicsText(const PartitionOffsets& offsets) {
    std::string text;
    for (const auto& [partition, offset] : offsets) {
      if (!text.empty()) text += ",";
      text += partition.ToString();
    }
    return text;
  }

  KafkaSourceOptions options_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeKafkaSourceProvider(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& user_schema) {
  ARROW_ASSIGN_OR_RAISE(KafkaSourceOptions parsed, ParseKafkaStreamOptions(options));
  ARROW_RETURN_NOT_OK(CheckNoUserSchema(user_schema));
  return std::make_shared<const KafkaSourceProvider>(std::move(parsed));
}

arrow::Result<std::shared_ptr<const plan::DataSource>> MakeKafkaRelation(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& user_schema) {
  ARROW_ASSIGN_OR_RAISE(KafkaSourceOptions parsed, ParseKafkaBatchOptions(options));
  ARROW_RETURN_NOT_OK(CheckNoUserSchema(user_schema));
  return std::make_shared<const KafkaRelation>(std::move(parsed));
}

}  // namespace sluice::sources::kafka
