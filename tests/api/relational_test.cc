// Relational operators through the DataFrame API. Every expected row and name below was
// produced by Spark 4.0.1 (local[1]) running the same query on the same data.
#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/common/errors.h"
#include "sluice/plan/required_columns.h"
#include "relational_test_support.h"

namespace sluice {
namespace {

namespace F = functions;
using ::testing::ElementsAre;
using testing::Doubles;
using testing::Ints;
using testing::Longs;
using testing::MakeTable;
using testing::Rows;
using testing::Strings;

class RelationalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    session_ = SparkSession::builder().getOrCreate().ValueOrDie();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    t_ = session_->createDataFrame(MakeTable({
        {"k", Strings({"x", "y", "x", std::nullopt, "y", "x"})},
        {"a", Ints({1, 2, std::nullopt, 4, 5, 3})},
        {"d", Doubles({1.5, nan, 2.5, std::nullopt, -1.0, std::nullopt})},
    }));
    left_ = session_->createDataFrame(MakeTable({
        {"id", Ints({1, 2, 3, std::nullopt})},
        {"lv", Strings({"a", "b", "c", "n"})},
    }));
    right_ = session_->createDataFrame(MakeTable({
        {"id", Ints({1, 1, 3, 4, std::nullopt})},
        {"rv", Strings({"x", "y", "z", "w", "m"})},
    }));
  }

  static std::optional<std::string> ErrorClass(const DataFrame& df) {
    auto status = df.ok() ? df.collect().status() : df.status();
    return ErrorClassOf(status);
  }

  std::shared_ptr<SparkSession> session_;
  DataFrame t_{nullptr, arrow::Status::OK()};
  DataFrame left_{nullptr, arrow::Status::OK()};
  DataFrame right_{nullptr, arrow::Status::OK()};
};

TEST_F(RelationalTest, GroupByAggregates) {
  auto df = t_.groupBy({"k"}).agg({F::count("*"), F::count("a"), F::sum("a"), F::avg("a"),
                                   F::min("d"), F::max("d"), F::first("a"), F::last("a"),
                                   F::collect_list("a"), F::first("d", true)});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_THAT(df.columns(),
              ElementsAre("k", "count(1)", "count(a)", "sum(a)", "avg(a)", "min(d)", "max(d)",
                          "first(a)", "last(a)", "collect_list(a)", "first(d)"));
  EXPECT_THAT(Rows(df), ElementsAre("null|1|1|4|4|null|null|4|4|[4]|null",
                                    "x|3|2|4|2|1.5|2.5|1|3|[1,3]|1.5",
                                    "y|2|2|7|3.5|-1|nan|2|5|[2,5]|nan"));
}

TEST_F(RelationalTest, GlobalAggregateOfExpressions) {
  auto df = t_.select({F::sum("a") + 1, F::count("*") * 2});
  EXPECT_THAT(df.columns(), ElementsAre("(sum(a) + 1)", "(count(1) * 2)"));
  EXPECT_THAT(Rows(df), ElementsAre("16|12"));
}

TEST_F(RelationalTest, EmptyInput) {
  auto empty = t_.filter(F::col("a") > 100);
  auto df = empty.agg({F::sum("a"), F::count("*"), F::avg("a"), F::min("k")});
  EXPECT_THAT(df.columns(), ElementsAre("sum(a)", "count(1)", "avg(a)", "min(k)"));
  EXPECT_THAT(Rows(df), ElementsAre("null|0|null|null"));
  EXPECT_TRUE(Rows(empty.groupBy({"k"}).count()).empty());
}

TEST_F(RelationalTest, DistinctCounts) {
  auto df = t_.agg({F::countDistinct({"k"}), F::countDistinct({"k", "a"}),
                    F::approx_count_distinct("a"), F::count_if(F::col("a") > 1)});
  EXPECT_THAT(df.columns(), ElementsAre("count(DISTINCT k)", "count(DISTINCT k, a)",
                                        "approx_count_distinct(a)", "count_if((a > 1))"));
  EXPECT_THAT(Rows(df), ElementsAre("2|4|5|4"));
}

TEST_F(RelationalTest, Moments) {
  auto df = t_.agg({F::stddev("a"), F::stddev_pop("a"), F::variance("a"), F::var_pop("a"),
                    F::stddev("d")});
  EXPECT_THAT(df.columns(), ElementsAre("stddev(a)", "stddev_pop(a)", "variance(a)",
                                        "var_pop(a)", "stddev(d)"));
  EXPECT_THAT(Rows(df), ElementsAre("1.5811388300841898|1.4142135623730951|2.5|2|nan"));
}

TEST_F(RelationalTest, GroupedShorthands) {
  auto counted = t_.groupBy({"k"}).count();
  EXPECT_THAT(counted.columns(), ElementsAre("k", "count"));
  EXPECT_THAT(Rows(counted), ElementsAre("null|1", "x|3", "y|2"));
  auto summed = t_.groupBy({"k"}).sum({"a"});
  EXPECT_THAT(summed.columns(), ElementsAre("k", "sum(a)"));
  EXPECT_THAT(Rows(summed), ElementsAre("null|4", "x|4", "y|7"));
}

TEST_F(RelationalTest, KeysAndExpressionsInAggregateList) {
  auto df = t_.groupBy({"k"}).agg({(F::sum("a") * 2).alias("s2"), F::col("k")});
  EXPECT_THAT(df.columns(), ElementsAre("k", "s2", "k"));
  EXPECT_THAT(Rows(df), ElementsAre("null|8|null", "x|8|x", "y|14|y"));
}

TEST_F(RelationalTest, MissingAggregation) {
  EXPECT_EQ(ErrorClass(t_.groupBy({"k"}).agg({F::col("a")})), "MISSING_AGGREGATION");
  EXPECT_EQ(ErrorClass(t_.agg({F::col("a"), F::sum("a")})), "MISSING_GROUP_BY");
}

TEST_F(RelationalTest, DistinctAndDropDuplicates) {
  EXPECT_THAT(Rows(t_.select({"k"}).distinct()), ElementsAre("null", "x", "y"));
  auto df = t_.dropDuplicates({"k"});
  EXPECT_THAT(df.columns(), ElementsAre("k", "a", "d"));
  EXPECT_THAT(Rows(df), ElementsAre("null|4|null", "x|1|1.5", "y|2|nan"));
}

TEST_F(RelationalTest, OrderBy) {
  EXPECT_THAT(Rows(t_.orderBy({F::col("d").desc(), "a"}), true),
              ElementsAre("y|2|nan", "x|null|2.5", "x|1|1.5", "y|5|-1", "x|3|null",
                          "null|4|null"));
  EXPECT_THAT(Rows(t_.orderBy({"d", F::col("k").desc_nulls_first()}), true),
              ElementsAre("null|4|null", "x|3|null", "y|5|-1", "x|1|1.5", "x|null|2.5",
                          "y|2|nan"));
  EXPECT_THAT(Rows(t_.orderBy({F::col("k").asc_nulls_last(), F::col("a").desc()}), true),
              ElementsAre("x|3|null", "x|1|1.5", "x|null|2.5", "y|5|-1", "y|2|nan",
                          "null|4|null"));
}

TEST_F(RelationalTest, Limit) {
  EXPECT_THAT(Rows(t_.limit(2), true), ElementsAre("x|1|1.5", "y|2|nan"));
  EXPECT_TRUE(Rows(t_.limit(0)).empty());
  EXPECT_EQ(ErrorClass(t_.limit(-1)), "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE");
}

TEST_F(RelationalTest, Union) {
  auto u = session_->createDataFrame(
      MakeTable({{"x", Longs({10})}, {"y", Doubles({2.5})}}));
  auto df = t_.select({"a", "d"}).union_(u);
  EXPECT_THAT(df.columns(), ElementsAre("a", "d"));
  EXPECT_EQ(df.schema().ValueOrDie()->field(0)->type()->id(), arrow::Type::INT64);
  EXPECT_THAT(Rows(df), ElementsAre("10|2.5", "1|1.5", "2|nan", "3|null", "4|null", "5|-1",
                                    "null|2.5"));
  auto by_name = t_.select({"a", "d"}).unionByName(u.toDF({"d", "a"}));
  EXPECT_THAT(Rows(by_name), ElementsAre("1|1.5", "2.5|10", "2|nan", "3|null", "4|null",
                                         "5|-1", "null|2.5"));
  EXPECT_EQ(ErrorClass(t_.union_(u)), "NUM_COLUMNS_MISMATCH");
}

// A union passes what is read above it to each child, by position: here only d, so the
// children's filters copy a and d, and their scans leave k alone.
TEST_F(RelationalTest, AUnionPassesWhatIsReadAboveToEachChild) {
  auto low = t_.where(F::col("a") < 3);
  auto high = t_.where(F::col("a") >= 4);
  auto both = low.union_(high).select({"d"});
  EXPECT_THAT(Rows(both), ElementsAre("-1", "1.5", "nan", "null"));
  const plan::LogicalPlan& project = *both.plan();
  const plan::LogicalPlan& union_node = *project.children()[0];
  ASSERT_EQ(union_node.kind(), plan::PlanKind::kUnion);
  const plan::ColumnUses above =
      plan::RequiredOfChildren(project, plan::AllColumns(project))[0];
  for (const plan::ColumnUses& child : plan::RequiredOfChildren(union_node, above)) {
    EXPECT_THAT(plan::ReadFlags(child), ElementsAre(false, false, true));
  }
}

TEST_F(RelationalTest, JoinsOnCondition) {
  auto on = left_["id"] == right_["id"];
  EXPECT_THAT(left_.join(right_, on, "inner").columns(), ElementsAre("id", "lv", "id", "rv"));
  EXPECT_THAT(Rows(left_.join(right_, on, "inner")),
              ElementsAre("1|a|1|x", "1|a|1|y", "3|c|3|z"));
  EXPECT_THAT(Rows(left_.join(right_, on, "left")),
              ElementsAre("1|a|1|x", "1|a|1|y", "2|b|null|null", "3|c|3|z",
                          "null|n|null|null"));
  EXPECT_THAT(Rows(left_.join(right_, on, "right")),
              ElementsAre("1|a|1|x", "1|a|1|y", "3|c|3|z", "null|null|4|w",
                          "null|null|null|m"));
  EXPECT_THAT(Rows(left_.join(right_, on, "full")),
              ElementsAre("1|a|1|x", "1|a|1|y", "2|b|null|null", "3|c|3|z", "null|null|4|w",
                          "null|null|null|m", "null|n|null|null"));
  EXPECT_THAT(Rows(left_.join(right_, on, "semi")), ElementsAre("1|a", "3|c"));
  EXPECT_THAT(Rows(left_.join(right_, on, "anti")), ElementsAre("2|b", "null|n"));
}

TEST_F(RelationalTest, JoinsUsingColumns) {
  EXPECT_THAT(left_.join(right_, std::vector<std::string>{"id"}, "inner").columns(),
              ElementsAre("id", "lv", "rv"));
  EXPECT_THAT(Rows(left_.join(right_, std::vector<std::string>{"id"}, "inner")),
              ElementsAre("1|a|x", "1|a|y", "3|c|z"));
  EXPECT_THAT(Rows(left_.join(right_, std::vector<std::string>{"id"}, "right")),
              ElementsAre("1|a|x", "1|a|y", "3|c|z", "4|null|w", "null|null|m"));
  EXPECT_THAT(Rows(left_.join(right_, std::vector<std::string>{"id"}, "full")),
              ElementsAre("1|a|x", "1|a|y", "2|b|null", "3|c|z", "4|null|w", "null|null|m",
                          "null|n|null"));
  EXPECT_THAT(Rows(left_.join(right_, std::vector<std::string>{"id"}, "anti")),
              ElementsAre("2|b", "null|n"));
}

TEST_F(RelationalTest, NonEquiAndResidualJoins) {
  EXPECT_THAT(Rows(left_.crossJoin(right_.select({"rv"})).filter(F::col("lv") == F::lit("a"))),
              ElementsAre("1|a|m", "1|a|w", "1|a|x", "1|a|y", "1|a|z"));
  EXPECT_THAT(
      Rows(left_.join(right_, (left_["id"] < right_["id"]) && (right_["rv"] != F::lit("w")),
                      "left")),
      ElementsAre("1|a|3|z", "2|b|3|z", "3|c|null|null", "null|n|null|null"));
  EXPECT_THAT(
      Rows(left_.join(right_, (left_["id"] == right_["id"]) && (right_["rv"] != F::lit("x")),
                      "full")),
      ElementsAre("1|a|1|y", "2|b|null|null", "3|c|3|z", "null|null|1|x", "null|null|4|w",
                  "null|null|null|m", "null|n|null|null"));
}

TEST_F(RelationalTest, QualifiedColumnsAfterJoin) {
  auto df = left_.alias("l").join(right_.alias("r"), F::col("l.id") == F::col("r.id"))
                .select({"l.lv", "r.rv"});
  EXPECT_THAT(Rows(df), ElementsAre("a|x", "a|y", "c|z"));
}

class GenerateTest : public RelationalTest {
 protected:
  DataFrame Arrays() {
    arrow::ListBuilder builder(arrow::default_memory_pool(),
                               std::make_shared<arrow::Int32Builder>(),
                               arrow::list(arrow::field("element", arrow::int32())));
    auto& values = static_cast<arrow::Int32Builder&>(*builder.value_builder());
    EXPECT_TRUE(builder.Append().ok());
    EXPECT_TRUE(values.AppendValues({1, 2}).ok());
    EXPECT_TRUE(builder.Append().ok());
    EXPECT_TRUE(builder.AppendNull().ok());
    EXPECT_TRUE(builder.Append().ok());
    EXPECT_TRUE(values.AppendNull().ok());
    EXPECT_TRUE(values.Append(5).ok());
    auto arrays = builder.Finish().ValueOrDie();
    return session_->createDataFrame(MakeTable({{"id", Ints({1, 2, 3, 4})}, {"arr", arrays}}));
  }
};

TEST_F(GenerateTest, Explode) {
  auto e = Arrays();
  auto df = e.select({"id", F::explode("arr")});
  EXPECT_THAT(df.columns(), ElementsAre("id", "col"));
  EXPECT_THAT(Rows(df), ElementsAre("1|1", "1|2", "4|5", "4|null"));
  EXPECT_THAT(Rows(e.select({"id", F::explode_outer("arr")})),
              ElementsAre("1|1", "1|2", "2|null", "3|null", "4|5", "4|null"));
  auto pos = e.select({F::call_function("posexplode", {"arr"}), "id"});
  EXPECT_THAT(pos.columns(), ElementsAre("pos", "col", "id"));
  EXPECT_THAT(Rows(pos), ElementsAre("0|1|1", "0|null|4", "1|2|1", "1|5|4"));
  auto aliased = e.select({F::explode("arr").alias("v")});
  EXPECT_THAT(aliased.columns(), ElementsAre("v"));
  EXPECT_THAT(Rows(aliased), ElementsAre("1", "2", "5", "null"));
}

TEST_F(RelationalTest, SumOverflowIsAnsiError) {
  auto big = session_->createDataFrame(
      MakeTable({{"x", Longs({std::numeric_limits<int64_t>::max(), 1})}}));
  EXPECT_EQ(ErrorClass(big.agg({F::sum("x")})), "ARITHMETIC_OVERFLOW");
}

TEST_F(RelationalTest, ApproxCountDistinctMatchesSpark) {
  EXPECT_THAT(Rows(session_->range(300).select(
                  {F::approx_count_distinct(F::col("id").cast("string"))})),
              ElementsAre("296"));
  EXPECT_THAT(Rows(session_->range(100).select(
                  {F::approx_count_distinct(F::col("id").cast("int")),
                   F::approx_count_distinct("id"),
                   F::approx_count_distinct(F::col("id").cast("double"))})),
              ElementsAre("99|103|97"));
}

}  // namespace
}  // namespace sluice
