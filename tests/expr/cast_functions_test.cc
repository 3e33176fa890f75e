// Spark's cast-named functions (double(x), int(x), ...). Expected values and column names
// computed by Apache Spark 4.0.1 (ANSI mode on).
#include <arrow/array/concatenate.h>
#include <gtest/gtest.h>

#include "support/session_fixture.h"

namespace sluice {
namespace {

using testing::HasErrorClass;

class CastFunctionsTest : public testing::SessionTest {
 protected:
  // Column `index` of `df`'s result, printed as Arrow prints values.
  std::string Column(const DataFrame& df, int index) {
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return "";
    auto array = arrow::Concatenate((*table)->column(index)->chunks()).ValueOrDie();
    return array->ToString();
  }
  std::string Values(const std::string& type, const std::string& json) {
    return Array(type, json)->ToString();
  }
};

TEST_F(CastFunctionsTest, NamedAfterTheirArgument) {
  auto df = Frame("a STRING", {R"(["1"])"})
                .selectExpr({"double(a)", "int(a) + 1", "abs(double(a))", "double('NaN')"});
  EXPECT_EQ(df.columns(), (std::vector<std::string>{"a", "(a + 1)", "abs(a)", "NaN"}));
  auto schema = df.schema().ValueOrDie();
  EXPECT_TRUE(schema->field(0)->type()->Equals(arrow::float64()));
  EXPECT_TRUE(schema->field(1)->type()->Equals(arrow::int32()));
  EXPECT_EQ(Column(df, 0), Values("double", "[1.0]"));
  EXPECT_EQ(Column(df, 1), Values("int", "[2]"));
}

TEST_F(CastFunctionsTest, BehaveAsCast) {
  auto df = Frame("a INT", {"[1]"}).selectExpr(
      {"bigint(1.5)", "smallint(3)", "tinyint(2)", "float(1)", "string(1)", "boolean('true')",
       "date('2020-01-01')", "timestamp('2020-01-01')", "binary('ab')", "decimal('12.345')"});
  auto schema = df.schema().ValueOrDie();
  std::vector<std::string> types;
  for (const auto& field : schema->fields()) types.push_back(field->type()->ToString());
  EXPECT_EQ(types, (std::vector<std::string>{"int64", "int16", "int8", "float", "string", "bool",
                                             "date32[day]", "timestamp[us, tz=UTC]", "binary",
                                             "decimal128(10, 0)"}));
  EXPECT_EQ(Column(df, 0), Values("bigint", "[1]"));
  EXPECT_EQ(Column(df, 3), Values("float", "[1.0]"));
  EXPECT_EQ(Column(df, 4), Values("string", R"(["1"])"));
  EXPECT_EQ(Column(df, 6), Values("date", "[18262]"));  // 2020-01-01
  EXPECT_EQ(Column(df, 8), Values("binary", R"(["ab"])"));
  EXPECT_EQ(Column(df, 9), Values("decimal(10,0)", R"(["12"])"));
}

TEST_F(CastFunctionsTest, FilterOnNaNLiteral) {
  auto df = Frame("id INT, s STRING", {"[1, 5, 7]", R"(["9.5", "NaN", "-Infinity"])"})
                .selectExpr({"id", "CAST(s AS DOUBLE) AS score"})
                .filter(std::string("score = double('NaN')"));
  EXPECT_EQ(Column(df, 0), Values("int", "[5]"));
}

TEST_F(CastFunctionsTest, ErrorsAreCastErrors) {
  auto bad = Frame("a INT", {"[1]"}).selectExpr({"int('x')"});
  EXPECT_TRUE(HasErrorClass(bad.collect().status(), "CAST_INVALID_INPUT"));
  auto arity = Frame("a INT", {"[1]"}).selectExpr({"double(1, 2)"});
  EXPECT_TRUE(HasErrorClass(arity.collect().status(), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION"));
}

}  // namespace
}  // namespace sluice
