// Spark's findWiderTypeForTwo on nested types: arrays element-wise, maps key- and value-wise,
// structs field by field. Expected types from Apache Spark 4.0.1 (ANSI mode on).
#include <arrow/array/concatenate.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include "sluice/expr/type_coercion.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"
#include "sluice/types/spark_types.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

using testing::HasErrorClass;

std::shared_ptr<arrow::DataType> Type(const std::string& ddl) {
  return types::ParseDataType(ddl).ValueOrDie();
}

TEST(NestedTypeWideningTest, StructsWidenFieldByField) {
  auto left = arrow::struct_({arrow::field("k", arrow::int32(), false),
                              arrow::field("v", arrow::utf8(), false)});
  auto right = arrow::struct_({arrow::field("K", arrow::int64(), false),
                               arrow::field("v", arrow::utf8(), true)});
  auto common = expr::CommonType(left, right);
  ASSERT_NE(common, nullptr);
  // The left side names the fields; nullability is or-ed.
  EXPECT_TRUE(common->Equals(*arrow::struct_({arrow::field("k", arrow::int64(), false),
                                              arrow::field("v", arrow::utf8(), true)})))
      << common->ToString();
}

TEST(NestedTypeWideningTest, StructsWithOtherNamesOrWidthsHaveNoCommonType) {
  EXPECT_EQ(expr::CommonType(Type("struct<a:int>"), Type("struct<b:int>")), nullptr);
  EXPECT_EQ(expr::CommonType(Type("struct<a:int>"), Type("struct<a:int,b:int>")), nullptr);
  EXPECT_EQ(expr::CommonType(Type("struct<a:int>"), Type("struct<a:binary>")), nullptr);
}

TEST(NestedTypeWideningTest, MapsWidenKeysAndValues) {
  auto common = expr::CommonType(types::MakeMapType(arrow::int32(), arrow::int32(), false),
                                 types::MakeMapType(arrow::int64(), arrow::utf8(), false));
  ASSERT_NE(common, nullptr);
  // A string value meeting an int widens to bigint and may then be null.
  EXPECT_TRUE(common->Equals(*types::MakeMapType(arrow::int64(), arrow::int64(), true)))
      << common->ToString();
  auto same_nullability = expr::CommonType(Type("map<string,int>"), Type("map<string,bigint>"));
  ASSERT_NE(same_nullability, nullptr);
  EXPECT_TRUE(same_nullability->Equals(*Type("map<string,bigint>")));
}

TEST(NestedTypeWideningTest, ArraysKeepSparkElementField) {
  auto common = expr::CommonType(types::MakeArrayType(arrow::null(), false),
                                 types::MakeArrayType(arrow::int32(), false));
  ASSERT_NE(common, nullptr);
  EXPECT_TRUE(common->Equals(*types::MakeArrayType(arrow::int32(), false)))
      << common->ToString();
  auto nested = expr::CommonType(Type("array<struct<k:int>>"), Type("array<struct<K:bigint>>"));
  ASSERT_NE(nested, nullptr);
  EXPECT_TRUE(nested->Equals(*Type("array<struct<k:bigint>>"))) << nested->ToString();
}

class NestedTypeWideningQueryTest : public testing::SessionTest {};

TEST_F(NestedTypeWideningQueryTest, ArrayOfStructsWithDifferentFieldTypes) {
  auto df = Frame("a INT, b BIGINT, s STRING", {"[1]", "[2]", R"(["x"])"})
                .selectExpr({"array(named_struct('k', a, 'v', s), named_struct('K', b, 'v', NULL))",
                             "array(map('a', a), map('b', b))", "coalesce(named_struct('a', a), "
                             "named_struct('a', b))"});
  auto schema = df.schema();
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(types::SimpleString(*(*schema)->field(0)->type()),
            "array<struct<k:bigint,v:string>>");
  EXPECT_EQ(types::SimpleString(*(*schema)->field(1)->type()), "array<map<string,bigint>>");
  EXPECT_EQ(types::SimpleString(*(*schema)->field(2)->type()), "struct<a:bigint>");
  auto table = df.collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto column = arrow::Concatenate((*table)->column(0)->chunks()).ValueOrDie();
  EXPECT_EQ(column->ToString(),
            Array("array<struct<k:bigint,v:string>>",
                  R"([[{"k": 1, "v": "x"}, {"k": 2, "v": null}]])")
                ->ToString());
  auto mismatch = Frame("a INT", {"[1]"})
                      .selectExpr({"array(named_struct('a', 1), named_struct('b', 2))"});
  EXPECT_TRUE(HasErrorClass(mismatch.schema().status(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES"));
}

}  // namespace
}  // namespace sluice
