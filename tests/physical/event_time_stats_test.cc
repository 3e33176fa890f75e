// EventTimeStats: the event times a withWatermark operator reports, per batch and merged.
#include <limits>
#include <optional>
#include <vector>

#include <gtest/gtest.h>

#include <arrow/array.h>
#include <arrow/builder.h>

#include "sluice/physical/event_time_watermark_operator.h"

namespace sluice::physical {
namespace {

/// Microsecond timestamps, nullopt for a null.
std::shared_ptr<arrow::TimestampArray> Times(const std::vector<std::optional<int64_t>>& micros) {
  arrow::TimestampBuilder builder(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                  arrow::default_memory_pool());
  for (const auto& value : micros) {
    EXPECT_TRUE((value ? builder.Append(*value) : builder.AppendNull()).ok());
  }
  std::shared_ptr<arrow::TimestampArray> array;
  EXPECT_TRUE(builder.Finish(&array).ok());
  return array;
}

TEST(EventTimeStatsTest, ABatchsTimesInMillisecondsTruncatedTowardZeroWithoutItsNulls) {
  // Sliced, so that the offset of the validity bitmap counts.
  auto all = Times({7'000'000, std::nullopt, 2'000'999, -1'500, std::nullopt, 5'000'000,
                    std::nullopt, 9'000'000});
  auto times = std::static_pointer_cast<arrow::TimestampArray>(all->Slice(1, 6));
  EventTimeStats stats = EventTimeStatsOf(*times);
  EXPECT_EQ(stats.count, 3);
  EXPECT_EQ(stats.min, -1);  // -1.5 ms truncated toward zero, as Spark's division does
  EXPECT_EQ(stats.max, 5'000);
  EXPECT_DOUBLE_EQ(stats.avg, (2'000 - 1 + 5'000) / 3.0);
}

TEST(EventTimeStatsTest, TheMeanOfTimesNearTheLimitsDoesNotOverflow) {
  const int64_t late = std::numeric_limits<int64_t>::max() / 1000 * 1000;
  EventTimeStats stats = EventTimeStatsOf(*Times({late, late, late}));
  EXPECT_EQ(stats.max, late / 1000);
  EXPECT_DOUBLE_EQ(stats.avg, static_cast<double>(late / 1000));
}

TEST(EventTimeStatsTest, BatchesWithoutTimesLeaveTheStatisticsAsTheyWere) {
  EventTimeStats stats;
  stats.Merge(EventTimeStatsOf(*Times({std::nullopt, std::nullopt})));
  EXPECT_EQ(stats.count, 0);
  EXPECT_EQ(stats.max, std::numeric_limits<int64_t>::min());  // no watermark from it
  stats.Merge(EventTimeStatsOf(*Times({4'000, 8'000})));
  stats.Merge(EventTimeStatsOf(*Times({})));
  EXPECT_EQ(stats.count, 2);
  EXPECT_EQ(stats.min, 4);
  EXPECT_EQ(stats.max, 8);
  EXPECT_DOUBLE_EQ(stats.avg, 6);
}

TEST(EventTimeStatsTest, MergedBatchesWeighTheirMeansByTheirCounts) {
  EventTimeStats stats = EventTimeStatsOf(*Times({10'000}));
  stats.Merge(EventTimeStatsOf(*Times({20'000, 30'000, 40'000})));
  EXPECT_EQ(stats.count, 4);
  EXPECT_EQ(stats.min, 10);
  EXPECT_EQ(stats.max, 40);
  EXPECT_DOUBLE_EQ(stats.avg, 25);
}

}  // namespace
}  // namespace sluice::physical
