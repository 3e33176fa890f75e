// How much a Kafka micro-batch takes: maxOffsetsPerTrigger's split by backlog with Spark's
// rounding, minOffsetsPerTrigger with maxTriggerDelay, and the offsets-behind-latest metrics.
#include "sluice/sources/kafka/kafka_admission.h"

#include <gtest/gtest.h>

namespace sluice::sources::kafka {
namespace {

const TopicPartition kA{"t", 0};
const TopicPartition kB{"t", 1};
const TopicPartition kC{"t", 2};

TEST(KafkaRateLimitTest, SplitsTheLimitByBacklog) {
  // Backlogs 30 and 70 share 10 records as 3 and 7.
  EXPECT_EQ(RateLimit(10, {{kA, 0}, {kB, 100}}, {{kA, 30}, {kB, 170}}, {}),
            (PartitionOffsets{{kA, 3}, {kB, 107}}));
}

TEST(KafkaRateLimitTest, SharesBelowOneRoundUpOthersDown) {
  // Shares: 10 * 1/1000 = 0.01 -> 1; 10 * 999/1000 = 9.99 -> 9.
  EXPECT_EQ(RateLimit(10, {{kA, 0}, {kB, 0}}, {{kA, 1}, {kB, 999}}, {}),
            (PartitionOffsets{{kA, 1}, {kB, 9}}));
}

TEST(KafkaRateLimitTest, NeverPassesTheLatestOffsets) {
  EXPECT_EQ(RateLimit(1000, {{kA, 5}}, {{kA, 8}}, {}), (PartitionOffsets{{kA, 8}}));
  EXPECT_EQ(RateLimit(std::numeric_limits<int64_t>::max(), {{kA, 5}}, {{kA, 8}}, {}),
            (PartitionOffsets{{kA, 8}}));
}

TEST(KafkaRateLimitTest, NewPartitionsStartAtTheirEarliestOffsets) {
  // kC is new: its backlog counts from its earliest offset 10.
  EXPECT_EQ(RateLimit(4, {{kA, 0}}, {{kA, 20}, {kC, 30}}, {{kC, 10}}),
            (PartitionOffsets{{kA, 2}, {kC, 12}}));
  // A partition without a start keeps its end (the batch planning reports it).
  EXPECT_EQ(RateLimit(4, {{kA, 0}}, {{kA, 20}, {kC, 30}}, {}),
            (PartitionOffsets{{kA, 4}, {kC, 30}}));
}

TEST(KafkaRateLimitTest, NoBacklogKeepsTheLatestOffsets) {
  EXPECT_EQ(RateLimit(5, {{kA, 9}}, {{kA, 9}, {kB, 0}}, {{kB, 0}}),
            (PartitionOffsets{{kA, 9}, {kB, 0}}));
}

TEST(KafkaTriggerDelayTest, SkipsUntilEnoughRecordsOrTheDelayPassed) {
  TriggerDelay delay(/*min_offsets=*/10, /*max_trigger_delay_ms=*/1000);
  // The first trigger counts the delay from time 0: at 1000 it has passed.
  EXPECT_FALSE(delay.ShouldSkip({{kA, 2}}, {{kA, 0}}, 1000));
  EXPECT_TRUE(delay.ShouldSkip({{kA, 5}}, {{kA, 2}}, 1500));
  // Enough records: no skip, and the delay restarts.
  EXPECT_FALSE(delay.ShouldSkip({{kA, 12}, {kB, 3}}, {{kA, 5}}, 1600));
  EXPECT_TRUE(delay.ShouldSkip({{kA, 13}}, {{kA, 12}}, 2599));
  EXPECT_FALSE(delay.ShouldSkip({{kA, 13}}, {{kA, 12}}, 2600));
}

TEST(KafkaMetricsTest, OffsetsBehindLatestAsSparkPrintsThem) {
  auto metrics =
      OffsetsBehindLatestMetrics({{kA, 5}, {kB, 10}, {kC, 0}}, {{kA, 5}, {kB, 12}, {kC, 2}});
  EXPECT_EQ(metrics, (std::map<std::string, std::string>{
                         {"minOffsetsBehindLatest", "0"},
                         {"maxOffsetsBehindLatest", "2"},
                         {"avgOffsetsBehindLatest", "1.3333333333333333"}}));
  EXPECT_EQ(OffsetsBehindLatestMetrics({{kA, 1}}, {{kA, 1}}).at("avgOffsetsBehindLatest"), "0.0");
  EXPECT_TRUE(OffsetsBehindLatestMetrics({}, {}).empty());
}

}  // namespace
}  // namespace sluice::sources::kafka
