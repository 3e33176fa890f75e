// The Kafka source's options, streaming and batch: Spark's defaults, its checks and messages
// (KafkaSourceProvider), the precedence of the three starting-offset forms, and the kafka.*
// settings handed to librdkafka without their prefix.
#include "sluice/sources/kafka/kafka_options.h"

#include <gtest/gtest.h>

#include "sluice/common/errors.h"

namespace sluice::sources::kafka {
namespace {

formats::OptionMap WithServers(formats::OptionMap options) {
  options.emplace("kafka.bootstrap.servers", "127.0.0.1:9092");
  return options;
}

std::string StreamError(const formats::OptionMap& options) {
  auto parsed = ParseKafkaStreamOptions(options);
  return parsed.ok() ? "no error" : parsed.status().message();
}

std::string BatchError(const formats::OptionMap& options) {
  auto parsed = ParseKafkaBatchOptions(options);
  return parsed.ok() ? "no error" : parsed.status().message();
}

TEST(KafkaOptionsTest, StreamingDefaultsAreSparks) {
  auto parsed = ParseKafkaStreamOptions(WithServers({{"subscribe", " a, ,b "}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->strategy.ToString(), "Subscribe[a, b]");
  EXPECT_TRUE(std::holds_alternative<LatestLimit>(parsed->starting));
  EXPECT_FALSE(parsed->max_offsets_per_trigger.has_value());
  EXPECT_FALSE(parsed->min_offsets_per_trigger.has_value());
  EXPECT_EQ(parsed->max_trigger_delay_ms, 15 * 60 * 1000);
  EXPECT_TRUE(parsed->fail_on_data_loss);
  EXPECT_FALSE(parsed->include_headers);
  EXPECT_EQ(parsed->group_id_prefix, "spark-kafka-source");
  EXPECT_EQ(parsed->client_config,
            (std::map<std::string, std::string>{{"bootstrap.servers", "127.0.0.1:9092"}}));
}

TEST(KafkaOptionsTest, PassesKafkaSettingsWithoutThePrefix) {
  auto parsed = ParseKafkaStreamOptions(WithServers({{"subscribePattern", " t.* "},
                                                     {"KAFKA.security.protocol", "SASL_SSL"},
                                                     {"kafka.sasl.mechanism", "PLAIN"},
                                                     {"kafkaConsumer.pollTimeoutMs", "500"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->strategy.ToString(), "SubscribePattern[t.*]");
  EXPECT_EQ(parsed->client_config.at("security.protocol"), "SASL_SSL");
  EXPECT_EQ(parsed->client_config.at("sasl.mechanism"), "PLAIN");
  EXPECT_EQ(parsed->client_config.count("kafkaConsumer.pollTimeoutMs"), 0u);
  EXPECT_EQ(parsed->poll_timeout_ms, 500);
}

TEST(KafkaOptionsTest, NeedsExactlyOneStrategy) {
  EXPECT_EQ(StreamError(WithServers({})),
            "One of the following options must be specified for Kafka source: subscribe, "
            "subscribepattern, assign. See the docs for more details.");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"assign", R"({"a":[0]})"}})),
            "Only one of the following options can be specified for Kafka source: subscribe, "
            "subscribepattern, assign. See the docs for more details.");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", " , "}})),
            "No topics to subscribe to as specified value for option 'subscribe' is ' , '");
  EXPECT_EQ(StreamError(WithServers({{"subscribePattern", "  "}})),
            "Pattern to subscribe is empty as specified value for option 'subscribePattern' is "
            "'  '");
  EXPECT_EQ(StreamError(WithServers({{"assign", "a"}})),
            "No topicpartitions to assign as specified value for option 'assign' is 'a'");
  EXPECT_EQ(StreamError(WithServers({{"assign", "{x"}})),
            R"(Expected e.g. {"topicA":[0,1],"topicB":[0,1]}, got {x (option 'assign'))");
}

TEST(KafkaOptionsTest, AssignKeepsTheGivenOrder) {
  auto parsed = ParseKafkaStreamOptions(WithServers({{"assign", R"({"t":[1,0],"a":[2]})"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->strategy.ToString(), "Assign[t-1, t-0, a-2]");
}

TEST(KafkaOptionsTest, RefusesConsumerSettingsWithSparksReasons) {
  EXPECT_EQ(StreamError({{"subscribe", "a"}}),
            "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka consumer");
  EXPECT_NE(StreamError(WithServers({{"subscribe", "a"}, {"kafka.auto.offset.reset", "x"}}))
                .find("Kafka option 'auto.offset.reset' is not supported.\nInstead set the "
                      "source option 'startingoffsets' to 'earliest' or 'latest'"),
            std::string::npos);
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"kafka.key.deserializer", "x"}})),
            "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte "
            "arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly "
            "deserialize the keys.");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"kafka.value.deserializer", "x"}})),
            "Kafka option 'value.deserializer' is not supported as values are deserialized as "
            "byte arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly "
            "deserialize the values.");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"kafka.enable.auto.commit", "x"}})),
            "Kafka option 'enable.auto.commit' is not supported");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"kafka.interceptor.classes", "x"}})),
            "Kafka option 'interceptor.classes' is not supported");
  // Spark only warns about a group id.
  auto parsed = ParseKafkaStreamOptions(WithServers({{"subscribe", "a"}, {"kafka.group.id", "g"}}));
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed->custom_group_id);
}

TEST(KafkaOptionsTest, ChecksTriggerLimits) {
  EXPECT_EQ(StreamError(WithServers(
                {{"subscribe", "a"},
                 {"minOffsetsPerTrigger", "10"},
                 {"maxOffsetsPerTrigger", "5"}})),
            "The value of minOffsetPerTrigger(10) is higher than the maxOffsetsPerTrigger(5).");
  auto parsed = ParseKafkaStreamOptions(WithServers({{"subscribe", "a"},
                                                     {"minOffsetsPerTrigger", "5"},
                                                     {"maxOffsetsPerTrigger", "10"},
                                                     {"maxTriggerDelay", "2s"},
                                                     {"failOnDataLoss", "FALSE"},
                                                     {"includeHeaders", "true"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->min_offsets_per_trigger, 5);
  EXPECT_EQ(parsed->max_offsets_per_trigger, 10);
  EXPECT_EQ(parsed->max_trigger_delay_ms, 2000);
  EXPECT_FALSE(parsed->fail_on_data_loss);
  EXPECT_TRUE(parsed->include_headers);
  EXPECT_NE(StreamError(WithServers({{"subscribe", "a"}, {"maxOffsetsPerTrigger", "x"}}))
                .find("maxOffsetsPerTrigger"),
            std::string::npos);
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "a"}, {"minPartitions", "0"}})),
            "minPartitions must be positive");
}

TEST(KafkaOptionsTest, StartingTimestampWinsOverByTimestampWhichWinsOverOffsets) {
  formats::OptionMap options = WithServers({{"subscribe", "t"},
                                            {"startingOffsets", "earliest"},
                                            {"startingOffsetsByTimestamp", R"({"t":{"0":5}})"},
                                            {"startingTimestamp", " 1000 "}});
  auto parsed = ParseKafkaStreamOptions(options);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const auto* global = std::get_if<TimestampLimit>(&parsed->starting);
  ASSERT_NE(global, nullptr);
  EXPECT_EQ(global->global_timestamp_ms, 1000);

  options.erase("startingTimestamp");
  parsed = ParseKafkaStreamOptions(options);
  ASSERT_TRUE(parsed.ok());
  const auto* by_partition = std::get_if<TimestampLimit>(&parsed->starting);
  ASSERT_NE(by_partition, nullptr);
  EXPECT_FALSE(by_partition->global_timestamp_ms.has_value());
  EXPECT_EQ(by_partition->partition_timestamps, (PartitionOffsets{{{"t", 0}, 5}}));

  options.erase("startingOffsetsByTimestamp");
  parsed = ParseKafkaStreamOptions(options);
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(std::holds_alternative<EarliestLimit>(parsed->starting));

  options["startingOffsets"] = R"({"t":{"0":23,"1":-1}})";
  parsed = ParseKafkaStreamOptions(options);
  ASSERT_TRUE(parsed.ok());
  const auto* specific = std::get_if<SpecificOffsetsLimit>(&parsed->starting);
  ASSERT_NE(specific, nullptr);
  EXPECT_EQ(specific->offsets, (PartitionOffsets{{{"t", 0}, 23}, {{"t", 1}, -1}}));
}

TEST(KafkaOptionsTest, BadStartingValuesNameTheOption) {
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "t"}, {"startingTimestamp", "soon"}})),
            "Expected a single long value, got soon (option 'startingTimestamp')");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "t"}, {"startingOffsets", "first"}})),
            R"(Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}, got first )"
            "(option 'startingOffsets')");
  auto latest = ParseKafkaStreamOptions(WithServers(
      {{"subscribe", "t"},
       {"startingTimestamp", "5"},
       {"startingOffsetsByTimestampStrategy", "Latest"}}));
  ASSERT_TRUE(latest.ok());
  EXPECT_TRUE(std::get<TimestampLimit>(latest->starting).no_match_starts_at_latest);
}

TEST(KafkaOptionsTest, EndingOffsetsOnlyInBatch) {
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "t"}, {"endingOffsets", "latest"}})),
            "ending offset not valid in streaming queries");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "t"}, {"endingOffsetsByTimestamp", "{}"}})),
            "ending timestamp not valid in streaming queries");
  EXPECT_EQ(StreamError(WithServers({{"subscribe", "t"}, {"endingTimestamp", "5"}})),
            "ending timestamp not valid in streaming queries");
}

TEST(KafkaOptionsTest, BatchDefaultsAndChecks) {
  auto parsed = ParseKafkaBatchOptions(WithServers({{"subscribe", "t"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(std::holds_alternative<EarliestLimit>(parsed->starting));
  EXPECT_TRUE(std::holds_alternative<LatestLimit>(parsed->ending));
  EXPECT_EQ(parsed->group_id_prefix, "spark-kafka-relation");
  auto prefixed = ParseKafkaBatchOptions(WithServers({{"subscribe", "t"}, {"groupIdPrefix", "g"}}));
  ASSERT_TRUE(prefixed.ok());
  EXPECT_EQ(prefixed->group_id_prefix, "g");
  EXPECT_EQ(BatchError(WithServers({{"subscribe", "t"}, {"startingOffsets", "latest"}})),
            "starting offset can't be latest for batch queries on Kafka");
  EXPECT_EQ(BatchError(WithServers({{"subscribe", "t"}, {"startingOffsets", R"({"t":{"0":-1}})"}})),
            "startingOffsets for t-0 can't be latest for batch queries on Kafka");
  EXPECT_EQ(BatchError(WithServers({{"subscribe", "t"}, {"endingOffsets", "earliest"}})),
            "ending offset can't be earliest for batch queries on Kafka");
  EXPECT_EQ(BatchError(WithServers({{"subscribe", "t"}, {"endingOffsets", R"({"t":{"1":-2}})"}})),
            "ending offset for t-1 can't be earliest for batch queries on Kafka");
  auto mismatched = ParseKafkaBatchOptions(WithServers({{"subscribe", "t"},
                                                        {"startingOffsets", R"({"t":{"0":1}})"},
                                                        {"endingOffsets", R"({"t":{"1":5}})"}}));
  ASSERT_FALSE(mismatched.ok());
  EXPECT_EQ(ErrorClassOf(mismatched.status()),
            "MISMATCHED_TOPIC_PARTITIONS_BETWEEN_START_OFFSET_AND_END_OFFSET");
  EXPECT_NE(mismatched.status().message().find("Set(t-0)"), std::string::npos);
  auto reversed = ParseKafkaBatchOptions(WithServers({{"subscribe", "t"},
                                                      {"startingOffsets", R"({"t":{"0":9}})"},
                                                      {"endingOffsets", R"({"t":{"0":5}})"}}));
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(ErrorClassOf(reversed.status()), "UNRESOLVED_START_OFFSET_GREATER_THAN_END_OFFSET");
  EXPECT_NE(reversed.status().message().find(
                "The specified start offset 9 is greater than the end offset 5 for topic t "
                "partition 0."),
            std::string::npos);
}

}  // namespace
}  // namespace sluice::sources::kafka
