// Spark's ordering of nested values (value_ordering.h), as min and max of structs and arrays
// use it: the golden aggregate cases check it against Spark end to end; these check the
// ordering alone, on arrays with offsets and on two different arrays.
#include <cmath>
#include <memory>
#include <string>

#include <arrow/builder.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include "sluice/expr/value_ordering.h"

namespace sluice::expr {
namespace {

std::shared_ptr<arrow::Array> Array(const std::shared_ptr<arrow::DataType>& type,
                                    const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

int Sign(int order) { return order < 0 ? -1 : (order > 0 ? 1 : 0); }

TEST(ValueOrderingTest, StructsCompareFieldByFieldWithANullFieldFirst) {
  auto type = arrow::struct_({arrow::field("n", arrow::int64()), arrow::field("s", arrow::utf8())});
  auto values = Array(type, R"([{"n": 2, "s": "b"}, {"n": 2, "s": "a"}, {"n": 1, "s": "z"},
                                {"n": null, "s": "z"}, {"n": 2, "s": null}, {"n": 2, "s": "b"}])");
  const ValueOrdering ordering(*values, *values);
  EXPECT_EQ(Sign(ordering.Compare(0, 1)), 1);   // the second field decides
  EXPECT_EQ(Sign(ordering.Compare(2, 0)), -1);  // the first field decides
  EXPECT_EQ(Sign(ordering.Compare(3, 2)), -1);  // a null field comes first
  EXPECT_EQ(Sign(ordering.Compare(4, 1)), -1);
  EXPECT_EQ(ordering.Compare(0, 5), 0);
}

TEST(ValueOrderingTest, ReadsEachArrayAtItsOwnOffset) {
  auto type = arrow::struct_({arrow::field("n", arrow::int32()),
                              arrow::field("l", arrow::list(arrow::float64()))});
  auto whole = Array(type, R"([{"n": 9, "l": [9]}, {"n": 1, "l": [1.0, 7.0]},
                               {"n": 1, "l": [1.0, 5.0]}, {"n": 1, "l": [1.0]}])");
  auto sliced = whole->Slice(1);  // rows 1..3 of whole
  auto other = Array(type, R"([{"n": 1, "l": [1.0, 5.0]}, {"n": 1, "l": [-0.0]}])");
  const ValueOrdering ordering(*sliced, *other);
  EXPECT_EQ(Sign(ordering.Compare(0, 0)), 1);
  EXPECT_EQ(ordering.Compare(1, 0), 0);
  EXPECT_EQ(Sign(ordering.Compare(2, 0)), -1);  // a prefix comes first
  EXPECT_EQ(Sign(ordering.Compare(2, 1)), 1);   // 1.0 > -0.0
  const ValueOrdering reverse(*other, *sliced);
  EXPECT_EQ(Sign(reverse.Compare(0, 0)), -1);
  EXPECT_EQ(Sign(reverse.Compare(1, 2)), -1);
}

TEST(ValueOrderingTest, ListsWithNullElementsAndLengths) {
  auto type = arrow::list(arrow::int64());
  auto values = Array(type, R"([[1, null], [1, 0], [1], [], [1, null]])");
  const ValueOrdering ordering(*values, *values);
  EXPECT_EQ(Sign(ordering.Compare(0, 1)), -1);  // a null element comes first
  EXPECT_EQ(Sign(ordering.Compare(2, 0)), -1);
  EXPECT_EQ(Sign(ordering.Compare(3, 2)), -1);
  EXPECT_EQ(ordering.Compare(0, 4), 0);
}

TEST(ValueOrderingTest, NaNAboveEveryOtherDoubleAndNegativeZeroEqualToZero) {
  arrow::DoubleBuilder builder;
  ASSERT_TRUE(builder.AppendValues({std::nan(""), 1e308, -0.0, 0.0}).ok());
  auto values = builder.Finish().ValueOrDie();
  const ValueOrdering ordering(*values, *values);
  EXPECT_EQ(Sign(ordering.Compare(0, 1)), 1);
  EXPECT_EQ(ordering.Compare(0, 0), 0);
  EXPECT_EQ(ordering.Compare(2, 3), 0);
}

TEST(ValueOrderingTest, MapsAreNotOrderable) {
  EXPECT_TRUE(IsOrderable(*arrow::struct_({arrow::field("l", arrow::list(arrow::utf8()))})));
  EXPECT_FALSE(IsOrderable(*arrow::struct_(
      {arrow::field("m", arrow::map(arrow::utf8(), arrow::int64()))})));
}

}  // namespace
}  // namespace sluice::expr
