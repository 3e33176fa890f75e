// The Kafka sink's exactly-once mode (exactlyOnce=true) against a real broker: a query killed
// at each step of the batch loop and restarted leaves every input exactly once for a
// read_committed consumer; a failed batch leaves nothing visible; a dead run's unfinished
// transaction is aborted and its producer fenced when the query restarts; a broker restart
// between batches is ridden out.
#include <algorithm>

#include "kafka/kafka_sink_test_support.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/execution/crash_point.h"
#include "sluice/sinks/kafka/kafka_producer.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"
#include "support/batch_stream_fixture.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

using execution::CrashPoint;

/// Kills the query at `point` of batch `batch_id`, once.
execution::CrashHook KillOnceAt(CrashPoint point, int64_t batch_id) {
  auto fired = std::make_shared<bool>(false);
  return [=](CrashPoint at, int64_t batch) {
    if (*fired || at != point || batch != batch_id) return false;
    *fired = true;
    return true;
  };
}

std::vector<std::string> Sorted(const std::vector<std::optional<std::string>>& values) {
  std::vector<std::string> sorted;
  for (const auto& value : values) sorted.push_back(value.value_or("<null>"));
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

class KafkaSinkExactlyOnceTest : public KafkaSinkTest {
 protected:
  arrow::Result<std::shared_ptr<StreamingQuery>> Start(const DataFrame& df,
                                                       execution::CrashHook hook = nullptr) {
    return KafkaWriter(df)
        .option("topic", topic_)
        .option("exactlyOnce", "true")
        .option("kafka.max.block.ms", "20000")
        .crashHook(std::move(hook))
        .start();
  }
};

class KafkaSinkCrashTest : public KafkaSinkExactlyOnceTest,
                           public ::testing::WithParamInterface<CrashPoint> {};

TEST_P(KafkaSinkCrashTest, EveryInputIsReadOnceAfterAKillAndARestart) {
  auto input = MemoryStream("value STRING");
  auto df = spark_->readStream().load(input);
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["a", "b"])"})).ok());
  auto query = Start(df, KillOnceAt(GetParam(), 1));
  Drain(query);
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["c", "d"])"})).ok());
  auto killed = (*query)->awaitTermination();
  EXPECT_TRUE(killed.IsCancelled()) << killed.ToString();

  query = Start(df);
  Drain(query);
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["e"])"})).ok());
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  std::vector<std::string> expected{"a", "b", "c", "d", "e"};
  EXPECT_EQ(Sorted(Values(topic_, KafkaIsolation::kReadCommitted)), expected);
}

INSTANTIATE_TEST_SUITE_P(EveryStep, KafkaSinkCrashTest,
                         ::testing::ValuesIn(execution::kAllCrashPoints),
                         CrashPointTestName);

TEST_F(KafkaSinkExactlyOnceTest, AFailedBatchLeavesNothingVisible) {
  const std::string small = UniqueTopicName("sink-small");
  ASSERT_TRUE(kafka_->CreateTopic(small, 1, {{"max.message.bytes", "1000"}}).ok());
  topic_ = small;
  auto input = MemoryStream("value STRING");
  ASSERT_TRUE(input
                  ->AddData(Table("value STRING",
                                  {"[\"fits\", \"" + std::string(5000, 'x') + "\"]"}))
                  .ok());
  auto query = Start(spark_->readStream().load(input));
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  auto status = (*query)->awaitTermination();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("record of 5000 bytes to Kafka topic '" + small + "'"),
            std::string::npos)
      << status.ToString();
  // The record that fitted was sent inside the aborted transaction.
  EXPECT_TRUE(Values(small, KafkaIsolation::kReadCommitted).empty());
}

TEST_F(KafkaSinkExactlyOnceTest, ARestartAbortsTheDeadRunsTransactionAndFencesIt) {
  auto input = MemoryStream("value STRING");
  auto df = spark_->readStream().load(input);
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["a"])"})).ok());
  auto query = Start(df);
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());

  // A run of the same query that died inside a batch: its transaction holds a sent record.
  auto metadata = checkpoint::ReadWholeFile(checkpoint_ + "/metadata");
  ASSERT_TRUE(metadata.ok());
  auto query_id = checkpoint::ParseQueryMetadata(*metadata, "metadata");
  ASSERT_TRUE(query_id.ok());
  sinks::KafkaSinkOptions options;
  options.bootstrap_servers = bootstrap_;
  options.producer_settings = {{"bootstrap.servers", bootstrap_}};
  options.max_block_ms = 20'000;
  auto zombie = sinks::KafkaProducer::Make(options, sinks::KafkaSinkTransactionalId(*query_id));
  ASSERT_TRUE(zombie.ok()) << zombie.status().ToString();
  ASSERT_TRUE((*zombie)->InitTransactions().ok());
  ASSERT_TRUE((*zombie)->BeginTransaction().ok());
  auto schema = arrow::schema({arrow::field("value", arrow::utf8())});
  auto columns = sinks::KafkaWriteColumns::Make(*schema, topic_);
  ASSERT_TRUE(columns.ok());
  auto batch = MakeBatch(schema, {R"(["zombie"])"});
  ASSERT_TRUE((*zombie)->Send(columns->Bind(*batch)).ok());
  ASSERT_TRUE((*zombie)->Flush().ok());

  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["b"])"})).ok());
  query = Start(df);
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  std::vector<std::string> expected{"a", "b"};
  EXPECT_EQ(Sorted(Values(topic_, KafkaIsolation::kReadCommitted)), expected);
  // The zombie's record reached the log, in a transaction that was aborted.
  std::vector<std::string> everything{"a", "b", "zombie"};
  EXPECT_EQ(Sorted(Values(topic_, KafkaIsolation::kReadUncommitted)), everything);
  // And the zombie can no longer commit anything.
  EXPECT_FALSE((*zombie)->CommitTransaction().ok());
}

TEST_F(KafkaSinkExactlyOnceTest, TheTopicColumnWorksInExactlyOnceMode) {
  const std::string other = UniqueTopicName("sink-other");
  ASSERT_TRUE(kafka_->CreateTopic(other, 2).ok());
  auto input = MemoryStream("topic STRING, value STRING");
  auto df = spark_->readStream().load(input);
  ASSERT_TRUE(input
                  ->AddData(Table("topic STRING, value STRING",
                                  {"[\"" + topic_ + "\", \"" + other + "\"]", R"(["1", "2"])"}))
                  .ok());
  auto start = [&](execution::CrashHook hook) {
    return KafkaWriter(df).option("exactlyOnce", "true").crashHook(std::move(hook)).start();
  };
  auto query = start(KillOnceAt(CrashPoint::kAfterAddBatch, 0));
  ASSERT_TRUE(query.ok());
  EXPECT_TRUE((*query)->awaitTermination().IsCancelled());
  query = start(nullptr);
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_EQ(Sorted(Values(topic_)), std::vector<std::string>{"1"});
  EXPECT_EQ(Sorted(Values(other)), std::vector<std::string>{"2"});
}

TEST_F(KafkaSinkExactlyOnceTest, AQueryRidesOutABrokerRestart) {
  // A broker of this test's own: the shared one may not be restarted.
  auto broker = KafkaBroker::Launch();
  ASSERT_TRUE(broker.ok()) << broker.status().ToString();
  bootstrap_ = (*broker)->bootstrap();
  kafka_ = std::make_unique<KafkaTestClient>(bootstrap_);
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  auto input = MemoryStream("value STRING");
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["a"])"})).ok());
  auto query = Start(spark_->readStream().load(input));
  Drain(query);
  ASSERT_TRUE((*broker)->Restart().ok());
  ASSERT_TRUE(input->AddData(Table("value STRING", {R"(["b"])"})).ok());
  Drain(query);
  ASSERT_TRUE((*query)->stop().ok());
  std::vector<std::string> expected{"a", "b"};
  EXPECT_EQ(Sorted(Values(topic_, KafkaIsolation::kReadCommitted)), expected);
}

}  // namespace
}  // namespace sluice::testing
