#include "sluice/types/ddl_parser.h"

#include <gtest/gtest.h>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_types.h"

// Expected results and error classes follow Spark 4's DataTypeAstBuilder and error conditions.

namespace sluice::types {
namespace {

std::shared_ptr<arrow::DataType> Type(std::string_view ddl) {
  auto result = ParseDataType(ddl);
  EXPECT_TRUE(result.ok()) << ddl << ": " << result.status().ToString();
  return result.ok() ? *result : arrow::null();
}

void ExpectType(std::string_view ddl, const std::shared_ptr<arrow::DataType>& expected) {
  auto type = Type(ddl);
  EXPECT_TRUE(type->Equals(*expected, /*check_metadata=*/true))
      << ddl << " gave " << type->ToString() << ", expected " << expected->ToString();
}

arrow::Status TypeError(std::string_view ddl) {
  auto result = ParseDataType(ddl);
  EXPECT_FALSE(result.ok()) << ddl << " parsed as " << (*result)->ToString();
  return result.status();
}

bool StartsWith(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

TEST(DdlParserTest, PrimitiveTypesAndAliases) {
  ExpectType("boolean", arrow::boolean());
  ExpectType("tinyint", arrow::int8());
  ExpectType("BYTE", arrow::int8());
  ExpectType("smallint", arrow::int16());
  ExpectType("short", arrow::int16());
  ExpectType("int", arrow::int32());
  ExpectType("Integer", arrow::int32());
  ExpectType("bigint", arrow::int64());
  ExpectType("LONG", arrow::int64());
  ExpectType("float", arrow::float32());
  ExpectType("real", arrow::float32());
  ExpectType("double", arrow::float64());
  ExpectType("string", arrow::utf8());
  ExpectType("varchar(10)", arrow::utf8());
  ExpectType("char(3)", arrow::utf8());
  ExpectType("character(3)", arrow::utf8());
  ExpectType("binary", arrow::binary());
  ExpectType("date", arrow::date32());
  ExpectType("timestamp", TimestampLtzType());
  ExpectType("timestamp_ltz", TimestampLtzType());
  ExpectType("TIMESTAMP_NTZ", TimestampNtzType());
  ExpectType("timestamp without time zone", TimestampNtzType());
  ExpectType("void", arrow::null());
  ExpectType("  int  ", arrow::int32());
}

TEST(DdlParserTest, Decimals) {
  ExpectType("decimal", arrow::decimal128(10, 0));
  ExpectType("DECIMAL(10,2)", arrow::decimal128(10, 2));
  ExpectType("decimal( 5 )", arrow::decimal128(5, 0));
  ExpectType("dec(38, 38)", arrow::decimal128(38, 38));
  ExpectType("numeric(7,3)", arrow::decimal128(7, 3));
}

TEST(DdlParserTest, ComplexTypes) {
  ExpectType("array<int>", MakeArrayType(arrow::int32()));
  ExpectType("ARRAY<ARRAY<INT>>", MakeArrayType(MakeArrayType(arrow::int32())));
  ExpectType("map<string, array<bigint>>",
             MakeMapType(arrow::utf8(), MakeArrayType(arrow::int64())));
  ExpectType("array<struct<a:int,b:string>>",
             MakeArrayType(arrow::struct_(
                 {arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())})));
  ExpectType("struct<a int, `b c`: map<int,string>>",
             arrow::struct_({arrow::field("a", arrow::int32()),
                             arrow::field("b c", MakeMapType(arrow::int32(), arrow::utf8()))}));
  ExpectType("struct<>", arrow::struct_({}));
  ExpectType("STRUCT<a: INT NOT NULL COMMENT 'x'>",
             arrow::struct_({arrow::field("a", arrow::int32(), false,
                                          arrow::key_value_metadata({"comment"}, {"x"}))}));
}

TEST(DdlParserTest, SchemaWithConstraintsCommentsAndQuotedNames) {
  auto schema = ParseSchema(
      "user_id STRING, ts TIMESTAMP NOT NULL, price DECIMAL(10,2) COMMENT 'x', "
      "`weird name` INT");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  arrow::Schema expected({
      arrow::field("user_id", arrow::utf8()),
      arrow::field("ts", TimestampLtzType(), false),
      arrow::field("price", arrow::decimal128(10, 2), true,
                   arrow::key_value_metadata({"comment"}, {"x"})),
      arrow::field("weird name", arrow::int32()),
  });
  EXPECT_TRUE((*schema)->Equals(expected, /*check_metadata=*/true)) << (*schema)->ToString();
}

TEST(DdlParserTest, SchemaInStructAndColonForms) {
  arrow::Schema expected({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())});
  for (const char* ddl : {"struct<a:int,b:string>", "a:int, b:string", "a INT,b STRING"}) {
    auto schema = ParseSchema(ddl);
    ASSERT_TRUE(schema.ok()) << ddl << ": " << schema.status().ToString();
    EXPECT_TRUE((*schema)->Equals(expected)) << ddl << " gave " << (*schema)->ToString();
  }
}

TEST(DdlParserTest, KeywordsAsNamesCommentsAndStringEscapes) {
  auto schema = ParseSchema(
      "date date, comment string comment 'it\\'s' 'joined', `a``b` int -- trailing\n"
      ", c /* inline */ bigint");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  ASSERT_EQ((*schema)->num_fields(), 4);
  EXPECT_EQ((*schema)->field(0)->name(), "date");
  EXPECT_EQ((*schema)->field(1)->name(), "comment");
  EXPECT_EQ(*FieldComment(*(*schema)->field(1)), "it'sjoined");
  EXPECT_EQ((*schema)->field(2)->name(), "a`b");
  EXPECT_TRUE((*schema)->field(3)->type()->Equals(arrow::int64()));
}

TEST(DdlParserTest, UnsupportedDataType) {
  auto status = TypeError("foo");
  EXPECT_EQ(ErrorClassOf(status), "UNSUPPORTED_DATATYPE");
  EXPECT_TRUE(StartsWith(status.message(), "[UNSUPPORTED_DATATYPE] Unsupported data type \"FOO\"."))
      << status.message();

  status = TypeError("int(5)");
  EXPECT_EQ(ErrorClassOf(status), "UNSUPPORTED_DATATYPE");
  EXPECT_TRUE(StartsWith(status.message(), "[UNSUPPORTED_DATATYPE] Unsupported data type \"INT(5)\"."))
      << status.message();

  auto schema = ParseSchema("a int, b strin");
  EXPECT_EQ(ErrorClassOf(schema.status()), "UNSUPPORTED_DATATYPE");
  EXPECT_NE(schema.status().message().find("\"STRIN\""), std::string::npos);
}

TEST(DdlParserTest, SyntaxErrorsNameTheTokenAndPosition) {
  auto schema = ParseSchema("a int b");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(ErrorClassOf(schema.status()), "PARSE_SYNTAX_ERROR");
  EXPECT_EQ(schema.status().message(),
            "[PARSE_SYNTAX_ERROR] Syntax error at or near 'b'. (line 1, pos 6)\n\n"
            "== SQL ==\n"
            "a int b\n"
            "------^^^");

  auto status = TypeError("array<int");
  EXPECT_EQ(ErrorClassOf(status), "PARSE_SYNTAX_ERROR");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input."))
      << status.message();

  status = TypeError("map<int>");
  EXPECT_TRUE(StartsWith(status.message(), "[PARSE_SYNTAX_ERROR] Syntax error at or near '>'."))
      << status.message();

  status = TypeError("int int");
  EXPECT_TRUE(StartsWith(status.message(), "[PARSE_SYNTAX_ERROR] Syntax error at or near 'int'."))
      << status.message();

  schema = ParseSchema("a int,\nb int not nul");
  EXPECT_EQ(ErrorClassOf(schema.status()), "PARSE_SYNTAX_ERROR");
  EXPECT_NE(schema.status().message().find("'nul'. (line 2, pos 10)"), std::string::npos)
      << schema.status().message();

  schema = ParseSchema("a string comment 'unterminated");
  EXPECT_EQ(ErrorClassOf(schema.status()), "PARSE_SYNTAX_ERROR");

  schema = ParseSchema("");
  EXPECT_EQ(ErrorClassOf(schema.status()), "PARSE_SYNTAX_ERROR");
  EXPECT_TRUE(StartsWith(schema.status().message(),
                         "[PARSE_SYNTAX_ERROR] Syntax error at or near end of input."));
}

TEST(DdlParserTest, OtherSparkErrorClasses) {
  auto status = TypeError("varchar");
  EXPECT_EQ(ErrorClassOf(status), "DATATYPE_MISSING_SIZE");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[DATATYPE_MISSING_SIZE] DataType \"VARCHAR\" requires a length "
                         "parameter, for example \"VARCHAR\"(10). Please specify the length."))
      << status.message();

  EXPECT_EQ(ErrorClassOf(TypeError("array")), "INCOMPLETE_TYPE_DEFINITION.ARRAY");
  EXPECT_EQ(ErrorClassOf(TypeError("map")), "INCOMPLETE_TYPE_DEFINITION.MAP");
  EXPECT_EQ(ErrorClassOf(TypeError("struct")), "INCOMPLETE_TYPE_DEFINITION.STRUCT");

  status = TypeError("decimal(39,0)");
  EXPECT_EQ(ErrorClassOf(status), "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION");
  EXPECT_TRUE(StartsWith(status.message(),
                         "[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] Decimal precision 39 "
                         "exceeds max precision 38."))
      << status.message();
  EXPECT_EQ(ErrorClassOf(TypeError("decimal(5,6)")), "_LEGACY_ERROR_TEMP_1228");
}

TEST(DdlParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string ddl;
  for (int i = 0; i < 10000; ++i) ddl += "array<";
  ddl += "int";
  for (int i = 0; i < 10000; ++i) ddl += ">";
  EXPECT_FALSE(ParseDataType(ddl).ok());
}

}  // namespace
}  // namespace sluice::types
