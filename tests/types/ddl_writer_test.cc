#include "sluice/types/ddl_writer.h"

#include <gtest/gtest.h>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_types.h"

// Expected strings follow Spark 4's StructType.toDDL / StructField.toDDL.

namespace sluice::types {
namespace {

TEST(DdlWriterTest, FlatSchema) {
  arrow::Schema schema({arrow::field("a", arrow::int32()),
                        arrow::field("b", arrow::utf8(), /*nullable=*/false)});
  EXPECT_EQ(ToDdl(schema), "a INT,b STRING NOT NULL");
}

TEST(DdlWriterTest, QuotingCommentsAndNestedTypes) {
  auto comment = arrow::key_value_metadata({"comment"}, {"it's"});
  arrow::Schema schema({
      arrow::field("weird name", arrow::int64()),
      arrow::field("price", arrow::decimal128(10, 2), true, comment),
      arrow::field("s", arrow::struct_({arrow::field("x", arrow::int32(), false),
                                        arrow::field("y z", MakeArrayType(arrow::utf8()))})),
      arrow::field("m", MakeMapType(arrow::utf8(), arrow::int64())),
      arrow::field("ts", TimestampLtzType()),
      arrow::field("ntz", TimestampNtzType(), false),
      arrow::field("d", arrow::date32()),
      arrow::field("bin", arrow::binary()),
  });
  EXPECT_EQ(ToDdl(schema),
            "`weird name` BIGINT,"
            "price DECIMAL(10,2) COMMENT 'it\\'s',"
            "s STRUCT<x: INT NOT NULL, `y z`: ARRAY<STRING>>,"
            "m MAP<STRING, BIGINT>,"
            "ts TIMESTAMP,"
            "ntz TIMESTAMP_NTZ NOT NULL,"
            "d DATE,"
            "bin BINARY");
}

TEST(DdlWriterTest, DefaultValueComesBeforeComment) {
  auto metadata = arrow::key_value_metadata({"comment", "CURRENT_DEFAULT"}, {"c", "42"});
  EXPECT_EQ(FieldToDdl(*arrow::field("a", arrow::int32(), false, metadata)),
            "a INT NOT NULL DEFAULT 42 COMMENT 'c'");
}

TEST(DdlWriterTest, RoundTripsThroughParseSchema) {
  auto comment = arrow::key_value_metadata({"comment"}, {"quote ' inside"});
  arrow::Schema schema({
      arrow::field("a b", MakeArrayType(arrow::struct_({arrow::field("c", arrow::int8())}))),
      arrow::field("n", arrow::float64(), false, comment),
      arrow::field("`tick`", MakeMapType(arrow::int32(), arrow::boolean())),
  });
  auto parsed = ParseSchema(ToDdl(schema));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE((*parsed)->Equals(schema, /*check_metadata=*/true))
      << (*parsed)->ToString() << "\n" << ToDdl(schema);
}

}  // namespace
}  // namespace sluice::types
