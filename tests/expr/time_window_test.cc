// Time windows through the C++ API (functions::window / window_time). Every expected value was
// produced by Spark 4.0.1 (local[1], session time zone UTC) running the same query on the same
// data; the golden cases (tests/golden/cases/time_windows.py) cover the SQL-string forms.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <arrow/table.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "support/canonical_values.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using ::testing::ElementsAre;

class TimeWindowTest : public testing::SessionTest {
 protected:
  DataFrame Events() {
    return Frame("ts TIMESTAMP, a INT",
                 {R"(["2024-01-01 10:03:00", "2024-01-01 10:12:30", null])", "[1, 2, 3]"});
  }

  // Each row as "value|value", sorted: Spark does not promise an order.
  static std::vector<std::string> SortedRows(const DataFrame& df) {
    std::vector<std::string> rows;
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return rows;
    auto batch = (*table)->CombineChunksToBatch().ValueOrDie();
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      std::string text;
      for (int column = 0; column < batch->num_columns(); ++column) {
        if (column > 0) text += "|";
        text += testing::CanonicalText(*batch->column(column), row);
      }
      rows.push_back(std::move(text));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }
};

TEST_F(TimeWindowTest, SlidingWindowsRepeatEachRowPerWindowAndDropNullTimes) {
  auto df = Events().select({F::window(F::col("ts"), "10 minutes", "3 minutes"), F::col("a")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_THAT(df.columns(), ElementsAre("window", "a"));
  EXPECT_THAT(SortedRows(df),
              ElementsAre(R"(["2024-01-01T09:54:00.000000Z", "2024-01-01T10:04:00.000000Z"]|1)",
                          R"(["2024-01-01T09:57:00.000000Z", "2024-01-01T10:07:00.000000Z"]|1)",
                          R"(["2024-01-01T10:00:00.000000Z", "2024-01-01T10:10:00.000000Z"]|1)",
                          R"(["2024-01-01T10:03:00.000000Z", "2024-01-01T10:13:00.000000Z"]|1)",
                          R"(["2024-01-01T10:03:00.000000Z", "2024-01-01T10:13:00.000000Z"]|2)",
                          R"(["2024-01-01T10:06:00.000000Z", "2024-01-01T10:16:00.000000Z"]|2)",
                          R"(["2024-01-01T10:09:00.000000Z", "2024-01-01T10:19:00.000000Z"]|2)",
                          R"(["2024-01-01T10:12:00.000000Z", "2024-01-01T10:22:00.000000Z"]|2)"));
}

TEST_F(TimeWindowTest, WindowTimeIsTheLastMicrosecondOfTheWindow) {
  auto df = Events().select({F::window_time(F::window(F::col("ts"), "10 minutes"))});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_THAT(df.columns(), ElementsAre("window_time(window)"));
  EXPECT_THAT(SortedRows(df), ElementsAre(R"("2024-01-01T10:09:59.999999Z")",
                                          R"("2024-01-01T10:19:59.999999Z")"));
}

TEST_F(TimeWindowTest, WindowTimeCarriesTheEventTimeOutOfAProjectionAndAnAggregation) {
  // Spark marks window_time()'s result as the event time (it keeps the window's watermark
  // delay), so a stateful operator downstream, such as a join on a time range, evicts by it.
  auto windows = Events().withWatermark("ts", "1 minute");
  auto delay_of = [](const DataFrame& df, const std::string& name) -> std::optional<int64_t> {
    for (const auto& attribute : df.plan()->output()) {
      if (attribute.name == name) return attribute.event_time_delay_ms;
    }
    ADD_FAILURE() << "no column " << name;
    return std::nullopt;
  };
  auto aggregated = windows.groupBy({F::window(F::col("ts"), "10 minutes")})
                        .agg({F::max(F::col("a")).alias("most"),
                              F::window_time(F::col("window")).alias("wt")});
  ASSERT_TRUE(aggregated.ok()) << aggregated.status().ToString();
  EXPECT_EQ(delay_of(aggregated, "wt"), 60000);
  EXPECT_EQ(delay_of(aggregated, "most"), std::nullopt);
  auto projected = aggregated.select({F::window_time(F::col("window")).alias("wt2")});
  ASSERT_TRUE(projected.ok()) << projected.status().ToString();
  EXPECT_EQ(delay_of(projected, "wt2"), 60000);
}

TEST_F(TimeWindowTest, GroupByASlidingWindowCountsEveryWindowOfARow) {
  auto df = Events().groupBy({F::window(F::col("ts"), "10 minutes", "4 minutes")}).count();
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_THAT(df.columns(), ElementsAre("window", "count"));
  EXPECT_THAT(SortedRows(df),
              ElementsAre(R"(["2024-01-01T09:56:00.000000Z", "2024-01-01T10:06:00.000000Z"]|1)",
                          R"(["2024-01-01T10:00:00.000000Z", "2024-01-01T10:10:00.000000Z"]|1)",
                          R"(["2024-01-01T10:04:00.000000Z", "2024-01-01T10:14:00.000000Z"]|1)",
                          R"(["2024-01-01T10:08:00.000000Z", "2024-01-01T10:18:00.000000Z"]|1)",
                          R"(["2024-01-01T10:12:00.000000Z", "2024-01-01T10:22:00.000000Z"]|1)"));
}

TEST_F(TimeWindowTest, WithColumnAddsTheWindowAfterTheInputColumns) {
  auto df = Events().withColumn("w", F::window(F::col("ts"), "10 minutes"));
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_THAT(df.columns(), ElementsAre("ts", "a", "w"));
  EXPECT_THAT(SortedRows(df),
              ElementsAre(R"("2024-01-01T10:03:00.000000Z"|1|)"
                          R"(["2024-01-01T10:00:00.000000Z", "2024-01-01T10:10:00.000000Z"])",
                          R"("2024-01-01T10:12:30.000000Z"|2|)"
                          R"(["2024-01-01T10:10:00.000000Z", "2024-01-01T10:20:00.000000Z"])"));
}

// Spark refuses these with an IllegalArgumentException / AnalysisException that carries no
// error class; the classes here are the nearest Spark ones.
TEST_F(TimeWindowTest, RefusesMonthsAndTwoDifferentWindows) {
  auto months = Events().select({F::window(F::col("ts"), "1 month")});
  EXPECT_TRUE(testing::HasErrorClass(months.status(), "INVALID_INTERVAL_FORMAT.INVALID_UNIT"));
  auto two = Events().select(
      {F::window(F::col("ts"), "10 minutes"), F::window(F::col("ts"), "5 minutes")});
  EXPECT_TRUE(testing::HasErrorClass(two.status(), "UNSUPPORTED_EXPR_FOR_OPERATOR"));
}

}  // namespace
}  // namespace sluice
