#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using testing::HasErrorClass;

class DataFrameTest : public testing::SessionTest {
 protected:
  DataFrame People() {
    return Frame("name STRING, age INT, city STRING",
                 {R"(["ann", "bob", "cy"])", "[31, null, 17]", R"(["oslo", "rome", null])"});
  }
};

TEST_F(DataFrameTest, NamesOutputsAsSpark) {
  auto df = People().select({F::col("age") + 1, F::col("name"), F::upper(F::col("city")),
                             (F::col("age") * 2).alias("twice"), F::col("age") != 3,
                             F::col("age").cast("bigint"), F::lit(5), F::lit("x")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(),
            (std::vector<std::string>{"(age + 1)", "name", "upper(city)", "twice",
                                      "(NOT (age = 3))", "age", "5", "x"}));
}

TEST_F(DataFrameTest, UnknownColumnSuggestsNearestNames) {
  auto df = People().select({F::col("agee")});
  ASSERT_TRUE(HasErrorClass(df.status(), "UNRESOLVED_COLUMN.WITH_SUGGESTION"));
  EXPECT_NE(df.status().message().find("Did you mean one of the following? [`age`, `name`"),
            std::string::npos)
      << df.status().message();
  // The error is carried through later transformations and reported by actions.
  EXPECT_TRUE(HasErrorClass(df.filter(F::col("x") > 1).count().status(),
                            "UNRESOLVED_COLUMN.WITH_SUGGESTION"));
}

TEST_F(DataFrameTest, UnknownFunctionIsUnresolvedRoutine) {
  auto df = People().select({F::call_function("no_such_function", {F::col("age")})});
  EXPECT_TRUE(HasErrorClass(df.status(), "UNRESOLVED_ROUTINE"));
}

TEST_F(DataFrameTest, FilterNeedsBoolean) {
  EXPECT_TRUE(HasErrorClass(People().filter(F::col("age")).status(),
                            "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN"));
}

TEST_F(DataFrameTest, WithColumnReplacesOrAppends) {
  auto df = People().withColumn("age", F::col("age") + 1).withColumn("one", F::lit(1));
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"name", "age", "city", "one"}));
  auto table = df.collect().ValueOrDie();
  EXPECT_EQ(table->column(1)->GetScalar(0).ValueOrDie()->ToString(), "32");
}

TEST_F(DataFrameTest, RenameDropAndToDF) {
  auto df = People().withColumnRenamed("city", "town").drop({"age", "missing"});
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"name", "town"}));
  EXPECT_EQ(df.toDF({"a", "b"}).columns(), (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(df.toDF({"a"}).ok());
}

TEST_F(DataFrameTest, FilterDropsFalseAndNullRows) {
  EXPECT_EQ(People().filter(F::col("age") > 18).count().ValueOrDie(), 1);
  EXPECT_EQ(People().filter(!(F::col("age") > 18)).count().ValueOrDie(), 1);
}

TEST_F(DataFrameTest, QualifiedColumnsAndStars) {
  auto people = People().alias("p");
  auto df = people.select({F::col("p.name"), F::col("p.*")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"name", "name", "age", "city"}));
  EXPECT_TRUE(HasErrorClass(people.select({F::col("q.name")}).status(),
                            "UNRESOLVED_COLUMN.WITH_SUGGESTION"));
}

TEST_F(DataFrameTest, DataFrameColumnKeepsItsIdentity) {
  auto people = People();
  auto renamed = people.select({people["name"], people["age"]});
  ASSERT_TRUE(renamed.ok());
  auto older = renamed.filter(people["age"] > 20);
  ASSERT_TRUE(older.ok()) << older.status().ToString();
  EXPECT_EQ(older.count().ValueOrDie(), 1);
  EXPECT_TRUE(HasErrorClass(people.select({people["nope"]}).status(),
                            "UNRESOLVED_COLUMN.WITH_SUGGESTION"));
}

TEST_F(DataFrameTest, StructFieldsResolveByPath) {
  auto table = Table("s STRUCT<x: INT, y: STRING>",
                     {R"([{"x": 1, "y": "a"}, null, {"x": null, "y": "c"}])"});
  auto df = spark_->createDataFrame(table).select({F::col("s.x"), F::col("s.*")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"x", "x", "y"}));
  auto rows = df.collect().ValueOrDie();
  EXPECT_EQ(rows->column(0)->null_count(), 2);
  EXPECT_TRUE(HasErrorClass(spark_->createDataFrame(table).select({F::col("s.z")}).status(),
                            "FIELD_NOT_FOUND"));
}

TEST_F(DataFrameTest, InAndBetweenFollowThreeValuedLogic) {
  auto df = Frame("a INT", {"[1, 2, 3, null]"})
                .select({F::col("a").isin({1, 5}),
                         F::col("a").isin({F::lit(1), F::lit_null("int")}),
                         F::col("a").between(2, 3)});
  auto rows = df.collect().ValueOrDie()->CombineChunks().ValueOrDie();
  EXPECT_TRUE(rows->column(0)->chunk(0)->Equals(*Array("boolean", "[true, false, false, null]")));
  EXPECT_TRUE(rows->column(1)->chunk(0)->Equals(*Array("boolean", "[true, null, null, null]")));
  EXPECT_TRUE(rows->column(2)->chunk(0)->Equals(*Array("boolean", "[false, true, true, null]")));
}

}  // namespace
}  // namespace sluice
