// The Kafka source in whole queries against a real broker: a streaming query to a memory sink
// stopped and restarted from its checkpoint continues exactly where it stopped, the progress
// report shows Spark's source description and metrics, and read.format("kafka") reads a
// range of offsets as a batch.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "support/kafka_broker.h"
#include "support/kafka_client.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

class KafkaSourceStreamTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    bootstrap_ = SharedKafkaBroker().bootstrap();
    kafka_ = std::make_unique<KafkaTestClient>(bootstrap_);
    topic_ = UniqueTopicName("stream");
    ASSERT_TRUE(kafka_->CreateTopic(topic_, 2).ok());
  }

  StreamAction Produce(const std::vector<std::pair<int32_t, std::string>>& records) {
    return {"AddData", [this, records](StreamTest&) {
              std::vector<KafkaRecord> batch;
              for (const auto& [partition, value] : records) {
                KafkaRecord record;
                record.value = value;
                record.partition = partition;
                batch.push_back(std::move(record));
              }
              auto written = kafka_->Produce(topic_, batch);
              ASSERT_TRUE(written.ok()) << written.status().ToString();
            }};
  }

  DataFrame KafkaStream() {
    return spark_->readStream()
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap_)
        .option("subscribe", topic_)
        .option("startingOffsets", "earliest")
        .load()
        .selectExpr({"CAST(value AS STRING) AS value", "partition", "offset"});
  }

  std::string bootstrap_;
  std::unique_ptr<KafkaTestClient> kafka_;
  std::string topic_;
};

TEST_F(KafkaSourceStreamTest, RestartContinuesExactlyFromTheCheckpoint) {
  TestStream(KafkaStream(),
             {Produce({{0, "a"}, {1, "b"}}),
              StartStream(),
              CheckAnswer({R"(["a",0,0])", R"(["b",1,0])"}),
              StopStream(),
              Produce({{0, "c"}, {1, "d"}, {1, "e"}}),
              StartStream(),
              CheckNewAnswer({R"(["c",0,1])", R"(["d",1,1])", R"(["e",1,2])"}),
              AssertOnQuery("Spark's description and metrics",
                            [this](StreamingQuery& query) {
                              auto progress = query.lastProgress();
                              ASSERT_TRUE(progress.has_value());
                              ASSERT_EQ(progress->sources.size(), 1u);
                              const auto& source = progress->sources[0];
                              EXPECT_EQ(source.description, "KafkaV2[Subscribe[" + topic_ + "]]");
                              EXPECT_EQ(source.end_offset,
                                        "{\"" + topic_ + "\":{\"0\":2,\"1\":3}}");
                              EXPECT_EQ(source.metrics.at("maxOffsetsBehindLatest"), "0");
                              EXPECT_EQ(source.metrics.at("avgOffsetsBehindLatest"), "0.0");
                            }),
              StopStream(),
              StartStream(),
              Produce({{0, "f"}}),
              CheckNewAnswer({R"(["f",0,2])"})});
}

TEST_F(KafkaSourceStreamTest, BatchReadTakesStartingAndEndingOffsets) {
  std::vector<KafkaRecord> records;
  for (const auto& [value, partition] :
       std::vector<std::pair<std::string, int32_t>>{
           {"p0-0", 0}, {"p0-1", 0}, {"p0-2", 0}, {"p1-0", 1}}) {
    KafkaRecord record;
    record.value = value;
    record.partition = partition;
    records.push_back(std::move(record));
  }
  auto written = kafka_->Produce(topic_, records);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto read = [&](const std::string& starting, const std::string& ending) {
    auto reader = spark_->read()
                      .format("kafka")
                      .option("kafka.bootstrap.servers", bootstrap_)
                      .option("subscribe", topic_);
    if (!starting.empty()) reader.option("startingOffsets", starting);
    if (!ending.empty()) reader.option("endingOffsets", ending);
    auto table = reader.load()
                     .selectExpr({"CAST(value AS STRING) AS value", "partition", "offset"})
                     .collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? RowsOf(**table) : std::vector<std::string>{};
  };
  EXPECT_EQ(read("", ""), (std::vector<std::string>{R"(["p0-0",0,0])", R"(["p0-1",0,1])",
                                                    R"(["p0-2",0,2])", R"(["p1-0",1,0])"}));
  EXPECT_EQ(read("{\"" + topic_ + "\":{\"0\":1,\"1\":-2}}",
                 "{\"" + topic_ + "\":{\"0\":2,\"1\":-1}}"),
            (std::vector<std::string>{R"(["p0-1",0,1])", R"(["p1-0",1,0])"}));
  auto latest_start = spark_->read()
                          .format("kafka")
                          .option("kafka.bootstrap.servers", bootstrap_)
                          .option("subscribe", topic_)
                          .option("startingOffsets", "latest")
                          .load();
  ASSERT_FALSE(latest_start.ok());
  EXPECT_EQ(latest_start.status().message(),
            "starting offset can't be latest for batch queries on Kafka");
}

}  // namespace
}  // namespace sluice::testing
