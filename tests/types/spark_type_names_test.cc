#include "sluice/types/spark_type_names.h"

#include <gtest/gtest.h>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/types/spark_types.h"

// Expected strings follow Spark 4's DataType.simpleString / typeName / sql (sql/api types).

namespace sluice::types {
namespace {

struct NameCase {
  std::shared_ptr<arrow::DataType> type;
  const char* simple_string;
  const char* type_name;
  const char* sql;
};

TEST(SparkTypeNamesTest, AtomicTypes) {
  const NameCase cases[] = {
      {arrow::boolean(), "boolean", "boolean", "BOOLEAN"},
      {arrow::int8(), "tinyint", "byte", "TINYINT"},
      {arrow::int16(), "smallint", "short", "SMALLINT"},
      {arrow::int32(), "int", "integer", "INT"},
      {arrow::int64(), "bigint", "long", "BIGINT"},
      {arrow::float32(), "float", "float", "FLOAT"},
      {arrow::float64(), "double", "double", "DOUBLE"},
      {arrow::decimal128(10, 2), "decimal(10,2)", "decimal(10,2)", "DECIMAL(10,2)"},
      {arrow::utf8(), "string", "string", "STRING"},
      {arrow::binary(), "binary", "binary", "BINARY"},
      {arrow::date32(), "date", "date", "DATE"},
      {TimestampLtzType(), "timestamp", "timestamp", "TIMESTAMP"},
      {TimestampNtzType(), "timestamp_ntz", "timestamp_ntz", "TIMESTAMP_NTZ"},
      {arrow::null(), "void", "void", "VOID"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(SimpleString(*c.type), c.simple_string) << c.type->ToString();
    EXPECT_EQ(TypeName(*c.type), c.type_name) << c.type->ToString();
    EXPECT_EQ(SqlString(*c.type), c.sql) << c.type->ToString();
  }
}

TEST(SparkTypeNamesTest, ComplexTypes) {
  auto array = MakeArrayType(arrow::int32());
  EXPECT_EQ(SimpleString(*array), "array<int>");
  EXPECT_EQ(TypeName(*array), "array");
  EXPECT_EQ(SqlString(*array), "ARRAY<INT>");

  auto map = MakeMapType(arrow::utf8(), arrow::int32());
  EXPECT_EQ(SimpleString(*map), "map<string,int>");
  EXPECT_EQ(TypeName(*map), "map");
  EXPECT_EQ(SqlString(*map), "MAP<STRING, INT>");

  auto comment = arrow::key_value_metadata({"comment"}, {"it's"});
  auto strukt = arrow::struct_({arrow::field("a", arrow::int32()),
                                arrow::field("b c", arrow::utf8(), false, comment)});
  EXPECT_EQ(SimpleString(*strukt), "struct<a:int,b c:string>");
  EXPECT_EQ(TypeName(*strukt), "struct");
  EXPECT_EQ(SqlString(*strukt), "STRUCT<a: INT, `b c`: STRING NOT NULL COMMENT 'it\\'s'>");

  auto nested = MakeArrayType(MakeMapType(arrow::int64(), arrow::struct_({})));
  EXPECT_EQ(SimpleString(*nested), "array<map<bigint,struct<>>>");
  EXPECT_EQ(SqlString(*nested), "ARRAY<MAP<BIGINT, STRUCT<>>>");
}

TEST(SparkTypeNamesTest, WideStructSimpleStringIsTruncatedLikeSpark) {
  arrow::FieldVector fields;
  std::string expected = "struct<";
  for (int i = 0; i < 26; ++i) {
    std::string name = std::string("f").append(std::to_string(i));
    fields.push_back(arrow::field(name, arrow::int32()));
    if (i < 24) expected.append(name).append(":int,");
  }
  expected += "... 2 more fields>";
  EXPECT_EQ(SimpleString(*arrow::struct_(fields)), expected);
  fields.pop_back();
  EXPECT_EQ(SimpleString(*arrow::struct_(fields)).find("more fields"), std::string::npos);
}

TEST(SparkTypeNamesTest, NonSparkArrowTypesAreNamedAsTheirNormalizedType) {
  EXPECT_EQ(SimpleString(*arrow::large_utf8()), "string");
  EXPECT_EQ(SimpleString(*arrow::uint32()), "bigint");
  EXPECT_EQ(SimpleString(*arrow::uint64()), "decimal(20,0)");
  EXPECT_EQ(TypeName(*arrow::timestamp(arrow::TimeUnit::NANO, "Asia/Tokyo")), "timestamp");
  EXPECT_EQ(TypeName(*arrow::timestamp(arrow::TimeUnit::SECOND)), "timestamp_ntz");
  EXPECT_EQ(SimpleString(*arrow::dictionary(arrow::int8(), arrow::utf8())), "string");
  EXPECT_EQ(SimpleString(*arrow::large_list(arrow::uint8())), "array<smallint>");
  EXPECT_EQ(SimpleString(*arrow::time32(arrow::TimeUnit::SECOND)), "time32[s]");
}

TEST(SparkTypeNamesTest, QuoteIfNeededFollowsSparkIdentifierPattern) {
  EXPECT_EQ(QuoteIfNeeded("a"), "a");
  EXPECT_EQ(QuoteIfNeeded("_x1"), "_x1");
  EXPECT_EQ(QuoteIfNeeded("user_id"), "user_id");
  EXPECT_EQ(QuoteIfNeeded("weird name"), "`weird name`");
  EXPECT_EQ(QuoteIfNeeded("1a"), "`1a`");
  EXPECT_EQ(QuoteIfNeeded("a.b"), "`a.b`");
  EXPECT_EQ(QuoteIfNeeded("a`b"), "`a``b`");
  EXPECT_EQ(QuoteIfNeeded(""), "``");
}

TEST(SparkTypeNamesTest, EscapeSingleQuotedStringOnlyEscapesQuotes) {
  EXPECT_EQ(EscapeSingleQuotedString("it's a \\ test"), "it\\'s a \\ test");
}

}  // namespace
}  // namespace sluice::types
