// Conditionally evaluated expressions (CASE branches, IF, coalesce) of nested types: their
// values, computed on the selected rows only, are scattered back to the full batch. Expected
// values from Apache Spark 4.0.1 (ANSI mode on).
#include <arrow/array/concatenate.h>
#include <gtest/gtest.h>

#include "support/session_fixture.h"

namespace sluice {
namespace {

class SelectedEvaluationNestedTest : public testing::SessionTest {
 protected:
  std::string Column(const DataFrame& df, int index) {
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return "";
    return arrow::Concatenate((*table)->column(index)->chunks()).ValueOrDie()->ToString();
  }
};

TEST_F(SelectedEvaluationNestedTest, ArrayBranchOfCaseWhen) {
  auto df = Frame("a INT, b INT", {"[10, 7, 3, null]", "[2, 0, 3, 1]"})
                .selectExpr({"CASE WHEN b != 0 THEN array(a DIV b) END"});
  EXPECT_EQ(Column(df, 0), Array("array<bigint>", "[[5], null, [1], [null]]")->ToString());
}

TEST_F(SelectedEvaluationNestedTest, StructAndMapBranches) {
  auto df = Frame("a INT, b INT", {"[10, 7]", "[0, 7]"})
                .selectExpr({"if(b = 0, NULL, named_struct('q', a DIV b))",
                             "if(b = 0, NULL, map('q', a DIV b))"});
  EXPECT_EQ(Column(df, 0), Array("struct<q:bigint>", R"([null, {"q": 1}])")->ToString());
  EXPECT_EQ(Column(df, 1), Array("map<string,bigint>", R"([null, [["q", 1]]])")->ToString());
}

TEST_F(SelectedEvaluationNestedTest, ExplodeOfEmptyAndNullArrays) {
  auto df = Frame("i INT", {"[1, 2]"})
                .selectExpr({"i", "explode(if(i = 1, array(), cast(NULL AS ARRAY<INT>))) AS v"});
  auto table = df.collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 0);
}

}  // namespace
}  // namespace sluice
