#include "sluice/types/tree_string.h"

#include <gtest/gtest.h>

#include <arrow/type.h>

#include "sluice/types/spark_types.h"

// Expected text follows Spark 4's StructType.treeString / StructField, ArrayType and MapType
// buildFormattedString.

namespace sluice::types {
namespace {

TEST(TreeStringTest, MatchesPrintSchema) {
  arrow::Schema schema({
      arrow::field("a", arrow::int32()),
      arrow::field("s", arrow::struct_({arrow::field("x", arrow::utf8())})),
      arrow::field("arr", MakeArrayType(arrow::int32())),
      arrow::field("m", MakeMapType(arrow::utf8(), arrow::int32())),
  });
  EXPECT_EQ(TreeString(schema),
            "root\n"
            " |-- a: integer (nullable = true)\n"
            " |-- s: struct (nullable = true)\n"
            " |    |-- x: string (nullable = true)\n"
            " |-- arr: array (nullable = true)\n"
            " |    |-- element: integer (containsNull = true)\n"
            " |-- m: map (nullable = true)\n"
            " |    |-- key: string\n"
            " |    |-- value: integer (valueContainsNull = true)\n");
}

TEST(TreeStringTest, DeepNestingAndAtomicNames) {
  arrow::Schema schema({
      arrow::field("id", arrow::int64(), false),
      arrow::field("events",
                   MakeArrayType(arrow::struct_({arrow::field("ts", TimestampLtzType(), false),
                                                 arrow::field("amount",
                                                              arrow::decimal128(10, 2))}),
                                 false)),
      arrow::field("tags", MakeMapType(arrow::struct_({arrow::field("k", arrow::int16())}),
                                       MakeArrayType(TimestampNtzType()), false),
                   false),
      arrow::field("b", arrow::boolean()),
      arrow::field("d", arrow::date32()),
      arrow::field("n", arrow::null()),
  });
  EXPECT_EQ(TreeString(schema),
            "root\n"
            " |-- id: long (nullable = false)\n"
            " |-- events: array (nullable = true)\n"
            " |    |-- element: struct (containsNull = false)\n"
            " |    |    |-- ts: timestamp (nullable = false)\n"
            " |    |    |-- amount: decimal(10,2) (nullable = true)\n"
            " |-- tags: map (nullable = false)\n"
            " |    |-- key: struct\n"
            " |    |    |-- k: short (nullable = true)\n"
            " |    |-- value: array (valueContainsNull = false)\n"
            " |    |    |-- element: timestamp_ntz (containsNull = true)\n"
            " |-- b: boolean (nullable = true)\n"
            " |-- d: date (nullable = true)\n"
            " |-- n: void (nullable = true)\n");
}

TEST(TreeStringTest, EmptySchemaAndEscapedNames) {
  EXPECT_EQ(TreeString(arrow::Schema({})), "root\n");
  arrow::Schema schema({arrow::field("a\nb\tc", arrow::utf8())});
  EXPECT_EQ(TreeString(schema), "root\n |-- a\\nb\\tc: string (nullable = true)\n");
}

TEST(TreeStringTest, MaxDepthCutsNestedLevels) {
  arrow::Schema schema({arrow::field(
      "s", arrow::struct_({arrow::field("t", arrow::struct_({arrow::field("u", arrow::int8())}))}))});
  EXPECT_EQ(TreeString(schema, 1), "root\n |-- s: struct (nullable = true)\n");
  EXPECT_EQ(TreeString(schema, 2),
            "root\n"
            " |-- s: struct (nullable = true)\n"
            " |    |-- t: struct (nullable = true)\n");
  EXPECT_EQ(TreeString(schema, 0), TreeString(schema));
  EXPECT_EQ(TreeString(schema),
            "root\n"
            " |-- s: struct (nullable = true)\n"
            " |    |-- t: struct (nullable = true)\n"
            " |    |    |-- u: byte (nullable = true)\n");
}

}  // namespace
}  // namespace sluice::types
