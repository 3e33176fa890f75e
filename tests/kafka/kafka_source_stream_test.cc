// The Kafka source in whole queries against a real broker: a streaming query to a memory sink
// stopped and restarted from its checkpoint continues exactly where it stopped, the progress
// report shows Spark's source description and metrics, read.format("kafka") reads a range of
// offsets as a batch, and a query goes on after its broker restarted.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/table.h>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session.h"
#include "support/kafka_broker.h"
#include "support/kafka_client.h"
#include "support/scratch_dir.h"
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

// A broker restarted between batches: the query either rides it out or fails cleanly, and a
// restart from its checkpoint then goes on; either way every record arrives exactly once.
TEST(KafkaSourceBrokerRestartTest, AQueryGoesOnAfterABrokerRestart) {
  auto broker = KafkaBroker::Launch();  // its own: the shared broker may not be restarted
  ASSERT_TRUE(broker.ok()) << broker.status().ToString();
  const std::string bootstrap = (*broker)->bootstrap();
  KafkaTestClient kafka(bootstrap);
  const std::string topic = UniqueTopicName("restart");
  ASSERT_TRUE(kafka.CreateTopic(topic, 1).ok());
  auto produce = [&](const std::string& value) {
    KafkaRecord record;
    record.value = value;
    record.partition = 0;
    ASSERT_TRUE(kafka.Produce(topic, {record}).ok());
  };
  auto spark = SparkSession::builder().getOrCreate().ValueOrDie();
  ScratchDir scratch;
  // Batches by id: a batch re-run after a failure replaces its first run, as an idempotent
  // sink would.
  auto mutex = std::make_shared<std::mutex>();
  auto batches = std::make_shared<std::map<int64_t, std::vector<std::string>>>();
  auto start = [&]() {
    return spark->readStream()
        .format("kafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .selectExpr({"CAST(value AS STRING) AS value"})
        .writeStream()
        .option("checkpointLocation", scratch / "checkpoint")
        .foreachBatch([mutex, batches](const DataFrame& batch, int64_t id) {
          ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
          std::vector<std::string> values;
          auto column = std::static_pointer_cast<arrow::StringArray>(
              table->column(0)->chunk(0));
          for (int64_t i = 0; i < column->length(); ++i) values.push_back(column->GetString(i));
          std::lock_guard<std::mutex> lock(*mutex);
          (*batches)[id] = std::move(values);
          return arrow::Status::OK();
        })
        .start();
  };
  produce("a");
  auto query = start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());

  ASSERT_TRUE((*broker)->Restart().ok());
  produce("b");
  arrow::Status after_restart = (*query)->processAllAvailable();
  if (!after_restart.ok()) {
    // A clean failure: the checkpoint holds, and a new run continues from it.
    (void)(*query)->stop();
    query = start();
    ASSERT_TRUE(query.ok()) << query.status().ToString();
    ASSERT_TRUE((*query)->processAllAvailable().ok());
  }
  produce("c");
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  (void)(*query)->stop();

  std::vector<std::string> seen;
  std::lock_guard<std::mutex> lock(*mutex);
  for (const auto& [id, values] : *batches) seen.insert(seen.end(), values.begin(), values.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
}

}  // namespace
}  // namespace sluice::testing
