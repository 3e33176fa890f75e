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

// The expected names below are what Spark 4.0.1 gives for the same selectExpr calls.
TEST_F(DataFrameTest, NamesLiteralsAsSpark) {
  auto df = Frame("a INT", {"[1]"}).selectExpr(
      {"1e-5", "1e7", "9999999e0", "-0.0e0", "1.5F", "1e308 * 10", "100L", "1.50BD", "0.0001",
       "0.0000001", "-0.00000012", "-1.0", "X'0A'", "DATE'2024-02-29'",
       "TIMESTAMP_NTZ'2024-03-10 02:30:00.5'"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(),
            (std::vector<std::string>{"1.0E-5", "1.0E7", "9999999.0", "-0.0", "1.5",
                                      "(1.0E308 * 10)", "100", "1.50", "0.0001", "1E-7",
                                      "-1.2E-7", "-1.0", "X'0A'", "DATE '2024-02-29'",
                                      "TIMESTAMP_NTZ '2024-03-10 02:30:00.5'"}));
}

TEST_F(DataFrameTest, NamesTimestampLiteralsInSessionTimeZone) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.session.timeZone", "America/Los_Angeles").ok());
  auto df = Frame("a INT", {"[1]"}).selectExpr(
      {"TIMESTAMP'2024-03-10 02:30:00'", "TIMESTAMP'2024-01-01 00:00:00+05:30'",
       "TIMESTAMP'2024-03-10 02:30:00.100'", "cast('2024-03-10 02:30:00' AS TIMESTAMP)"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"TIMESTAMP '2024-03-10 03:30:00'",
                                                    "TIMESTAMP '2023-12-31 10:30:00'",
                                                    "TIMESTAMP '2024-03-10 03:30:00.1'",
                                                    "CAST(2024-03-10 02:30:00 AS TIMESTAMP)"}));
}

TEST_F(DataFrameTest, NamesCastsAsSpark) {
  auto df = Frame("a INT, st STRUCT<f: INT>", {"[1]", R"([{"f": 2}])"})
                .selectExpr({"cast(cast(a AS BIGINT) AS TINYINT)", "try_cast(a AS BIGINT)",
                             "cast(a + 1 AS BIGINT)", "cast(cast(a + 1 AS BIGINT) AS INT)",
                             "cast(st.f AS BIGINT)", "cast(cast(st.f AS BIGINT) AS INT)",
                             "size(cast(NULL AS ARRAY<INT>))", "cast(NULL AS MAP<STRING, INT>)",
                             "cast(NULL AS INT)", "abs(cast(NULL AS INT))"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(),
            (std::vector<std::string>{"a", "a", "CAST((a + 1) AS BIGINT)",
                                      "CAST(CAST((a + 1) AS BIGINT) AS INT)",
                                      "CAST(st.f AS BIGINT)", "CAST(st.f AS BIGINT)", "size(NULL)",
                                      "NULL", "CAST(NULL AS INT)", "abs(CAST(NULL AS INT))"}));
}

TEST_F(DataFrameTest, NamesFieldAccessAndOperatorsAsSpark) {
  auto df = Frame("a INT, j STRING", {"[1]", R"(["{\"a\": 1}"])"})
                .selectExpr({"named_struct('x', a).x", "from_json(j, 'a INT').a",
                             "from_json(j, 'a INT').a + 1", "from_json(j, 'MAP<STRING, INT>')",
                             "to_json(named_struct('a', a), map('x', 'y'))", "+a", "positive(a)",
                             "-a", "a BETWEEN 1 AND 2.5", "a NOT BETWEEN 1 AND 2"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(),
            (std::vector<std::string>{"named_struct(x, a).x", "from_json(j).a",
                                      "(from_json(j).a + 1)", "entries",
                                      "to_json(named_struct(a, a))", "(+ a)", "(+ a)", "(- a)",
                                      "between(a, 1, 2.5)", "(NOT between(a, 1, 2))"}));
}

// Spark rewrites comparisons of an integral value with a decimal literal: the literal is rounded
// to a bigint, and one beyond the bigint range decides the comparison (even for a null value).
TEST_F(DataFrameTest, ComparesIntegralsWithDecimalLiteralsAsSpark) {
  auto df = Frame("a INT", {"[1, 2, null]"})
                .selectExpr({"a < 1.5", "a <= 1.5", "a > 1.5", "a >= 1.5", "1.5 > a", "a = 1.5",
                             "a > -1.5", "a < 100000000000000000000000000000.5",
                             "100000000000000000000000000000.5 < a"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  EXPECT_EQ(df.columns(),
            (std::vector<std::string>{"(a < 2)", "(a <= 1)", "(a > 1)", "(a >= 2)", "(2 > a)",
                                      "(a = 1.5)", "(a > -2)", "true", "false"}));
  auto rows = df.collect().ValueOrDie()->CombineChunks().ValueOrDie();
  const char* expected[] = {"[true, false, null]", "[true, false, null]", "[false, true, null]",
                            "[false, true, null]", "[true, false, null]", "[false, false, null]",
                            "[true, true, null]",  "[true, true, true]",  "[false, false, false]"};
  for (int i = 0; i < 9; ++i) {
    auto column = rows->column(i)->chunk(0);
    ASSERT_TRUE(column->Equals(*Array("boolean", expected[i])))
        << i << ": " << column->ToString();
  }
}

}  // namespace
}  // namespace sluice
