// session_window(time, gap) in batch queries: the merging step on its own, and the plans and
// answers of the DataFrame API. Answers of the API tests were produced by Spark 4.0.1
// (local[1]) running the same query on the same data; tests/golden/cases/session_windows.py
// covers many more queries against Spark's answers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/common/errors.h"
#include "sluice/physical/session_window_merge.h"
#include "sluice/plan/required_columns.h"
#include "sluice/plan/session_window_merge.h"
#include "relational_test_support.h"

namespace sluice {
namespace {

namespace F = functions;
using physical::MergeSortedSessions;
using physical::SessionSpan;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::Ints;
using testing::Longs;
using testing::MakeTable;
using testing::Rows;
using testing::Strings;

std::vector<std::pair<int64_t, int64_t>> Spans(const std::vector<SessionSpan>& sessions) {
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const auto& session : sessions) spans.emplace_back(session.start, session.end);
  return spans;
}

TEST(MergeSortedSessionsTest, MergesOverlappingAndTouchingSessionsOfAKey) {
  // Key 0: [0,5) touches [5,10), which overlaps [7,9) (inside it); [11,16) leaves a hole.
  // Key 1: [3,8) never merges with key 0's sessions.
  const std::vector<uint32_t> keys = {0, 0, 0, 0, 1};
  const std::vector<SessionSpan> spans = {{0, 5}, {5, 10}, {7, 9}, {11, 16}, {3, 8}};
  auto merged = MergeSortedSessions(keys, spans);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_THAT(Spans(merged->sessions), ElementsAre(std::pair<int64_t, int64_t>{0, 10},
                                                   std::pair<int64_t, int64_t>{11, 16},
                                                   std::pair<int64_t, int64_t>{3, 8}));
  EXPECT_THAT(merged->session_of, ElementsAre(0, 0, 0, 1, 2));
}

TEST(MergeSortedSessionsTest, AnEarlierLongSessionKeepsItsEnd) {
  // [0,100) swallows [10,20); [50,120) then extends the same session.
  auto merged = MergeSortedSessions(std::vector<uint32_t>{4, 4, 4},
                                    std::vector<SessionSpan>{{0, 100}, {10, 20}, {50, 120}});
  ASSERT_TRUE(merged.ok());
  EXPECT_THAT(Spans(merged->sessions), ElementsAre(std::pair<int64_t, int64_t>{0, 120}));
}

TEST(MergeSortedSessionsTest, EmptyInputHasNoSessions) {
  auto merged = MergeSortedSessions({}, {});
  ASSERT_TRUE(merged.ok());
  EXPECT_TRUE(merged->sessions.empty());
  EXPECT_TRUE(merged->session_of.empty());
}

TEST(MergeSortedSessionsTest, RefusesUnsortedOrMismatchedInput) {
  auto unsorted = MergeSortedSessions(std::vector<uint32_t>{0, 0},
                                      std::vector<SessionSpan>{{5, 10}, {0, 5}});
  EXPECT_TRUE(unsorted.status().IsInvalid());
  EXPECT_THAT(unsorted.status().message(), HasSubstr("starts before"));
  auto mismatched =
      MergeSortedSessions(std::vector<uint32_t>{0}, std::vector<SessionSpan>{{0, 5}, {6, 9}});
  EXPECT_TRUE(mismatched.status().IsInvalid());
}

class SessionWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = SparkSession::builder().getOrCreate().ValueOrDie();
    // Seconds since the epoch; key 1's gaps per row: 5s and 10s touch, a null gap drops its
    // row, 2s and 2s overlap. Key 2: a minute's session swallows a second's.
    events_ = session_
                  ->createDataFrame(MakeTable({
                      {"k", Ints({1, 1, 1, 1, 1, 2, 2, std::nullopt})},
                      {"s", Longs({0, 5, 11, 20, 21, 0, 30, std::nullopt})},
                      {"g", Strings({"5 seconds", "10 seconds", std::nullopt, "2 seconds",
                                     "2 seconds", "1 minute", "1 second", "5 seconds"})},
                  }))
                  .selectExpr({"k", "timestamp_seconds(s) AS ts", "g"});
  }

  // The groups of a grouping by (k, session) as "k|start|end|count", times in seconds.
  static std::vector<std::string> Sessions(const DataFrame& grouped) {
    return Rows(grouped.selectExpr({"k", "unix_seconds(session_window.start)",
                                    "unix_seconds(session_window.end)", "count"}));
  }

  // The error of a query, whether analysis (building the DataFrame) or execution raised it.
  static arrow::Status ErrorOf(const DataFrame& df) {
    return df.ok() ? df.collect().status() : df.status();
  }

  std::shared_ptr<SparkSession> session_;
  DataFrame events_{nullptr, arrow::Status::OK()};
};

TEST_F(SessionWindowTest, GroupByMergesTheSessionsOfEachKeyWithAGapPerRow) {
  auto grouped = events_.groupBy({F::col("k"), F::session_window(F::col("ts"), F::col("g"))})
                     .agg({F::count("*").alias("count")});
  EXPECT_THAT(Sessions(grouped), ElementsAre("1|0|15|2", "1|20|23|2", "2|0|60|2"));
}

TEST_F(SessionWindowTest, GroupByWithAStaticGap) {
  auto grouped = events_.groupBy({F::col("k"), F::session_window(F::col("ts"), "6 seconds")})
                     .agg({F::count("*").alias("count")});
  EXPECT_THAT(Sessions(grouped),
              ElementsAre("1|0|17|3", "1|20|27|2", "2|0|6|1", "2|30|36|1"));
}

// Sessions are merged from the keys and the sessions alone, and rows pass through: below the
// merging, only what the aggregation above reads is needed (here not g), so a scan decodes no
// more (Spark's column pruning; a stream reads its rows through the same rule).
TEST_F(SessionWindowTest, TheMergingReadsOnlyTheKeysTheSessionsAndWhatIsAggregated) {
  auto grouped = events_.groupBy({F::col("k"), F::session_window(F::col("ts"), "6 seconds")})
                     .agg({F::max("ts").alias("last")});
  const plan::LogicalPlan* node = grouped.plan().get();
  while (node->kind() != plan::PlanKind::kAggregate) node = node->children()[0].get();
  const plan::LogicalPlan& merge = *node->children()[0];
  ASSERT_EQ(merge.kind(), plan::PlanKind::kMergeSessionWindows);
  const plan::ColumnUses of_merge =
      plan::RequiredOfChildren(*node, plan::AllColumns(*node))[0];
  const plan::ColumnUses of_rows = plan::RequiredOfChildren(merge, of_merge)[0];
  std::vector<std::string> read;
  for (size_t c = 0; c < of_rows.size(); ++c) {
    if (of_rows[c].read()) read.push_back(merge.children()[0]->output()[c].name);
  }
  EXPECT_THAT(read, ElementsAre("session_window", "k", "ts"));
}

TEST_F(SessionWindowTest, OnlyAGroupingBySessionMergesSessions) {
  auto grouped = events_.groupBy({F::col("k"), F::session_window(F::col("ts"), "6 seconds")})
                     .agg({F::count("*")});
  EXPECT_THAT(grouped.explainString().ValueOrDie(), HasSubstr("MergeSessionWindows [k"));
  // A row's own session in a projection, or a field of it as a key: nothing merges.
  auto projected = events_.select({F::session_window(F::col("ts"), "6 seconds"), F::col("k")});
  EXPECT_THAT(projected.explainString().ValueOrDie(), Not(HasSubstr("MergeSessionWindows")));
  EXPECT_EQ(projected.plan()->output()[0].name, "session_window");
  EXPECT_FALSE(projected.plan()->output()[0].nullable);
  auto by_start = events_.groupBy({F::expr("session_window(ts, '6 seconds').start")})
                      .agg({F::count("*")});
  EXPECT_THAT(by_start.explainString().ValueOrDie(), Not(HasSubstr("MergeSessionWindows")));
  EXPECT_EQ(Rows(by_start).size(), 6u);
}

TEST_F(SessionWindowTest, ErrorsNameTheCallAndTypeAsSparkDoes) {
  auto int_time =
      ErrorOf(events_.groupBy({F::session_window(F::col("k"), "5 seconds")}).count());
  EXPECT_EQ(ErrorClassOf(int_time), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  EXPECT_THAT(int_time.message(),
              HasSubstr("Cannot resolve \"sessionwindow(k, 5 seconds)\" due to data type "
                        "mismatch: The first parameter requires the"));
  EXPECT_THAT(int_time.message(), HasSubstr("however \"k\" has the type \"INT\"."));
  auto int_gap = ErrorOf(events_.groupBy({F::expr("session_window(ts, 5)")}).count());
  EXPECT_EQ(ErrorClassOf(int_gap), "_LEGACY_ERROR_TEMP_1040");
  EXPECT_THAT(int_gap.message(), HasSubstr("must be CalendarIntervalType, but got IntegerType."));
  auto two = ErrorOf(events_.select({F::session_window(F::col("ts"), "5 seconds"),
                                     F::window(F::col("ts"), "5 seconds")}));
  EXPECT_EQ(ErrorClassOf(two), "_LEGACY_ERROR_TEMP_1039");
}

}  // namespace
}  // namespace sluice
