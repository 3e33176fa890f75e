// The Kafka sink in whole queries against a real broker, at-least-once (Spark's guarantee):
// every column and option, every output mode, delivery read back by an independent consumer,
// the progress report, and a record the broker refuses.
#include <set>

#include "kafka/kafka_sink_test_support.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/common/errors.h"

namespace sluice::testing {
namespace {

namespace F = functions;

TEST_F(KafkaSinkTest, WritesEveryRowAndReportsItsRows) {
  auto input = MemoryStream("value STRING");
  auto query_df = spark_->readStream().load(input);
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["a", "b", null])"})).ok());
  auto query = KafkaWriter(query_df).option("topic", topic_).start();
  Drain(query);
  std::vector<std::optional<std::string>> expected{"a", "b", std::nullopt};
  EXPECT_EQ(Values(topic_), expected);
  auto progress = (*query)->lastProgress();
  ASSERT_TRUE(progress.has_value());
  EXPECT_EQ(progress->sink.description,
            "org.apache.spark.sql.kafka010.KafkaSourceProvider$KafkaTable");
  EXPECT_EQ(progress->sink.num_output_rows, 3);

  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["c"])"})).ok());
  Drain(query);
  expected.push_back("c");
  EXPECT_EQ(Values(topic_), expected);
  EXPECT_EQ((*query)->lastProgress()->sink.num_output_rows, 1);
  ASSERT_TRUE((*query)->stop().ok());
}

TEST_F(KafkaSinkTest, WritesKeysValuesAndHeadersAsGiven) {
  const std::string schema =
      "key BINARY, value BINARY, headers ARRAY<STRUCT<key: STRING, value: BINARY>>";
  auto input = MemoryStream(schema);
  ASSERT_TRUE(
      input
          ->AddData(Table(schema, {R"(["k1", null, ""])", R"(["v1", "v2", ""])",
                                   R"([[{"key": "h", "value": "x"}, {"key": "h", "value": null}],
                                       null, []])"}))
          .ok());
  Drain(KafkaWriter(spark_->readStream().load(input)).option("topic", topic_).start());
  auto records = kafka_->ConsumeAll(topic_, KafkaIsolation::kReadCommitted);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->size(), 3u);
  EXPECT_EQ((*records)[0].key, "k1");
  EXPECT_EQ((*records)[0].value, "v1");
  std::vector<KafkaHeader> headers{{"h", "x"}, {"h", std::nullopt}};
  EXPECT_EQ((*records)[0].headers, headers);
  EXPECT_EQ((*records)[1].key, std::nullopt);
  EXPECT_TRUE((*records)[1].headers.empty());
  // Empty is not null, for keys and values alike.
  EXPECT_EQ((*records)[2].key, "");
  EXPECT_EQ((*records)[2].value, "");
}

TEST_F(KafkaSinkTest, StringKeysAndValuesAreWrittenAsTheirUtf8Bytes) {
  auto input = MemoryStream("key STRING, value STRING");
  ASSERT_TRUE(input->AddData(Table("key STRING, value STRING", {R"(["ké"])", R"(["vé"])"})).ok());
  Drain(KafkaWriter(spark_->readStream().load(input)).option("topic", topic_).start());
  auto records = kafka_->ConsumeAll(topic_, KafkaIsolation::kReadCommitted);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].key, "ké");
  EXPECT_EQ((*records)[0].value, "vé");
}

TEST_F(KafkaSinkTest, TheTopicColumnRoutesEachRowAndTheOptionOverridesIt) {
  const std::string other = UniqueTopicName("sink-other");
  ASSERT_TRUE(kafka_->CreateTopic(other, 1).ok());
  auto input = MemoryStream("topic STRING, value STRING");
  ASSERT_TRUE(input
                  ->AddData(Table("topic STRING, value STRING",
                                  {"[\"" + topic_ + "\", \"" + other + "\", \"" + topic_ + "\"]",
                                   R"(["1", "2", "3"])"}))
                  .ok());
  auto df = spark_->readStream().load(input);
  Drain(KafkaWriter(df).start());
  std::vector<std::optional<std::string>> first{"1", "3"};
  std::vector<std::optional<std::string>> second{"2"};
  EXPECT_EQ(Values(topic_), first);
  EXPECT_EQ(Values(other), second);

  // With the option, every row goes to the option's topic.
  const std::string fixed = UniqueTopicName("sink-fixed");
  ASSERT_TRUE(kafka_->CreateTopic(fixed, 1).ok());
  checkpoint_ = scratch_dir_ / "checkpoint-fixed";
  Drain(KafkaWriter(df).option("topic", fixed).start());
  EXPECT_EQ(Values(fixed).size(), 3u);
}

TEST_F(KafkaSinkTest, ANullTopicFailsTheQueryWithSparksMessage) {
  auto input = MemoryStream("topic STRING, value STRING");
  ASSERT_TRUE(input->AddData(Table("topic STRING, value STRING", {"[null]", R"(["x"])"})).ok());
  auto query = KafkaWriter(spark_->readStream().load(input)).start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  auto status = (*query)->awaitTermination();
  EXPECT_NE(status.message().find("null topic present in the data. Use the topic option for "
                                  "setting a default topic."),
            std::string::npos)
      << status.ToString();
}

TEST_F(KafkaSinkTest, ThePartitionColumnChoosesThePartition) {
  const std::string spread = UniqueTopicName("sink-partitions");
  ASSERT_TRUE(kafka_->CreateTopic(spread, 3).ok());
  auto input = MemoryStream("value STRING, partition INT");
  ASSERT_TRUE(input
                  ->AddData(Table("value STRING, partition INT",
                                  {R"(["a", "b", "c", "d"])", "[2, 0, 2, 1]"}))
                  .ok());
  Drain(KafkaWriter(spark_->readStream().load(input)).option("topic", spread).start());
  auto records = kafka_->ConsumeAll(spread, KafkaIsolation::kReadCommitted);
  ASSERT_TRUE(records.ok());
  std::set<std::pair<int32_t, std::string>> placed;
  for (const auto& record : *records) placed.emplace(record.partition, *record.value);
  std::set<std::pair<int32_t, std::string>> expected{{2, "a"}, {0, "b"}, {2, "c"}, {1, "d"}};
  EXPECT_EQ(placed, expected);
}

TEST_F(KafkaSinkTest, APartitionTheTopicLacksFailsNamingIt) {
  auto input = MemoryStream("value STRING, partition INT");
  ASSERT_TRUE(input->AddData(Table("value STRING, partition INT", {R"(["a"])", "[7]"})).ok());
  auto query = KafkaWriter(spark_->readStream().load(input))
                   .option("topic", topic_)
                   .option("kafka.delivery.timeout.ms", "5000")
                   .start();
  ASSERT_TRUE(query.ok());
  auto status = (*query)->awaitTermination();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("Kafka topic '" + topic_ + "' partition 7"), std::string::npos)
      << status.ToString();
}

TEST_F(KafkaSinkTest, CompleteModeWritesTheWholeResultEveryBatch) {
  auto input = MemoryStream("word STRING");
  auto counts = spark_->readStream()
                    .load(input)
                    .groupBy({F::col("word")})
                    .count()
                    .selectExpr({"word AS key",
                                 "CONCAT(word, '=', CAST(count AS STRING)) AS value"});
  ASSERT_TRUE(input->AddData(Table("word STRING", {R"(["a", "b", "a"])"})).ok());
  auto query = KafkaWriter(counts).outputMode("complete").option("topic", topic_).start();
  Drain(query);
  ASSERT_TRUE(input->AddData(Table("word STRING", {R"(["b"])"})).ok());
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  auto values = Values(topic_);
  std::multiset<std::optional<std::string>> written(values.begin(), values.end());
  std::multiset<std::optional<std::string>> expected{"a=2", "b=1", "a=2", "b=2"};
  EXPECT_EQ(written, expected);
}

TEST_F(KafkaSinkTest, UpdateModeWritesTheChangedRows) {
  auto input = MemoryStream("word STRING");
  auto counts = spark_->readStream()
                    .load(input)
                    .groupBy({F::col("word")})
                    .count()
                    .selectExpr({"CONCAT(word, '=', CAST(count AS STRING)) AS value"});
  ASSERT_TRUE(input->AddData(Table("word STRING", {R"(["a", "b", "a"])"})).ok());
  auto query = KafkaWriter(counts).outputMode("update").option("topic", topic_).start();
  Drain(query);
  ASSERT_TRUE(input->AddData(Table("word STRING", {R"(["b"])"})).ok());
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  auto values = Values(topic_);
  std::multiset<std::optional<std::string>> written(values.begin(), values.end());
  std::multiset<std::optional<std::string>> expected{"a=2", "b=1", "b=2"};
  EXPECT_EQ(written, expected);
}

TEST_F(KafkaSinkTest, ARecordTheTopicRefusesFailsTheQueryNamingTopicAndSize) {
  const std::string small = UniqueTopicName("sink-small");
  ASSERT_TRUE(kafka_->CreateTopic(small, 1, {{"max.message.bytes", "1000"}}).ok());
  auto input = MemoryStream("value STRING");
  ASSERT_TRUE(
      input->AddData(Table("value STRING", {"[\"" + std::string(5000, 'x') + "\"]"})).ok());
  auto query = KafkaWriter(spark_->readStream().load(input)).option("topic", small).start();
  ASSERT_TRUE(query.ok());
  auto status = (*query)->awaitTermination();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("record of 5000 bytes to Kafka topic '" + small + "'"),
            std::string::npos)
      << status.ToString();
  EXPECT_NE(status.message().find("too large"), std::string::npos) << status.ToString();
  // The refused record is not in the topic.
  EXPECT_TRUE(Values(small).empty());
}

TEST_F(KafkaSinkTest, ARecordOverTheProducersLimitFailsBeforeSending) {
  auto input = MemoryStream("value STRING");
  ASSERT_TRUE(
      input->AddData(Table("value STRING", {"[\"" + std::string(5000, 'x') + "\"]"})).ok());
  auto query = KafkaWriter(spark_->readStream().load(input))
                   .option("topic", topic_)
                   .option("kafka.message.max.bytes", "2000")
                   .start();
  ASSERT_TRUE(query.ok());
  auto status = (*query)->awaitTermination();
  EXPECT_NE(status.message().find("record of 5000 bytes to Kafka topic '" + topic_ + "'"),
            std::string::npos)
      << status.ToString();
  EXPECT_NE(status.message().find("message.max.bytes of 2000"), std::string::npos)
      << status.ToString();
}

TEST_F(KafkaSinkTest, BadColumnsFailTheStartWithSparksError) {
  auto input = MemoryStream("v STRING");
  auto query = KafkaWriter(spark_->readStream().load(input)).option("topic", topic_).start();
  ASSERT_FALSE(query.ok());
  EXPECT_TRUE(HasErrorClass(query.status(), "_LEGACY_ERROR_TEMP_3080"));
}

// df.write.format("kafka").save(): a batch query's rows, with the streaming sink's columns.
TEST_F(KafkaSinkTest, ABatchWriteSendsEveryRowAsSparksDoes) {
  DataFrame rows =
      spark_->createDataFrame(Table("key STRING, value STRING", {R"(["k1", "k2", null])",
                                                                 R"(["v1", "v2", "v3"])"}));
  auto writer = rows.write();
  writer.format("kafka").option("kafka.bootstrap.servers", bootstrap_).option("topic", topic_);
  ASSERT_TRUE(writer.save().ok());
  ASSERT_TRUE(writer.mode("append").save().ok());
  EXPECT_EQ(Values(topic_, KafkaIsolation::kReadUncommitted).size(), 6u);

  arrow::Status overwrite = writer.mode("overwrite").save();
  EXPECT_EQ(ErrorClassOf(overwrite), "_LEGACY_ERROR_TEMP_3081") << overwrite.ToString();
  EXPECT_NE(overwrite.message().find("Save mode Overwrite not allowed for Kafka"),
            std::string::npos)
      << overwrite.ToString();
  arrow::Status exactly_once = writer.mode("append").option("exactlyOnce", "true").save();
  EXPECT_FALSE(exactly_once.ok());
  EXPECT_NE(exactly_once.message().find("exactlyOnce"), std::string::npos)
      << exactly_once.ToString();
  // Without a topic option or column, Spark's column error.
  auto no_topic = spark_->createDataFrame(Table("value STRING", {R"(["v"])"})).write();
  no_topic.format("kafka").option("kafka.bootstrap.servers", bootstrap_);
  EXPECT_FALSE(no_topic.save().ok());
  EXPECT_EQ(Values(topic_, KafkaIsolation::kReadUncommitted).size(), 6u) << "nothing more";
}

}  // namespace
}  // namespace sluice::testing
