#include "sluice/types/json_schema.h"

#include <gtest/gtest.h>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_type_names.h"
#include "sluice/types/spark_types.h"

// Expected JSON follows Spark 4's DataType.json (StructType/StructField/ArrayType/MapType
// jsonValue rendered compactly by json4s).

namespace sluice::types {
namespace {

TEST(JsonSchemaTest, FlatSchemaIsSparksCompactJson) {
  arrow::Schema schema({arrow::field("a", arrow::int32()),
                        arrow::field("b", arrow::utf8(), false,
                                     arrow::key_value_metadata({"comment"}, {"x"}))});
  EXPECT_EQ(SchemaToJson(schema),
            R"json({"type":"struct","fields":[)json"
            R"json({"name":"a","type":"integer","nullable":true,"metadata":{}},)json"
            R"json({"name":"b","type":"string","nullable":false,"metadata":{"comment":"x"}}]})json");
}

TEST(JsonSchemaTest, ComplexTypes) {
  arrow::Schema schema({
      arrow::field("arr", MakeArrayType(arrow::int64())),
      arrow::field("m", MakeMapType(arrow::utf8(), arrow::decimal128(10, 2), false)),
      arrow::field("s", arrow::struct_({arrow::field("x", MakeArrayType(arrow::int8(), false))})),
  });
  EXPECT_EQ(
      SchemaToJson(schema),
      R"json({"type":"struct","fields":[)json"
      R"json({"name":"arr","type":{"type":"array","elementType":"long","containsNull":true},)json"
      R"json("nullable":true,"metadata":{}},)json"
      R"json({"name":"m","type":{"type":"map","keyType":"string","valueType":"decimal(10,2)",)json"
      R"json("valueContainsNull":false},"nullable":true,"metadata":{}},)json"
      R"json({"name":"s","type":{"type":"struct","fields":[{"name":"x","type":{"type":"array",)json"
      R"json("elementType":"byte","containsNull":false},"nullable":true,"metadata":{}}]},)json"
      R"json("nullable":true,"metadata":{}}]})json");
}

TEST(JsonSchemaTest, AtomicTypeNames) {
  EXPECT_EQ(DataTypeToJson(*arrow::boolean()), R"json("boolean")json");
  EXPECT_EQ(DataTypeToJson(*arrow::int8()), R"json("byte")json");
  EXPECT_EQ(DataTypeToJson(*arrow::int16()), R"json("short")json");
  EXPECT_EQ(DataTypeToJson(*arrow::int32()), R"json("integer")json");
  EXPECT_EQ(DataTypeToJson(*arrow::int64()), R"json("long")json");
  EXPECT_EQ(DataTypeToJson(*arrow::float32()), R"json("float")json");
  EXPECT_EQ(DataTypeToJson(*arrow::float64()), R"json("double")json");
  EXPECT_EQ(DataTypeToJson(*arrow::decimal128(38, 18)), R"json("decimal(38,18)")json");
  EXPECT_EQ(DataTypeToJson(*arrow::utf8()), R"json("string")json");
  EXPECT_EQ(DataTypeToJson(*arrow::binary()), R"json("binary")json");
  EXPECT_EQ(DataTypeToJson(*arrow::date32()), R"json("date")json");
  EXPECT_EQ(DataTypeToJson(*TimestampLtzType()), R"json("timestamp")json");
  EXPECT_EQ(DataTypeToJson(*TimestampNtzType()), R"json("timestamp_ntz")json");
  EXPECT_EQ(DataTypeToJson(*arrow::null()), R"json("void")json");
}

TEST(JsonSchemaTest, EscapesNamesAndDropsArrowReaderMetadata) {
  auto metadata = arrow::key_value_metadata({"PARQUET:field_id", "comment"}, {"7", "tab\there"});
  arrow::Schema schema({arrow::field("q\"\\\n\x01", arrow::int32(), true, metadata)});
  EXPECT_EQ(SchemaToJson(schema),
            R"json({"type":"struct","fields":[{"name":"q\"\\\n\u0001","type":"integer",)json"
            R"json("nullable":true,"metadata":{"comment":"tab\there"}}]})json");
}

TEST(JsonSchemaTest, ReadsWhitespaceAnyKeyOrderAndOptionalKeys) {
  auto schema = SchemaFromJson(R"json(
    { "fields" : [
        { "type" : { "containsNull" : false, "type" : "array", "elementType" : "short" },
          "name" : "a", "metadata" : { }, "nullable" : false },
        { "name" : "b", "type" : "null" },
        { "name" : "c", "type" : "timestamp_ltz", "nullable" : true },
        { "name" : "d", "type" : "decimal( 7 , 2 )" },
        { "name" : "e", "type" : "varchar(5)" },
        { "name" : "f", "type" : "decimal" }
      ],
      "type" : "struct" })json");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  arrow::Schema expected({
      arrow::field("a", MakeArrayType(arrow::int16(), false), false),
      arrow::field("b", arrow::null()),
      arrow::field("c", TimestampLtzType()),
      arrow::field("d", arrow::decimal128(7, 2)),
      arrow::field("e", arrow::utf8()),
      arrow::field("f", arrow::decimal128(10, 0)),
  });
  EXPECT_TRUE((*schema)->Equals(expected, /*check_metadata=*/true)) << (*schema)->ToString();
}

TEST(JsonSchemaTest, RoundTripKeepsTypedMetadataValues) {
  const std::string json =
      R"json({"type":"struct","fields":[{"name":"id","type":"long","nullable":false,)json"
      R"json("metadata":{"delta.columnMapping.id":5,"comment":"c","flags":[true,null,1.5],)json"
      R"json("nested":{"k":"v"}}},{"name":"m","type":{"type":"map","keyType":"integer",)json"
      R"json("valueType":{"type":"struct","fields":[]},"valueContainsNull":true},)json"
      R"json("nullable":true,"metadata":{}}]})json";
  auto schema = SchemaFromJson(json);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(*FieldComment(*(*schema)->field(0)), "c");
  EXPECT_EQ(SchemaToJson(**schema), json);
}

TEST(JsonSchemaTest, DataTypeRoundTrip) {
  auto type = MakeMapType(arrow::utf8(), MakeArrayType(TimestampNtzType(), false));
  auto parsed = DataTypeFromJson(DataTypeToJson(*type));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE((*parsed)->Equals(*type));
  auto atomic = DataTypeFromJson(R"json( "integer" )json");
  ASSERT_TRUE(atomic.ok());
  EXPECT_TRUE((*atomic)->Equals(arrow::int32()));
}

TEST(JsonSchemaTest, Errors) {
  auto unknown = SchemaFromJson(R"json({"type":"struct","fields":[{"name":"a","type":"foo"}]})json");
  EXPECT_EQ(ErrorClassOf(unknown.status()), "INVALID_JSON_DATA_TYPE");
  EXPECT_EQ(unknown.status().message(),
            "[INVALID_JSON_DATA_TYPE] Failed to convert the JSON string '\"foo\"' to a data "
            "type. Please enter a valid data type.");

  auto bad_field = SchemaFromJson(R"json({"type":"struct","fields":[{"type":"integer"}]})json");
  EXPECT_EQ(ErrorClassOf(bad_field.status()), "_LEGACY_ERROR_TEMP_3250");

  auto missing_contains_null =
      DataTypeFromJson(R"json({"type":"array","elementType":"integer"})json");
  EXPECT_EQ(ErrorClassOf(missing_contains_null.status()), "INVALID_JSON_DATA_TYPE");

  auto not_struct = SchemaFromJson(R"json("integer")json");
  EXPECT_EQ(ErrorClassOf(not_struct.status()), "FAILED_PARSE_STRUCT_TYPE");

  auto malformed = SchemaFromJson(R"json({"type":"struct","fields":[)json");
  EXPECT_TRUE(malformed.status().IsInvalid());
  EXPECT_NE(malformed.status().message().find("malformed"), std::string::npos);

  // ANSI intervals have a mapping (interval_types.h); the legacy calendar interval has none.
  auto interval = DataTypeFromJson(R"json("interval minute")json");
  ASSERT_TRUE(interval.ok()) << interval.status().ToString();
  EXPECT_EQ(SimpleString(**interval), "interval minute");
  auto calendar = DataTypeFromJson(R"json("calendarinterval")json");
  EXPECT_EQ(ErrorClassOf(calendar.status()), "UNSUPPORTED_DATATYPE");

  auto too_precise = DataTypeFromJson(R"json("decimal(40,2)")json");
  EXPECT_EQ(ErrorClassOf(too_precise.status()), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
}

}  // namespace
}  // namespace sluice::types
