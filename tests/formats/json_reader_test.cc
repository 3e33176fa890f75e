// Expected rows come from Apache Spark 4.0.1 reading the same files (spark.read.json).
#include <gtest/gtest.h>

#include <algorithm>

#include <arrow/array.h>
#include <arrow/type.h>
#include <arrow/util/compression.h>

#include "formats/format_test_support.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/common/errors.h"
#include "support/session_fixture.h"
#include "sluice/types/ddl_writer.h"

namespace sluice::testing {
namespace {

// Lines: valid, syntax error, string into int (partial), double into int (partial), blank,
// all-null, top-level array of numbers, two objects on one line.
constexpr char kMixedLines[] =
    "{\"a\":1,\"b\":\"x\"}\n{bad\n{\"a\":\"x\",\"b\":\"y\"}\n{\"a\":2.5,\"b\":3}\n\n"
    "{\"a\":null}\n[1,2]\n{\"a\":1}{\"a\":2}\n";

class JsonReaderTest : public SessionTest {
 protected:
  std::vector<std::string> Read(const std::string& schema, const std::string& mode = "") {
    auto reader = spark_->read().schema(schema);
    if (!mode.empty()) reader.option("mode", mode);
    auto df = reader.json(dir_.path());
    EXPECT_TRUE(df.ok()) << df.status().ToString();
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? Rows(**table) : std::vector<std::string>{};
  }
  ScratchDir dir_;
};

TEST_F(JsonReaderTest, PermissiveKeepsPartialResultsAndRawRecord) {
  dir_.Write("a.json", kMixedLines);
  EXPECT_EQ(Read("a int, b string, _corrupt_record string"),
            (std::vector<std::string>{"1|x|null", "null|null|{bad",
                                      "null|y|{\"a\":\"x\",\"b\":\"y\"}",
                                      "null|3|{\"a\":2.5,\"b\":3}", "null|null|null",
                                      "null|null|[1,2]", "1|null|null"}));
  EXPECT_EQ(Read("a int, b string"),
            (std::vector<std::string>{"1|x", "null|null", "null|y", "null|3", "null|null",
                                      "null|null", "1|null"}));
}

TEST_F(JsonReaderTest, DropMalformedSkipsPartialRecordsToo) {
  dir_.Write("a.json", kMixedLines);
  EXPECT_EQ(Read("a int, b string, _corrupt_record string", "DROPMALFORMED"),
            (std::vector<std::string>{"1|x|null", "null|null|null", "1|null|null"}));
}

TEST_F(JsonReaderTest, FailFastNamesRecordAndFile) {
  std::string file = dir_.Write("a.json", kMixedLines);
  auto df = spark_->read().schema("a int, b string").option("mode", "FAILFAST").json(dir_.path());
  ASSERT_TRUE(df.ok());
  auto result = df.collect();
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(HasErrorClass(result.status(), "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION"));
  EXPECT_NE(result.status().message().find("{bad"), std::string::npos);
  EXPECT_NE(result.status().message().find("file:" + file), std::string::npos);
  EXPECT_NE(result.status().message().find("Parse Mode: FAILFAST"), std::string::npos);
}

TEST_F(JsonReaderTest, UnknownModeFallsBackToPermissive) {
  // Spark logs "FOO is not a valid parse mode. Using PERMISSIVE." and reads on.
  dir_.Write("a.json", kMixedLines);
  EXPECT_EQ(Read("a int, b string", "FOO").size(), 7u);
}

TEST_F(JsonReaderTest, InfersSparkSchema) {
  dir_.Write("a.json",
             "{\"z\":1,\"a\":1.5,\"c\":true,\"s\":{\"y\":1,\"x\":\"q\"},\"arr\":[1,2]}\n"
             "{\"z\":\"str\",\"a\":2,\"c\":null,\"s\":{\"y\":2.5},\"arr\":[1.5], \"n\":null, "
             "\"big\": 12345678901234567890}\n{bad\n");
  auto df = spark_->read().json(dir_.path());
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  auto schema = df.schema().ValueOrDie();
  EXPECT_EQ(types::ToDdl(*schema),
            "_corrupt_record STRING,a DOUBLE,arr ARRAY<DOUBLE>,big DECIMAL(20,0),c BOOLEAN,"
            "n STRING,s STRUCT<x: STRING, y: DOUBLE>,z STRING");
  auto table = df.collect().ValueOrDie();
  auto rows = Rows(*table);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2], "{bad|null|null|null|null|null|null|null");
  EXPECT_EQ(rows[0].substr(0, 9), "null|1.5|");
  EXPECT_NE(rows[1].find("12345678901234567890"), std::string::npos);
  EXPECT_NE(rows[1].find("|str"), std::string::npos);
}

TEST_F(JsonReaderTest, EmptyFolderCannotBeInferred) {
  auto df = spark_->read().json(dir_.path());
  EXPECT_TRUE(HasErrorClass(df.status(), "UNABLE_TO_INFER_SCHEMA"));
  EXPECT_EQ(df.status().message(),
            "[UNABLE_TO_INFER_SCHEMA] Unable to infer schema for JSON. It must be specified "
            "manually.");
}

TEST_F(JsonReaderTest, TimestampsDatesAndStrings) {
  dir_.Write("a.json",
             "{\"t\":\"2024-01-01T10:00:00\",\"d\":\"2024-01-02\",\"x\":\"12\"}\n"
             "{\"t\":\"2024-01-01T10:00:00.123456+02:00\",\"d\":\"2024-1-2\",\"x\":12}\n"
             "{\"t\":\"2024-01-01 10:00:00Z\",\"d\":\"2024-01-02T00:00:00\",\"x\":12.5}\n"
             "{\"t\":1700000000,\"d\":1,\"x\":true}\n");
  auto df = spark_->read().schema("t timestamp, d date, x string, _corrupt_record string")
                .json(dir_.path());
  auto table = df.collect().ValueOrDie()->CombineChunksToBatch().ValueOrDie();
  const auto& t = static_cast<const arrow::TimestampArray&>(*table->column(0));
  EXPECT_EQ(t.Value(0), 1704103200000000);  // 2024-01-01 10:00:00 UTC
  EXPECT_EQ(t.Value(1), 1704096000123456);  // 08:00:00.123456 UTC
  EXPECT_EQ(t.Value(2), 1704103200000000);
  EXPECT_EQ(t.Value(3), 1700000000000000);
  const auto& d = static_cast<const arrow::Date32Array&>(*table->column(1));
  EXPECT_EQ(d.Value(0), 19724);
  EXPECT_EQ(d.Value(1), 19724);
  EXPECT_EQ(d.Value(2), 19724);
  EXPECT_TRUE(d.IsNull(3));
  const auto& x = static_cast<const arrow::StringArray&>(*table->column(2));
  EXPECT_EQ(x.GetView(0), "12");
  EXPECT_EQ(x.GetView(1), "12");
  EXPECT_EQ(x.GetView(2), "12.5");
  EXPECT_EQ(x.GetView(3), "true");
  const auto& corrupt = static_cast<const arrow::StringArray&>(*table->column(3));
  EXPECT_TRUE(corrupt.IsNull(0) && corrupt.IsNull(1) && corrupt.IsNull(2));
  EXPECT_EQ(corrupt.GetView(3), "{\"t\":1700000000,\"d\":1,\"x\":true}");
}

TEST_F(JsonReaderTest, TimestampsWithoutOffsetUseSessionZone) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.session.timeZone", "America/New_York").ok());
  dir_.Write("a.json", "{\"t\":\"2024-07-01T10:00:00\"}\n{\"t\":\"2024-01-01T10:00:00\"}\n");
  auto table = spark_->read().schema("t timestamp").json(dir_.path()).collect().ValueOrDie();
  auto batch = table->CombineChunksToBatch().ValueOrDie();
  const auto& t = static_cast<const arrow::TimestampArray&>(*batch->column(0));
  EXPECT_EQ(t.Value(0), 1719842400000000);  // 14:00 UTC (EDT)
  EXPECT_EQ(t.Value(1), 1704121200000000);  // 15:00 UTC (EST)
}

TEST_F(JsonReaderTest, NumericConversionsFollowJackson) {
  dir_.Write("a.json",
             "{\"i\":\"1\",\"l\":1.0,\"d\":\"1.5\",\"b\":\"true\",\"f\":1}\n"
             "{\"i\":1.5,\"l\":10000000000,\"d\":2,\"b\":1,\"f\":1e40}\n"
             "{\"i\":3000000000}\n"
             "{\"i\":\"NaN\",\"d\":\"NaN\",\"f\":\"Infinity\"}\n");
  EXPECT_EQ(Read("i int, l bigint, d double, b boolean, f float"),
            (std::vector<std::string>{"null|null|null|null|1", "null|10000000000|2|null|inf",
                                      "null|null|null|null|null", "null|null|nan|null|inf"}));
}

TEST_F(JsonReaderTest, MultiLineDocumentsAndNestedValues) {
  dir_.Write("a.json",
             "[\n {\"a\": 1, \"s\": {\"x\": [1, 2]}, \"m\": {\"k\": 1}},\n"
             " {\"a\": 2, \"s\": null, \"o\": {\"p\": [1, {\"q\": 2}]}}\n]\n");
  auto df = spark_->read()
                .schema("a int, s struct<x: array<int>>, m map<string, int>, o string")
                .option("multiLine", true)
                .json(dir_.path());
  auto table = df.collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto rows = Rows(**table);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1], "2|null|null|{\"p\":[1,{\"q\":2}]}");
}

TEST_F(JsonReaderTest, DuplicateKeysLastWins) {
  dir_.Write("a.json", "{\"a\":1,\"a\":2}\n");
  EXPECT_EQ(Read("a int"), (std::vector<std::string>{"2"}));
}

/// `text` gzip-compressed, as gzip(1) writes it.
std::string Gzipped(const std::string& text) {
  auto codec = arrow::util::Codec::Create(arrow::Compression::GZIP).ValueOrDie();
  const auto size = static_cast<int64_t>(text.size());
  std::string out(static_cast<size_t>(codec->MaxCompressedLen(size, nullptr)), '\0');
  const int64_t written =
      codec
          ->Compress(size, reinterpret_cast<const uint8_t*>(text.data()),
                     static_cast<int64_t>(out.size()), reinterpret_cast<uint8_t*>(out.data()))
          .ValueOrDie();
  out.resize(static_cast<size_t>(written));
  return out;
}

// As Spark (Hadoop's codec by the .gz extension): lines, whole documents (multiLine) and the
// text source read a gzip file decompressed, beside plain files; a damaged one fails naming it.
TEST_F(JsonReaderTest, GzipFilesAreReadDecompressed) {
  std::string lines;
  for (int i = 0; i < 3000; ++i) lines += "{\"a\":" + std::to_string(i) + "}\n";
  dir_.Write("a.json.gz", Gzipped(lines));
  dir_.Write("b.json", "{\"a\":-1}\n");
  auto rows = Read("a int");
  ASSERT_EQ(rows.size(), 3001u);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), "2999"), 1);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), "-1"), 1);

  ScratchDir documents;
  documents.Write("doc.json.gz", Gzipped("[{\"a\": 1},\n {\"a\": 2}]"));
  auto whole = spark_->read().schema("a int").option("multiLine", true).json(documents.path());
  auto table = whole.collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(Rows(**table), (std::vector<std::string>{"1", "2"}));

  ScratchDir text;
  text.Write("t.txt.gz", Gzipped("one\ntwo\n"));
  auto text_table = spark_->read().text(text.path()).collect();
  ASSERT_TRUE(text_table.ok()) << text_table.status().ToString();
  EXPECT_EQ(Rows(**text_table), (std::vector<std::string>{"one", "two"}));

  ScratchDir damaged;
  const std::string path = damaged.Write("bad.json.gz", "not gzip at all");
  auto failed = spark_->read().schema("a int").json(damaged.path()).collect();
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find(path), std::string::npos)
      << failed.status().ToString();
}

TEST_F(JsonReaderTest, ManyBatchesAcrossFiles) {
  std::string content;
  for (int i = 0; i < 20000; ++i) content += "{\"id\":" + std::to_string(i) + "}\r\n";
  dir_.Write("a.json", content);
  dir_.Write("sub/b.json", content);
  dir_.Write("_ignored.json", content);
  dir_.Write(".hidden.json", content);
  auto count = spark_->read().schema("id bigint").json(dir_.path()).count();
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, 40000);
}

}  // namespace
}  // namespace sluice::testing
