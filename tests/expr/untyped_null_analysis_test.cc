// Where Spark rejects an untyped NULL literal at analysis and where it accepts one. Expected
// behaviour from Apache Spark 4.0.1 (ANSI mode on).
#include <arrow/array/concatenate.h>
#include <gtest/gtest.h>

#include "support/session_fixture.h"

namespace sluice {
namespace {

using testing::HasErrorClass;

class UntypedNullAnalysisTest : public testing::SessionTest {
 protected:
  DataFrame Input() { return Frame("a INT, b INT", {"[1, null]", "[2, 3]"}); }

  std::string Column0(const DataFrame& df) {
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return "";
    return arrow::Concatenate((*table)->column(0)->chunks()).ValueOrDie()->ToString();
  }
};

TEST_F(UntypedNullAnalysisTest, CaseWhenRejectsNullCondition) {
  EXPECT_TRUE(HasErrorClass(Input().selectExpr({"CASE WHEN NULL THEN 1 ELSE 2 END"}).schema()
                                .status(),
                            "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"));
  auto second = Input().selectExpr({"CASE WHEN true THEN 1 WHEN NULL THEN 2 END"}).schema();
  ASSERT_TRUE(HasErrorClass(second.status(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"));
  EXPECT_NE(second.status().message().find("The second parameter requires the \"BOOLEAN\" type, "
                                           "however \"NULL\" has the type \"VOID\""),
            std::string::npos)
      << second.status().ToString();
}

TEST_F(UntypedNullAnalysisTest, TypedNullConditionsAndOtherNullUsesStillWork) {
  EXPECT_EQ(Column0(Input().selectExpr({"CASE WHEN CAST(NULL AS BOOLEAN) THEN 1 ELSE 2 END"})),
            Array("int", "[2, 2]")->ToString());
  EXPECT_EQ(Column0(Input().selectExpr({"if(NULL, 1, 2)"})), Array("int", "[2, 2]")->ToString());
  EXPECT_EQ(Column0(Input().selectExpr({"NULL AND true"})),
            Array("boolean", "[null, null]")->ToString());
  EXPECT_EQ(Column0(Input().selectExpr({"CASE a WHEN NULL THEN 1 ELSE 2 END"})),
            Array("int", "[2, 2]")->ToString());
}

TEST_F(UntypedNullAnalysisTest, ArrayContainsRejectsNullTypedArguments) {
  EXPECT_TRUE(HasErrorClass(Input().selectExpr({"array_contains(array(a, b), NULL)"}).schema()
                                .status(),
                            "DATATYPE_MISMATCH.NULL_TYPE"));
  EXPECT_TRUE(HasErrorClass(Input().selectExpr({"array_contains(NULL, 1)"}).schema().status(),
                            "DATATYPE_MISMATCH.NULL_TYPE"));
  EXPECT_EQ(Column0(Input().selectExpr({"array_contains(array(a, b), CAST(NULL AS INT))"})),
            Array("boolean", "[null, null]")->ToString());
}

}  // namespace
}  // namespace sluice
