// Spark evaluates the branches of CASE, the right side of AND/OR and later coalesce arguments
// only on the rows that need them, so ANSI errors in unselected rows never surface.
#include <arrow/array.h>
#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using testing::HasErrorClass;

class ConditionalEvaluationTest : public testing::SessionTest {
 protected:
  DataFrame Input() { return Frame("a INT, b INT", {"[10, 7, 3, null]", "[2, 0, 3, 1]"}); }

  std::vector<std::string> Column0(const DataFrame& df) {
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    std::vector<std::string> values;
    if (!table.ok()) return values;
    auto column = (*table)->column(0);
    for (int64_t i = 0; i < column->length(); ++i) {
      auto scalar = column->GetScalar(i).ValueOrDie();
      values.push_back(scalar->is_valid ? scalar->ToString() : "null");
    }
    return values;
  }
};

TEST_F(ConditionalEvaluationTest, DivisionByZeroFailsUnderAnsi) {
  EXPECT_TRUE(HasErrorClass(Input().select({F::col("a") / F::col("b")}).collect().status(),
                            "DIVIDE_BY_ZERO"));
}

TEST_F(ConditionalEvaluationTest, CaseWhenSkipsUnselectedRows) {
  auto df = Input().select(
      {F::when(F::col("b") != 0, F::col("a") / F::col("b")).otherwise(F::lit(-1.0))});
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"5", "-1", "1", "null"}));
}

// Only the columns a guarded expression reads are cut down to its rows; the columns around
// them, unread, keep their places.
TEST_F(ConditionalEvaluationTest, AGuardedExpressionReadsItsColumnsAmongUnreadOnes) {
  auto df = Frame("s STRING, a INT, t STRING, b INT",
                  {R"(["w", "x", "y", "z"])", "[10, 7, 3, null]", R"(["p", "q", "r", "s"])",
                   "[2, 0, 3, 1]"})
                .select({F::when(F::col("b") != 0,
                                 F::concat({F::col("t"),
                                            (F::col("a") / F::col("b")).cast("string")}))
                             .otherwise(F::col("s"))});
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"p5.0", "x", "r1.0", "null"}));
}

TEST_F(ConditionalEvaluationTest, AndSkipsRowsDecidedByTheLeftSide) {
  auto df = Input().filter(F::col("b") != 0 && (F::col("a") / F::col("b")) > 1.5);
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"10"}));
}

TEST_F(ConditionalEvaluationTest, OrSkipsRowsDecidedByTheLeftSide) {
  auto df = Input().filter(F::col("b") == 0 || (F::col("a") / F::col("b")) > 1.5);
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"10", "7"}));
}

TEST_F(ConditionalEvaluationTest, CoalesceEvaluatesLaterArgumentsOnlyWhereNeeded) {
  auto df = Input().select({F::coalesce({F::col("a"), F::col("b") / F::lit(0)})});
  EXPECT_TRUE(HasErrorClass(df.collect().status(), "DIVIDE_BY_ZERO"));
  auto safe = Frame("a INT, b INT", {"[1, 2]", "[0, 0]"})
                  .select({F::coalesce({F::col("a"), F::col("a") / F::col("b")})});
  EXPECT_EQ(Column0(safe), (std::vector<std::string>{"1", "2"}));
}

// A guarded expression written twice is not computed once for every row in advance.
TEST_F(ConditionalEvaluationTest, ARepeatedGuardedDivisionStillSkipsUnselectedRows) {
  auto guarded = [] { return F::when(F::col("b") != 0, F::col("a") / F::col("b")); };
  auto df = Input().select({guarded(), guarded() + F::lit(1)});
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"5", "null", "1", "null"}));
  auto filtered = Input().filter(F::col("b") != 0 && (F::col("a") / F::col("b")) > 1.5 &&
                                 (F::col("a") / F::col("b")) < 6);
  EXPECT_EQ(Column0(filtered), (std::vector<std::string>{"10"}));
}

TEST_F(ConditionalEvaluationTest, RepeatedSubexpressionsGiveEachColumnItsValue) {
  auto df = Frame("s STRING, n INT", {R"(["a/b/c", null, "d/e"])", "[1, 2, 1]"})
                .where(F::expr("s IS NOT NULL AND size(split(s, '/')) >= 1 AND "
                               "size(split(s, '/')) < 5"))
                .select({F::expr("split(s, '/')[n]"), F::expr("split(s, '/')[0]"),
                         F::expr("concat(split(s, '/')[0], split(s, '/')[n - 1])")});
  auto table = df.collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  std::vector<std::string> rows;
  for (int64_t r = 0; r < (*table)->num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < 3; ++c) {
      row += (c ? "," : "") + (*table)->column(c)->GetScalar(r).ValueOrDie()->ToString();
    }
    rows.push_back(row);
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"b,a,aa", "e,d,dd"}));
}

TEST_F(ConditionalEvaluationTest, IntegerOverflowFailsUnderAnsi) {
  auto df = Frame("a INT", {"[2147483647]"}).select({F::col("a") + 1});
  EXPECT_TRUE(HasErrorClass(df.collect().status(), "ARITHMETIC_OVERFLOW"));
}

TEST_F(ConditionalEvaluationTest, AnsiOffReturnsNullForDivisionByZero) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.ansi.enabled", "false").ok());
  auto df = Input().select({F::col("a") / F::col("b")});
  EXPECT_EQ(Column0(df), (std::vector<std::string>{"5", "null", "1", "null"}));
}

}  // namespace
}  // namespace sluice
