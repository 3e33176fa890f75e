// Window functions through the DataFrame API and SQL. Every expected row and name below was
// produced by Spark 4.0.1 (local[1]) running the same query on the same data.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/window_spec.h"
#include "sluice/common/errors.h"
#include "sluice/plan/required_columns.h"
#include "relational_test_support.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;
using testing::Doubles;
using testing::Ints;
using testing::MakeTable;
using testing::Rows;
using testing::Strings;

class WindowFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = SparkSession::builder().getOrCreate().ValueOrDie();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    t_ = session_->createDataFrame(MakeTable({
        {"k", Strings({"x", "y", "x", std::nullopt, "y", "x", "x"})},
        {"a", Ints({1, 2, std::nullopt, 4, 5, 3, 3})},
        {"d", Doubles({1.5, nan, 2.5, std::nullopt, -1.0, std::nullopt, 7.0})},
    }));
    ASSERT_TRUE(t_.createOrReplaceTempView("t").ok());
  }

  std::shared_ptr<SparkSession> session_;
  DataFrame t_{nullptr, arrow::Status::OK()};
};

TEST_F(WindowFunctionTest, RankingFunctions) {
  auto w = Window::partitionBy({"k"}).orderBy({"a"});
  auto df = t_.select({"k", "a", F::row_number().over(w).alias("rn"), F::rank().over(w).alias("r"),
                       F::dense_rank().over(w).alias("dr"), F::percent_rank().over(w).alias("pr"),
                       F::cume_dist().over(w).alias("cd"), F::ntile(3).over(w).alias("nt")});
  EXPECT_THAT(Rows(df), UnorderedElementsAre("null|4|1|1|1|0|1|1",
                                             "x|null|1|1|1|0|0.25|1",
                                             "x|1|2|2|2|0.3333333333333333|0.5|1",
                                             "x|3|3|3|3|0.6666666666666666|1|2",
                                             "x|3|4|3|3|0.6666666666666666|1|3",
                                             "y|2|1|1|1|0|0.5|1",
                                             "y|5|2|2|2|1|1|2"));
  auto schema = df.schema().ValueOrDie();
  EXPECT_EQ(schema->field(2)->type()->id(), arrow::Type::INT32);
  EXPECT_FALSE(schema->field(2)->nullable());
  EXPECT_EQ(schema->field(5)->type()->id(), arrow::Type::DOUBLE);
}

// A window passes its child's columns through: below it, only what is read above and what
// its keys and functions read is needed. Here d is not, so a scan below would not decode it.
TEST_F(WindowFunctionTest, AWindowNeedsOnlyWhatItsFunctionsAndKeysReadAndWhatIsReadAbove) {
  auto w = Window::partitionBy({"k"}).orderBy({"a"});
  auto df = t_.select({"k", F::row_number().over(w).alias("rn")});
  EXPECT_THAT(Rows(df), UnorderedElementsAre("null|1", "x|1", "x|2", "x|3", "x|4", "y|1",
                                             "y|2"));
  const plan::LogicalPlan* node = df.plan().get();
  while (node->kind() != plan::PlanKind::kWindow) node = node->children()[0].get();
  const plan::LogicalPlan& above = *df.plan();
  std::vector<plan::ColumnUses> uses = {plan::AllColumns(above)};
  for (const plan::LogicalPlan* at = &above; at != node; at = at->children()[0].get()) {
    uses.push_back(plan::RequiredOfChildren(*at, uses.back())[0]);
  }
  EXPECT_THAT(plan::ReadFlags(plan::RequiredOfChildren(*node, uses.back())[0]),
              ElementsAre(true, true, false));
}

TEST_F(WindowFunctionTest, LagAndLead) {
  auto w = Window::partitionBy({"k"}).orderBy({"a"});
  auto desc = Window::partitionBy({"k"}).orderBy({F::col("a").desc_nulls_last()});
  auto df = t_.select({"k", "a", "d", F::lag(F::col("d")).over(w).alias("lag1"),
                       F::lead(F::col("d"), 2, F::lit(-9.0)).over(w).alias("lead2"),
                       F::lag(F::col("d"), 1, F::lit_null("double")).over(desc).alias("lagdesc")});
  EXPECT_THAT(Rows(df), UnorderedElementsAre("null|4|null|null|-9|null",
                                             "x|null|2.5|null|null|1.5",
                                             "x|1|1.5|2.5|7|7",
                                             "x|3|null|1.5|-9|null",
                                             "x|3|7|null|-9|null",
                                             "y|2|nan|null|-9|-1",
                                             "y|5|-1|nan|-9|null"));
}

TEST_F(WindowFunctionTest, AggregatesOverFrames) {
  auto df = t_.select(
      {"k", "a", "d",
       F::sum(F::col("d")).over(Window::partitionBy({"k"}).orderBy({"a"})).alias("run"),
       F::count(F::lit(1)).over(Window::partitionBy({"k"})).alias("n"),
       F::max(F::col("a"))
           .over(Window::partitionBy({"k"}).orderBy({"a"}).rowsBetween(-1, 1))
           .alias("mx"),
       F::collect_list(F::col("a"))
           .over(Window::orderBy({"a"}).rowsBetween(Window::currentRow, Window::unboundedFollowing))
           .alias("rest"),
       F::avg(F::col("a")).over(Window::orderBy({"a"}).rangeBetween(-1, 1)).alias("near")});
  EXPECT_THAT(Rows(df), UnorderedElementsAre("null|4|null|null|1|4|[4,5]|3.75",
                                             "x|null|2.5|2.5|4|1|[1,2,3,3,4,5]|null",
                                             "x|1|1.5|4|4|3|[1,2,3,3,4,5]|1.5",
                                             "x|3|null|11|4|3|[3,3,4,5]|3",
                                             "x|3|7|11|4|3|[3,4,5]|3",
                                             "y|2|nan|nan|2|5|[2,3,3,4,5]|2.25",
                                             "y|5|-1|nan|2|5|[5]|4.5"));
}

TEST_F(WindowFunctionTest, NamesAsSpark) {
  auto w = Window::partitionBy({"k"}).orderBy({"a"});
  auto df = t_.select(
      {F::row_number().over(w),
       F::sum(F::col("a"))
           .over(Window::partitionBy({"k"}).orderBy({F::col("a").desc()}).rowsBetween(-2, 0)),
       F::lead(F::col("a")).over(w)});
  EXPECT_THAT(df.columns(),
              ElementsAre("row_number() OVER (PARTITION BY k ORDER BY a ASC NULLS FIRST ROWS "
                          "BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
                          "sum(a) OVER (PARTITION BY k ORDER BY a DESC NULLS LAST ROWS BETWEEN "
                          "-2 FOLLOWING AND CURRENT ROW)",
                          "lead(a, 1, NULL) OVER (PARTITION BY k ORDER BY a ASC NULLS FIRST ROWS "
                          "BETWEEN 1 FOLLOWING AND 1 FOLLOWING)"));
  EXPECT_THAT(Rows(df), UnorderedElementsAre("1|4|null", "3|3|3", "4|6|null", "2|7|3", "1|4|1",
                                             "2|5|null", "1|7|5"));
}

TEST_F(WindowFunctionTest, SqlOverClausesAndNamedWindows) {
  auto df = session_->sql(
      "select k, a, sum(a) over (partition by k order by a rows between 1 preceding and current "
      "row) s, rank() over w r, count(*) over () c from t window w as (partition by k order by "
      "a desc) order by k, a, s");
  EXPECT_THAT(Rows(df, /*keep_order=*/true),
              ElementsAre("null|4|4|1|7", "x|null|null|4|7", "x|1|1|3|7", "x|3|4|1|7",
                          "x|3|6|1|7", "y|2|2|2|7", "y|5|7|1|7"));
  auto named = session_->sql(
      "select sum(a) over (order by a rows between 1 preceding and 1 following), first(d) over "
      "(partition by k order by a range between unbounded preceding and unbounded following), "
      "lag(a, 2) over (order by a) from t");
  EXPECT_THAT(named.columns(),
              ElementsAre("sum(a) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 1 "
                          "FOLLOWING)",
                          "first(d) OVER (PARTITION BY k ORDER BY a ASC NULLS FIRST RANGE BETWEEN "
                          "UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
                          "lag(a, 2, NULL) OVER (ORDER BY a ASC NULLS FIRST ROWS BETWEEN -2 "
                          "FOLLOWING AND -2 FOLLOWING)"));
  EXPECT_THAT(Rows(named), UnorderedElementsAre("12|null|3", "1|2.5|null", "3|2.5|null",
                                                "8|2.5|1", "10|2.5|2", "6|nan|null", "9|nan|3"));
}

// Running aggregates are folded in chunks of rows (a prefix state, then the rows up to each
// frame's end): long partitions with ties cross many chunks, and every row must still see
// exactly its frame, in order.
TEST_F(WindowFunctionTest, RunningAggregatesOverLongPartitions) {
  constexpr int kRows = 3000;
  std::vector<std::optional<std::string>> keys;
  std::vector<std::optional<int32_t>> positions, values;
  for (int i = 0; i < kRows; ++i) {
    keys.push_back(i % 3 == 0 ? "a" : "b");
    positions.push_back(i / 7);  // ties: RANGE frames end at the last peer
    values.push_back(i % 5 == 0 ? std::nullopt : std::optional<int32_t>(i));
  }
  auto df = session_->createDataFrame(
      MakeTable({{"k", Strings(keys)}, {"p", Ints(positions)}, {"v", Ints(values)}}));
  auto by_position = Window::partitionBy({"k"}).orderBy({"p", "v"});
  auto result = df.select({"k", "p", "v",
                           F::sum(F::col("v")).over(Window::partitionBy({"k"}).orderBy({"p"})),
                           F::count(F::col("v")).over(by_position.rowsBetween(
                               Window::unboundedPreceding, 2)),
                           F::last(F::col("v"), true).over(by_position)});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  // The expected values, computed row by row from the definitions.
  std::vector<std::string> expected;
  for (const std::string key : {"a", "b"}) {
    std::vector<int> rows;  // in (p, v) order; nulls first
    for (int i = 0; i < kRows; ++i) {
      if (*keys[i] == key) rows.push_back(i);
    }
    std::stable_sort(rows.begin(), rows.end(), [&](int x, int y) {
      if (*positions[x] != *positions[y]) return *positions[x] < *positions[y];
      return !values[x].has_value() && values[y].has_value();
    });
    for (size_t r = 0; r < rows.size(); ++r) {
      const int i = rows[r];
      int64_t range_sum = 0;
      bool any = false;
      for (int j : rows) {
        if (*positions[j] <= *positions[i] && values[j]) {
          range_sum += *values[j];
          any = true;
        }
      }
      int64_t counted = 0;
      std::optional<int32_t> last;
      for (size_t q = 0; q < rows.size(); ++q) {
        if (q <= r + 2 && values[rows[q]]) ++counted;
        if (q <= r && values[rows[q]]) last = values[rows[q]];
      }
      expected.push_back(key + "|" + std::to_string(*positions[i]) + "|" +
                         (values[i] ? std::to_string(*values[i]) : "null") + "|" +
                         (any ? std::to_string(range_sum) : "null") + "|" +
                         std::to_string(counted) + "|" +
                         (last ? std::to_string(*last) : "null"));
    }
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Rows(result), expected);
}

// Seed 004's foreachBatch upsert keeps each user's latest event with row_number().
TEST_F(WindowFunctionTest, LatestRowPerKey) {
  auto w = Window::partitionBy({"k"}).orderBy({F::col("a").desc()});
  auto latest =
      t_.withColumn("rn", F::row_number().over(w)).where("rn = 1").drop({"rn"});
  EXPECT_THAT(latest.columns(), ElementsAre("k", "a", "d"));
  EXPECT_THAT(Rows(latest), UnorderedElementsAre("null|4|null", "x|3|null", "y|5|-1"));
}

TEST_F(WindowFunctionTest, ErrorsAsSpark) {
  auto unordered = t_.select({F::row_number().over(Window::partitionBy({"k"}))});
  EXPECT_THAT(unordered.status().message(),
              HasSubstr("Window function row_number() requires window to be ordered"));
  auto framed =
      t_.select({F::row_number().over(Window::orderBy({"a"}).rowsBetween(-1, 0))});
  EXPECT_THAT(framed.status().message(),
              HasSubstr("must match the required frame specifiedwindowframe(RowFrame, "
                        "unboundedpreceding$(), currentrow$())"));
  auto multi = t_.select(
      {F::sum(F::col("a")).over(Window::orderBy({"a", "k"}).rangeBetween(-1, 0))});
  EXPECT_TRUE(testing::HasErrorClass(multi.status(), "DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER"));
  auto string_range =
      t_.select({F::sum(F::col("a")).over(Window::orderBy({"k"}).rangeBetween(-1, 0))});
  EXPECT_TRUE(testing::HasErrorClass(string_range.status(),
                                     "DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE"));
  EXPECT_TRUE(testing::HasErrorClass(
      t_.select({F::upper(F::col("k")).over(Window::orderBy({"a"}))}).status(),
      "UNSUPPORTED_EXPR_FOR_WINDOW"));
  EXPECT_TRUE(testing::HasErrorClass(
      t_.select({F::ntile(0).over(Window::orderBy({"a"}))}).status(),
      "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"));
  auto in_where = session_->sql("select * from t where row_number() over (order by a) = 1");
  EXPECT_THAT(in_where.status().message(),
              HasSubstr("It is not allowed to use window functions inside WHERE clause."));
  EXPECT_TRUE(testing::HasErrorClass(
      session_->sql("select rank() over w from t").status(), "MISSING_WINDOW_SPECIFICATION"));
}

TEST_F(WindowFunctionTest, StreamingWindowFunctionsAreRefused) {
  auto stream = session_->readStream().format("rate").load();
  auto df = stream.select({F::row_number().over(Window::orderBy({"value"}))});
  auto query = df.writeStream().format("memory").queryName("refused").start();
  EXPECT_TRUE(testing::HasErrorClass(query.status(), "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING"))
      << query.status().ToString();
}

}  // namespace
}  // namespace sluice
