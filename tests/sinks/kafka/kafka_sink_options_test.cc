// The Kafka sink's options and columns are checked before anything connects, with Spark's
// messages (KafkaSourceProvider.kafkaParamsForProducer, KafkaWriter.validateQuery).
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sluice/sinks/kafka/kafka_producer.h"
#include "sluice/sinks/kafka/kafka_write_columns.h"
#include "sluice/sinks/kafka/kafka_sink_options.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"
#include "sluice/sinks/sink_registry.h"
#include "sluice/types/spark_types.h"

namespace sluice::sinks {
namespace {

formats::OptionMap WithServers(formats::OptionMap options) {
  options.emplace("kafka.bootstrap.servers", "127.0.0.1:9092");
  return options;
}

TEST(KafkaSinkOptionsTest, PassesKafkaSettingsWithoutTheirPrefix) {
  auto parsed = ParseKafkaSinkOptions(WithServers(
      {{"topic", "  clicks "}, {"KAFKA.linger.ms", "20"}, {"checkpointLocation", "/c"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->topic, "clicks");
  EXPECT_EQ(parsed->bootstrap_servers, "127.0.0.1:9092");
  EXPECT_FALSE(parsed->exactly_once);
  EXPECT_EQ(parsed->max_block_ms, 60'000);
  // In the option map's (case-insensitive) order.
  std::vector<std::pair<std::string, std::string>> expected{
      {"bootstrap.servers", "127.0.0.1:9092"}, {"linger.ms", "20"}};
  EXPECT_EQ(parsed->producer_settings, expected);
}

TEST(KafkaSinkOptionsTest, ReadsTheExactlyOnceSwitchAndTheBlockingBound) {
  auto parsed = ParseKafkaSinkOptions(
      WithServers({{"exactlyonce", "TRUE"}, {"kafka.max.block.ms", "1500"}}));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(parsed->exactly_once);
  EXPECT_EQ(parsed->max_block_ms, 1500);
  // max.block.ms is Java's; the sink applies it and librdkafka never sees it.
  for (const auto& [name, value] : parsed->producer_settings) EXPECT_NE(name, "max.block.ms");

  auto bad = ParseKafkaSinkOptions(WithServers({{"exactlyOnce", "yes"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("exactlyOnce"), std::string::npos)
      << bad.status().message();
}

TEST(KafkaSinkOptionsTest, RefusesTheSerializersWithSparksReasons) {
  auto key = ParseKafkaSinkOptions(WithServers({{"kafka.key.serializer", "x"}}));
  EXPECT_EQ(key.status().message(),
            "Kafka option 'key.serializer' is not supported as keys are serialized with "
            "ByteArraySerializer.");
  auto value = ParseKafkaSinkOptions(WithServers({{"kafka.value.serializer", "x"}}));
  EXPECT_EQ(value.status().message(),
            "Kafka option 'value.serializer' is not supported as value are serialized with "
            "ByteArraySerializer.");
}

TEST(KafkaSinkOptionsTest, RefusesATransactionalIdOfTheUsers) {
  auto parsed = ParseKafkaSinkOptions(WithServers({{"kafka.transactional.id", "mine"}}));
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("'transactional.id'"), std::string::npos);
  EXPECT_NE(parsed.status().message().find("exactlyOnce"), std::string::npos);
}

TEST(KafkaSinkOptionsTest, NeedsTheBootstrapServers) {
  auto parsed = ParseKafkaSinkOptions({{"topic", "t"}});
  EXPECT_EQ(parsed.status().message(),
            "Option 'kafka.bootstrap.servers' must be specified for configuring Kafka producer");
}

TEST(KafkaSinkOptionsTest, ASettingLibrdkafkaDoesNotKnowIsRefusedByName) {
  auto parsed = ParseKafkaSinkOptions(WithServers({{"kafka.no.such.setting", "1"}}));
  ASSERT_TRUE(parsed.ok());
  auto status = CheckKafkaProducerSettings(*parsed);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("'kafka.no.such.setting'"), std::string::npos)
      << status.message();

  auto bad_value = ParseKafkaSinkOptions(WithServers({{"kafka.linger.ms", "soon"}}));
  ASSERT_TRUE(bad_value.ok());
  status = CheckKafkaProducerSettings(*bad_value);
  EXPECT_NE(status.message().find("'kafka.linger.ms' = 'soon'"), std::string::npos)
      << status.message();
}

std::shared_ptr<arrow::Schema> Schema(arrow::FieldVector fields) {
  return arrow::schema(std::move(fields));
}

arrow::Status Validate(const std::shared_ptr<arrow::Schema>& schema,
                       std::optional<std::string> topic = std::nullopt) {
  return KafkaWriteColumns::Make(*schema, std::move(topic)).status();
}

std::shared_ptr<arrow::DataType> HeadersType() {
  return types::MakeArrayType(arrow::struct_({arrow::field("key", arrow::utf8(), false),
                                              arrow::field("value", arrow::binary())}),
                              false);
}

TEST(KafkaWriteColumnsTest, NeedsATopicOptionOrColumn) {
  auto status = Validate(Schema({arrow::field("value", arrow::utf8())}));
  EXPECT_EQ(ErrorClassOf(status), "_LEGACY_ERROR_TEMP_3080");
  EXPECT_NE(status.message().find("topic option required when no 'topic' attribute is present. "
                                  "Use the topic option for setting a topic."),
            std::string::npos)
      << status.message();
  EXPECT_TRUE(Validate(Schema({arrow::field("value", arrow::utf8())}), "t").ok());
}

TEST(KafkaWriteColumnsTest, NamesTheColumnOfAnUnsupportedType) {
  auto topic = Validate(
      Schema({arrow::field("topic", arrow::int32()), arrow::field("value", arrow::utf8())}));
  EXPECT_NE(topic.message().find("topic attribute unsupported type int. topic must be a(n) "
                                 "string"),
            std::string::npos)
      << topic.message();
  // The topic option wins: the column is not even looked at.
  EXPECT_TRUE(Validate(Schema({arrow::field("topic", arrow::int32()),
                               arrow::field("value", arrow::utf8())}),
                       "t")
                  .ok());
  auto key = Validate(
      Schema({arrow::field("key", arrow::float64()), arrow::field("value", arrow::utf8())}), "t");
  EXPECT_NE(key.message().find("key attribute unsupported type double. key must be a(n) string "
                               "or binary"),
            std::string::npos)
      << key.message();
  auto value = Validate(Schema({arrow::field("value", arrow::int64())}), "t");
  EXPECT_NE(value.message().find("value attribute unsupported type bigint. value must be a(n) "
                                 "string or binary"),
            std::string::npos)
      << value.message();
  auto headers = Validate(Schema({arrow::field("value", arrow::utf8()),
                                  arrow::field("headers", types::MakeArrayType(arrow::utf8()))}),
                          "t");
  EXPECT_NE(headers.message().find("headers attribute unsupported type array<string>. headers "
                                   "must be a(n) array<struct<key:string,value:binary>>"),
            std::string::npos)
      << headers.message();
  auto partition = Validate(
      Schema({arrow::field("value", arrow::utf8()), arrow::field("partition", arrow::int64())}),
      "t");
  EXPECT_NE(partition.message().find("partition attribute unsupported type bigint. partition "
                                     "must be a(n) int"),
            std::string::npos)
      << partition.message();
  for (const auto& status : {topic, key, value, headers, partition}) {
    EXPECT_EQ(ErrorClassOf(status), "_LEGACY_ERROR_TEMP_3080");
  }
}

TEST(KafkaWriteColumnsTest, NeedsAValueColumn) {
  auto status = Validate(Schema({arrow::field("key", arrow::utf8())}), "t");
  EXPECT_NE(status.message().find("Required attribute 'value' not found"), std::string::npos)
      << status.message();
}

TEST(KafkaWriteColumnsTest, MatchesColumnNamesExactly) {
  // Spark looks the columns up by exact name: `Value` is not the value column.
  EXPECT_FALSE(Validate(Schema({arrow::field("Value", arrow::utf8())}), "t").ok());
}

TEST(KafkaWriteColumnsTest, ReadsEveryPartOfARecord) {
  auto schema = Schema({arrow::field("topic", arrow::utf8()), arrow::field("key", arrow::binary()),
                        arrow::field("value", arrow::utf8()),
                        arrow::field("headers", HeadersType()),
                        arrow::field("partition", arrow::int32()),
                        arrow::field("other", arrow::int64())});
  auto columns = KafkaWriteColumns::Make(*schema, std::nullopt);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  auto headers =
      arrow::json::ArrayFromJSONString(
          HeadersType(), R"([[{"key": "h1", "value": "v"}, {"key": "h2", "value": null}],
                             null, []])")
          .ValueOrDie();
  auto batch = arrow::RecordBatch::Make(
      schema, 3,
      {arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["a", null, "c"])").ValueOrDie(),
       arrow::json::ArrayFromJSONString(arrow::binary(), R"(["k", null, ""])").ValueOrDie(),
       arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["v1", "", null])").ValueOrDie(),
       headers,
       arrow::json::ArrayFromJSONString(arrow::int32(), "[2, null, 0]").ValueOrDie(),
       arrow::json::ArrayFromJSONString(arrow::int64(), "[1, 2, 3]").ValueOrDie()});
  KafkaRecordBatchView rows = columns->Bind(*batch);
  ASSERT_EQ(rows.num_rows(), 3);
  EXPECT_EQ(rows.topic(0), "a");
  EXPECT_EQ(rows.topic(1), std::nullopt);
  EXPECT_EQ(rows.key(0), "k");
  EXPECT_EQ(rows.key(1), std::nullopt);
  EXPECT_EQ(rows.key(2), "");
  EXPECT_EQ(rows.value(1), "");
  EXPECT_EQ(rows.value(2), std::nullopt);
  EXPECT_EQ(rows.partition(0), 2);
  EXPECT_EQ(rows.partition(1), std::nullopt);
  ASSERT_EQ(rows.num_headers(0), 2);
  EXPECT_EQ(rows.num_headers(1), 0);
  EXPECT_EQ(rows.num_headers(2), 0);
  auto first = rows.header(0, 0);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->key, "h1");
  EXPECT_EQ(first->value, "v");
  auto second = rows.header(0, 1);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->key, "h2");
  EXPECT_EQ(second->value, std::nullopt);
}

TEST(KafkaWriteColumnsTest, TheTopicOptionOverridesTheTopicColumn) {
  auto schema =
      Schema({arrow::field("topic", arrow::utf8()), arrow::field("value", arrow::binary())});
  auto columns = KafkaWriteColumns::Make(*schema, "fixed");
  ASSERT_TRUE(columns.ok());
  auto batch = arrow::RecordBatch::Make(
      schema, 1,
      {arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["other"])").ValueOrDie(),
       arrow::json::ArrayFromJSONString(arrow::binary(), R"(["x"])").ValueOrDie()});
  EXPECT_EQ(columns->Bind(*batch).topic(0), "fixed");
}

TEST(KafkaSinkRegistryTest, TheKafkaFormatMakesAKafkaSinkInEveryOutputMode) {
  SinkRequest request;
  request.format = "kafka";
  request.options = WithServers({{"topic", "t"}});
  request.schema = Schema({arrow::field("value", arrow::utf8())});
  for (auto mode : {OutputMode::kAppend, OutputMode::kUpdate, OutputMode::kComplete}) {
    request.output_mode = mode;
    auto sink = MakeStreamSink(request);
    ASSERT_TRUE(sink.ok()) << sink.status().ToString();
    EXPECT_EQ((*sink)->Describe(),
              "org.apache.spark.sql.kafka010.KafkaSourceProvider$KafkaTable");
  }
  request.options = {{"topic", "t"}};
  EXPECT_FALSE(MakeStreamSink(request).ok());
}

}  // namespace
}  // namespace sluice::sinks
