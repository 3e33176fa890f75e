#include "sluice/formats/partition_discovery.h"

#include <gtest/gtest.h>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "formats/format_test_support.h"
#include "sluice/common/errors.h"
#include "sluice/formats/format_options.h"

namespace sluice::formats {
namespace {

TEST(PartitionDiscoveryTest, EscapesLikeSpark) {
  EXPECT_EQ(EscapePathName("a/b=c:d%"), "a%2Fb%3Dc%3Ad%25");
  EXPECT_EQ(EscapePathName("2024-01-01 10:00:00"), "2024-01-01 10%3A00%3A00");
  EXPECT_EQ(UnescapePathName("a%2Fb%3Dc%3Ad%25"), "a/b=c:d%");
  EXPECT_EQ(UnescapePathName("100%"), "100%");
}

TEST(PartitionDiscoveryTest, InfersValueTypesAsSpark) {
  EXPECT_TRUE(InferPartitionValueType("1")->Equals(arrow::int32()));
  EXPECT_TRUE(InferPartitionValueType("10000000000")->Equals(arrow::int64()));
  EXPECT_TRUE(InferPartitionValueType("12345678901234567890")->Equals(arrow::decimal128(20, 0)));
  EXPECT_TRUE(InferPartitionValueType("1.5")->Equals(arrow::float64()));
  EXPECT_TRUE(InferPartitionValueType("2024-01-01")->Equals(arrow::date32()));
  EXPECT_EQ(InferPartitionValueType("2024-01-01 10%3A00%3A00")->id(), arrow::Type::TIMESTAMP);
  EXPECT_TRUE(InferPartitionValueType("true")->Equals(arrow::utf8()));
  EXPECT_TRUE(InferPartitionValueType("abc")->Equals(arrow::utf8()));
  EXPECT_TRUE(InferPartitionValueType("__HIVE_DEFAULT_PARTITION__")->Equals(arrow::null()));
}

TEST(PartitionDiscoveryTest, ListsFilesWithPartitionsAndWidensTypes) {
  testing::ScratchDir dir;
  dir.Write("t/k=1/x=a/f.json", "{}");
  dir.Write("t/k=2.5/x=__HIVE_DEFAULT_PARTITION__/f.json", "{}");
  dir.Write("t/k=3/x=b/_SUCCESS", "");
  dir.Write("t/k=3/x=b/.f.json.crc", "");
  dir.Write("t/_temporary/k=9/x=z/f.json", "{}");
  auto listing = ListFiles(dir / "t", {}, nullptr, "UTC");
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  ASSERT_EQ(listing->files.size(), 2u);
  EXPECT_EQ(listing->partition_schema->ToString(), "k: double\nx: string");
  EXPECT_EQ(listing->partition_values[0][0]->ToString(), "1");
  EXPECT_EQ(listing->partition_values[1][0]->ToString(), "2.5");
  EXPECT_FALSE(listing->partition_values[1][1]->is_valid);
}

TEST(PartitionDiscoveryTest, UserSchemaFixesPartitionTypes) {
  testing::ScratchDir dir;
  dir.Write("t/k=01/f.json", "{}");
  auto user = arrow::schema({arrow::field("K", arrow::utf8())});
  auto listing = ListFiles(dir / "t", {}, user, "UTC");
  ASSERT_TRUE(listing.ok());
  EXPECT_EQ(listing->partition_schema->ToString(), "K: string");
  EXPECT_EQ(listing->partition_values[0][0]->ToString(), "01");
}

TEST(PartitionDiscoveryTest, ConflictingLayoutsFail) {
  testing::ScratchDir dir;
  dir.Write("t/k=1/f.json", "{}");
  dir.Write("t/g.json", "{}");
  auto listing = ListFiles(dir / "t", {}, nullptr, "UTC");
  EXPECT_EQ(ErrorClassOf(listing.status()), "CONFLICTING_DIRECTORY_STRUCTURES");
  FileSourceOptions recursive;
  recursive.recursive_file_lookup = true;
  auto flat = ListFiles(dir / "t", recursive, nullptr, "UTC");
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(flat->files.size(), 2u);
  EXPECT_EQ(flat->partition_schema->num_fields(), 0);
}

TEST(FormatOptionsTest, OneTablePerFormatWithDefaults) {
  auto json = ParseJsonReadOptions({});
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json->parse.mode, ParseMode::kPermissive);
  EXPECT_EQ(json->parse.column_name_of_corrupt_record, "_corrupt_record");
  auto csv = ParseCsvReadOptions({{"SEP", "\\t"}, {"Header", "TRUE"}, {"unknown", "x"}});
  ASSERT_TRUE(csv.ok());
  EXPECT_EQ(csv->separator, '\t');
  EXPECT_TRUE(csv->header);
  auto bad = ParseCsvReadOptions({{"inferSchema", "yes"}});
  EXPECT_NE(bad.status().message().find("inferSchema flag can be true or false"),
            std::string::npos);
  auto codec = ParseParquetWriteOptions({{"compression", "brotli2"}});
  EXPECT_EQ(ErrorClassOf(codec.status()), "CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION");
  EXPECT_FALSE(DocumentedOptions(FileFormat::kCsv, false).empty());
  EXPECT_EQ(ParseFileFormat("PARQUET").ValueOrDie(), FileFormat::kParquet);
  EXPECT_EQ(ErrorClassOf(ParseFileFormat("foo").status()), "DATA_SOURCE_NOT_FOUND");
}

}  // namespace
}  // namespace sluice::formats
