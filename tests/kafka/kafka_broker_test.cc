// The test broker and test client themselves, against the real broker: what the Kafka source
// and sink tests rely on. Records go in and come back exactly (keys, values, headers,
// partitions, offsets, timestamps), aborted transactions are hidden from read_committed readers
// only, and a restarted broker keeps its data.
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/kafka_broker.h"
#include "support/kafka_client.h"

namespace sluice::testing {
namespace {

#define ASSERT_OK(expression)                                  \
  do {                                                         \
    const ::arrow::Status assert_ok_status = (expression);     \
    ASSERT_TRUE(assert_ok_status.ok()) << assert_ok_status.ToString(); \
  } while (false)

#define ASSERT_OK_AND_ASSIGN_IMPL(result, lhs, expression)         \
  auto result = (expression);                                      \
  ASSERT_TRUE(result.ok()) << result.status().ToString();          \
  lhs = std::move(result).ValueUnsafe()

#define ASSERT_OK_AND_ASSIGN_CONCAT(a, b) a##b
#define ASSERT_OK_AND_ASSIGN_NAME(line) ASSERT_OK_AND_ASSIGN_CONCAT(assert_result_, line)
#define ASSERT_OK_AND_ASSIGN(lhs, expression) \
  ASSERT_OK_AND_ASSIGN_IMPL(ASSERT_OK_AND_ASSIGN_NAME(__LINE__), lhs, expression)

/// `records` as a reader sees them once written at `offsets` with CreateTime timestamps.
std::vector<KafkaRecord> AsRead(std::vector<KafkaRecord> records,
                                const std::vector<int64_t>& offsets) {
  for (size_t i = 0; i < records.size(); ++i) {
    records[i].offset = offsets[i];
    records[i].timestamp_type = 0;
  }
  return records;
}

std::vector<std::string> Values(const std::vector<KafkaRecord>& records) {
  std::vector<std::string> values;
  for (const KafkaRecord& record : records) values.push_back(record.value.value_or("<null>"));
  return values;
}

std::vector<int64_t> Offsets(const std::vector<KafkaRecord>& records) {
  std::vector<int64_t> offsets;
  for (const KafkaRecord& record : records) offsets.push_back(record.offset);
  return offsets;
}

KafkaRecord Value(const std::string& value) {
  return KafkaRecord().WithValue(value).InPartition(0);
}

TEST(KafkaBrokerTest, AnswersOnTheLoopbackInterface) {
  const std::string& bootstrap = SharedKafkaBroker().bootstrap();
  EXPECT_TRUE(std::regex_match(bootstrap, std::regex(R"(127\.0\.0\.1:[0-9]+)"))) << bootstrap;

  KafkaTestClient kafka(bootstrap);
  const std::string topic = UniqueTopicName("answers");
  ASSERT_OK(kafka.CreateTopic(topic, 1));
  ASSERT_OK_AND_ASSIGN(std::vector<int32_t> partitions, kafka.Partitions(topic));
  EXPECT_EQ(partitions, std::vector<int32_t>({0}));
  ASSERT_OK_AND_ASSIGN(auto ends, kafka.EndOffsets(topic));
  EXPECT_EQ(ends, (std::map<int32_t, int64_t>{{0, 0}}));
}

TEST(KafkaBrokerTest, RecordsComeBackExactly) {
  KafkaTestClient kafka(SharedKafkaBroker().bootstrap());
  const std::string topic = UniqueTopicName("exact");
  ASSERT_OK(kafka.CreateTopic(topic, 3));

  const std::string binary("\0\x01\xff", 3);
  const std::vector<KafkaRecord> records = {
      KafkaRecord().WithKey("k0").WithValue("v0").InPartition(0).At(1700000000000),
      KafkaRecord()
          .WithKey("k1")
          .WithValue("v1")
          .WithHeader("trace", "a")
          .WithHeader("trace", "b")
          .WithHeader("empty", "")
          .WithHeader("absent", std::nullopt)
          .InPartition(1)
          .At(1700000000001),
      KafkaRecord().WithKey(std::nullopt).WithValue(binary).InPartition(2).At(1700000000002),
      KafkaRecord().WithKey("").WithValue(std::nullopt).InPartition(1).At(1700000000003),
      KafkaRecord().WithKey("k4").WithValue("").InPartition(0).At(1700000000004),
  };
  ASSERT_OK_AND_ASSIGN(std::vector<KafkaRecord> written, kafka.Produce(topic, records));
  ASSERT_EQ(written.size(), records.size());
  EXPECT_EQ(Offsets(written), std::vector<int64_t>({0, 0, 0, 1, 1}));

  ASSERT_OK_AND_ASSIGN(std::vector<KafkaRecord> read,
                       kafka.ConsumeAll(topic, KafkaIsolation::kReadUncommitted));
  const std::vector<KafkaRecord> expected = AsRead(records, {0, 0, 0, 1, 1});
  // Read back in partition and offset order.
  EXPECT_EQ(read, (std::vector<KafkaRecord>{expected[0], expected[4], expected[1], expected[3],
                                            expected[2]}));
  ASSERT_OK_AND_ASSIGN(auto ends, kafka.EndOffsets(topic));
  EXPECT_EQ(ends, (std::map<int32_t, int64_t>{{0, 2}, {1, 2}, {2, 1}}));
}

TEST(KafkaBrokerTest, AbortedTransactionsAreVisibleToReadUncommittedOnly) {
  KafkaTestClient kafka(SharedKafkaBroker().bootstrap());
  const std::string topic = UniqueTopicName("transactions");
  const std::string transactional_id = UniqueTopicName("writer");
  ASSERT_OK(kafka.CreateTopic(topic, 1));

  ASSERT_OK(kafka.ProduceInTransaction(topic, {Value("a"), Value("b")}, TransactionEnd::kCommit,
                                       transactional_id)
                .status());
  ASSERT_OK(kafka.ProduceInTransaction(topic, {Value("x"), Value("y")}, TransactionEnd::kAbort,
                                       transactional_id)
                .status());
  ASSERT_OK(kafka.ProduceInTransaction(topic, {Value("c")}, TransactionEnd::kCommit,
                                       transactional_id)
                .status());

  // Each transaction ends with a marker that takes an offset of its own and is never read.
  ASSERT_OK_AND_ASSIGN(std::vector<KafkaRecord> committed,
                       kafka.ConsumeAll(topic, KafkaIsolation::kReadCommitted));
  EXPECT_EQ(Values(committed), std::vector<std::string>({"a", "b", "c"}));
  EXPECT_EQ(Offsets(committed), std::vector<int64_t>({0, 1, 6}));

  ASSERT_OK_AND_ASSIGN(std::vector<KafkaRecord> everything,
                       kafka.ConsumeAll(topic, KafkaIsolation::kReadUncommitted));
  EXPECT_EQ(Values(everything), std::vector<std::string>({"a", "b", "x", "y", "c"}));
  EXPECT_EQ(Offsets(everything), std::vector<int64_t>({0, 1, 3, 4, 6}));

  // No transaction is open, so both readers end at the last marker.
  for (KafkaIsolation isolation : {KafkaIsolation::kReadCommitted,
                                   KafkaIsolation::kReadUncommitted}) {
    ASSERT_OK_AND_ASSIGN(auto ends, kafka.EndOffsets(topic, isolation));
    EXPECT_EQ(ends, (std::map<int32_t, int64_t>{{0, 8}}));
  }
}

TEST(KafkaBrokerTest, RestartKeepsTheDataAndTheAddress) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<KafkaBroker> broker, KafkaBroker::Launch());
  const std::string bootstrap = broker->bootstrap();
  KafkaTestClient kafka(bootstrap);
  const std::string topic = UniqueTopicName("restart");
  ASSERT_OK(kafka.CreateTopic(topic, 2));
  ASSERT_OK(kafka.Produce(topic, {Value("before").InPartition(1)}).status());

  ASSERT_OK(broker->Restart());
  EXPECT_EQ(broker->bootstrap(), bootstrap);
  ASSERT_OK(kafka.Produce(topic, {Value("after").InPartition(1)}).status());
  ASSERT_OK_AND_ASSIGN(std::vector<KafkaRecord> read,
                       kafka.ConsumeAll(topic, KafkaIsolation::kReadCommitted));
  EXPECT_EQ(Values(read), std::vector<std::string>({"before", "after"}));
  EXPECT_EQ(Offsets(read), std::vector<int64_t>({0, 1}));

  ASSERT_OK(broker->Stop());
  EXPECT_FALSE(broker->running());
  ASSERT_OK(broker->Start());
  ASSERT_OK_AND_ASSIGN(auto ends, kafka.EndOffsets(topic));
  EXPECT_EQ(ends, (std::map<int32_t, int64_t>{{0, 0}, {1, 2}}));
}

TEST(KafkaBrokerTest, TheSharedBrokerRefusesToStop) {
  KafkaBroker& shared = SharedKafkaBroker();
  const arrow::Status stopped = shared.Stop();
  EXPECT_TRUE(stopped.IsInvalid()) << stopped.ToString();
  EXPECT_TRUE(shared.Restart().IsInvalid());
  EXPECT_TRUE(shared.running());
}

TEST(KafkaBrokerTest, DeletedTopicsAreGone) {
  KafkaTestClient kafka(SharedKafkaBroker().bootstrap());
  const std::string topic = UniqueTopicName("deleted");
  ASSERT_OK(kafka.CreateTopic(topic, 1));
  ASSERT_OK(kafka.DeleteTopic(topic));
  const auto partitions = kafka.Partitions(topic);
  ASSERT_FALSE(partitions.ok());
  EXPECT_NE(partitions.status().message().find("'" + topic + "' does not exist"),
            std::string::npos)
      << partitions.status().ToString();
}

TEST(KafkaBrokerTest, AnUnreachableBrokerFailsWithinThePatience) {
  // Port 1 on the loopback interface refuses connections.
  KafkaTestClient kafka("127.0.0.1:1", std::chrono::seconds(2));
  const arrow::Status created = kafka.CreateTopic("never", 1);
  EXPECT_TRUE(created.IsIOError()) << created.ToString();
  EXPECT_NE(created.message().find("'never'"), std::string::npos) << created.ToString();
  const auto read = kafka.ConsumeAll("never", KafkaIsolation::kReadCommitted);
  EXPECT_TRUE(read.status().IsIOError()) << read.status().ToString();
}

}  // namespace
}  // namespace sluice::testing
