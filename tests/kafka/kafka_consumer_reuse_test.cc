// The Kafka source's consumer kept from one micro-batch to the next, against a real broker: a
// kept consumer reads exactly each batch's ranges (the next ones, earlier ones read again,
// later ones, large ones read in turn, ranges ending on a transaction marker), and a reader
// that fails or stops early never hands its consumer on.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/sources/kafka/kafka_consumer_cache.h"
#include "sluice/sources/kafka/kafka_data_loss.h"
#include "sluice/sources/kafka/kafka_options.h"
#include "sluice/sources/kafka/kafka_range_reader.h"
#include "support/kafka_broker.h"
#include "support/kafka_client.h"

namespace sluice::sources::kafka {
namespace {

using testing::KafkaRecord;
using testing::KafkaTestClient;
using testing::SharedKafkaBroker;
using testing::UniqueTopicName;
using testing::ValueRecords;

class KafkaConsumerReuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bootstrap_ = SharedKafkaBroker().bootstrap();
    kafka_ = std::make_unique<KafkaTestClient>(bootstrap_);
    topic_ = UniqueTopicName("reuse");
  }

  KafkaSourceOptions Options(formats::OptionMap extra = {}) const {
    extra.emplace("kafka.bootstrap.servers", bootstrap_);
    extra.emplace("subscribe", topic_);
    auto options = ParseKafkaStreamOptions(extra);
    EXPECT_TRUE(options.ok()) << options.status().ToString();
    return options.ValueOr(KafkaSourceOptions{});
  }

  KafkaOffsetRange Range(int32_t partition, int64_t from, int64_t until) const {
    return {{topic_, partition}, from, until};
  }

  // The values read from `ranges` with the consumer kept in `cache` (or none), or the error.
  arrow::Result<std::vector<std::string>> Read(const KafkaSourceOptions& options,
                                               std::vector<KafkaOffsetRange> ranges,
                                               const std::shared_ptr<KafkaConsumerCache>& cache) {
    ARROW_ASSIGN_OR_RAISE(auto reader, ReadKafkaRanges(options, std::move(ranges),
                                                       MakeDataLossReporter(true), cache));
    ARROW_ASSIGN_OR_RAISE(auto table, reader->ToTable());
    std::vector<std::string> values;
    for (const auto& chunk : table->GetColumnByName("value")->chunks()) {
      const auto& column = static_cast<const arrow::BinaryArray&>(*chunk);
      for (int64_t i = 0; i < column.length(); ++i) values.push_back(column.GetString(i));
    }
    return values;
  }

  // The consumer the cache holds now (it stays there), or null.
  static const KafkaPartitionConsumer* Kept(KafkaConsumerCache& cache) {
    auto consumer = cache.Take();
    const KafkaPartitionConsumer* kept = consumer.get();
    if (consumer != nullptr) cache.Keep(std::move(consumer));
    return kept;
  }

  void Produce(const std::vector<KafkaRecord>& records) {
    auto written = kafka_->Produce(topic_, records);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
  }

  std::string bootstrap_;
  std::unique_ptr<KafkaTestClient> kafka_;
  std::string topic_;
};

using Strings = std::vector<std::string>;

TEST_F(KafkaConsumerReuseTest, AKeptConsumerReadsExactlyEachBatchsRanges) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 2).ok());
  Produce(ValueRecords(0, {"a", "b", "c"}));
  Produce(ValueRecords(1, {"x", "y"}));
  const KafkaSourceOptions options = Options();
  auto cache = std::make_shared<KafkaConsumerCache>();

  EXPECT_EQ(Read(options, {Range(0, 0, 2), Range(1, 0, 1)}, cache).ValueOrDie(),
            (Strings{"a", "b", "x"}));
  const KafkaPartitionConsumer* consumer = Kept(*cache);
  ASSERT_NE(consumer, nullptr);

  // The next batch starts where this one ended: what was fetched meanwhile is read, and the
  // records that arrived since.
  Produce(ValueRecords(0, {"d"}));
  Produce(ValueRecords(1, {"z"}));
  EXPECT_EQ(Read(options, {Range(0, 2, 4), Range(1, 1, 3)}, cache).ValueOrDie(),
            (Strings{"c", "d", "y", "z"}));
  EXPECT_EQ(Kept(*cache), consumer);

  // A batch read again (a restart re-runs the last batch) and a batch starting later than
  // the consumer's position read exactly their ranges too, with the same consumer.
  EXPECT_EQ(Read(options, {Range(0, 1, 3), Range(1, 0, 2)}, cache).ValueOrDie(),
            (Strings{"b", "c", "x", "y"}));
  EXPECT_EQ(Read(options, {Range(0, 3, 4), Range(1, 2, 3)}, cache).ValueOrDie(),
            (Strings{"d", "z"}));
  // Empty ranges, a partition left out, and the order of the ranges given.
  EXPECT_EQ(Read(options, {Range(1, 1, 3), Range(0, 4, 4)}, cache).ValueOrDie(),
            (Strings{"y", "z"}));
  EXPECT_EQ(Read(options, {Range(0, 0, 1)}, cache).ValueOrDie(), (Strings{"a"}));
  EXPECT_EQ(Kept(*cache), consumer);
}

TEST_F(KafkaConsumerReuseTest, LargeRangesAreReadInTurnAndSmallOnesAlongside) {
  // Ranges larger than a record batch (64K rows) are assigned when their turn comes, the
  // small ones at once: either way each range is read exactly, in the order given.
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 3).ok());
  constexpr int64_t kLarge = 70'000;
  std::vector<std::string> zeros(kLarge, "0");
  std::vector<std::string> ones(kLarge, "1");
  Produce(ValueRecords(0, zeros));
  Produce(ValueRecords(1, ones));
  Produce(ValueRecords(2, {"a", "b"}));
  const KafkaSourceOptions options = Options();
  auto cache = std::make_shared<KafkaConsumerCache>();
  auto values = Read(options, {Range(1, 0, kLarge), Range(2, 0, 1), Range(0, 1, kLarge)}, cache);
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  std::vector<std::string> expected(ones);
  expected.push_back("a");
  expected.insert(expected.end(), zeros.begin() + 1, zeros.end());
  EXPECT_EQ(*values, expected);
  const KafkaPartitionConsumer* consumer = Kept(*cache);
  ASSERT_NE(consumer, nullptr);
  EXPECT_EQ(Read(options, {Range(2, 1, 2), Range(0, 0, 1)}, cache).ValueOrDie(),
            (Strings{"b", "0"}));
  EXPECT_EQ(Kept(*cache), consumer);
}

TEST_F(KafkaConsumerReuseTest, RangesEndingOnTransactionMarkersFollowEachOther) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  const std::string id = UniqueTopicName("txn");
  // Offsets: c1 0, c2 1, marker 2, aborted 3, marker 4, c3 5, marker 6.
  ASSERT_TRUE(kafka_->ProduceCommittedAbortedCommitted(topic_, id).ok());
  for (const char* isolation : {"read_committed", "read_uncommitted"}) {
    SCOPED_TRACE(isolation);
    const KafkaSourceOptions options = Options({{"kafka.isolation.level", isolation}});
    const bool committed = std::string(isolation) == "read_committed";
    auto cache = std::make_shared<KafkaConsumerCache>();
    // Each range ends on a marker: the reader sees the next batch's first record, which
    // stays for that batch.
    EXPECT_EQ(Read(options, {Range(0, 0, 3)}, cache).ValueOrDie(), (Strings{"c1", "c2"}));
    EXPECT_EQ(Read(options, {Range(0, 3, 5)}, cache).ValueOrDie(),
              committed ? Strings{} : Strings{"aborted"});
    EXPECT_EQ(Read(options, {Range(0, 5, 7)}, cache).ValueOrDie(), (Strings{"c3"}));
    EXPECT_NE(Kept(*cache), nullptr);
  }
}

TEST_F(KafkaConsumerReuseTest, AFailedOrUnfinishedReadDropsItsConsumer) {
  ASSERT_TRUE(kafka_->CreateTopic(topic_, 1).ok());
  Produce(ValueRecords(0, {"a", "b"}));
  auto cache = std::make_shared<KafkaConsumerCache>();
  ASSERT_TRUE(Read(Options(), {Range(0, 0, 1)}, cache).ok());
  ASSERT_NE(Kept(*cache), nullptr);

  // Records that never come: the read fails, and its consumer is not kept.
  auto failed =
      Read(Options({{"kafkaConsumer.pollTimeoutMs", "300"}}), {Range(0, 1, 5)}, cache);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("Cannot read the records in offset [2, 5)"),
            std::string::npos)
      << failed.status().ToString();
  EXPECT_EQ(Kept(*cache), nullptr);

  // A reader dropped before the end of its ranges closes its consumer too: here after the
  // first record batch (64K rows) of a longer range.
  std::vector<std::string> many(70'000, "v");
  Produce(ValueRecords(0, many));
  ASSERT_TRUE(Read(Options(), {Range(0, 0, 1)}, cache).ok());
  ASSERT_NE(Kept(*cache), nullptr);
  {
    auto reader = ReadKafkaRanges(Options(), {Range(0, 0, 70'002)}, MakeDataLossReporter(true),
                                  cache);
    ASSERT_TRUE(reader.ok());
    std::shared_ptr<arrow::RecordBatch> batch;
    ASSERT_TRUE((*reader)->ReadNext(&batch).ok());
    ASSERT_NE(batch, nullptr);
    EXPECT_LT(batch->num_rows(), 70'002);
    EXPECT_EQ(Kept(*cache), nullptr);
  }
  EXPECT_EQ(Kept(*cache), nullptr);
  // Once closed, the cache keeps nothing.
  cache->Close();
  EXPECT_EQ(Read(Options(), {Range(0, 0, 2)}, cache).ValueOrDie(), (Strings{"a", "b"}));
  EXPECT_EQ(Kept(*cache), nullptr);
}

}  // namespace
}  // namespace sluice::sources::kafka
