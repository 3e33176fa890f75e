// Writes and reads through DataFrameWriter/DataFrameReader. Expected file names, folder names,
// file contents and error messages come from Apache Spark 4.0.1 doing the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include <arrow/array.h>
#include <arrow/type.h>

#include "formats/format_test_support.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/common/errors.h"
#include "sluice/types/ddl_writer.h"
#include "support/session_fixture.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;

class IoTest : public SessionTest {
 protected:
  std::vector<std::string> PartFiles(const std::string& folder) {
    std::vector<std::string> parts;
    for (const auto& name : FileNames(folder)) {
      if (name.rfind("part-", 0) == 0) parts.push_back(name);
    }
    return parts;
  }
  ScratchDir dir_;
};

TEST_F(IoTest, JsonWriteMatchesSparkText) {
  auto df = spark_->range(1).selectExpr(
      {"1 AS i", "1.0D AS d", "1e10D AS e", "1e-5D AS f", "123456789.0D AS g",
       "CAST(NULL AS STRING) AS n", "TIMESTAMP'2024-01-01 10:00:00' AS t",
       "DATE'2024-01-02' AS dt", "'a\"b\\\\c,d\\n' AS s", "CAST(1.50 AS DECIMAL(5,2)) AS dec",
       "true AS b", "1.5e7D AS h", "CAST('NaN' AS DOUBLE) AS nan",
       "CAST('Infinity' AS DOUBLE) AS inf", "0.001D AS th", "3.0e-4D AS sm"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().json(out).ok());
  auto parts = PartFiles(out);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(std::regex_match(parts[0], std::regex("part-00000-[0-9a-f-]{36}-c000\\.json")))
      << parts[0];
  EXPECT_TRUE(fs::exists(out + "/_SUCCESS"));
  EXPECT_EQ(fs::file_size(out + "/_SUCCESS"), 0u);
  EXPECT_EQ(ReadText(out + "/" + parts[0]),
            "{\"i\":1,\"d\":1.0,\"e\":1.0E10,\"f\":1.0E-5,\"g\":1.23456789E8,"
            "\"t\":\"2024-01-01T10:00:00.000Z\",\"dt\":\"2024-01-02\",\"s\":\"a\\\"b\\\\c,d\\n\","
            "\"dec\":1.50,\"b\":true,\"h\":1.5E7,\"nan\":\"NaN\",\"inf\":\"Infinity\","
            "\"th\":0.001,\"sm\":3.0E-4}\n");
}

// As Spark with compression=gzip: part files named .json.gz, .csv.gz and .txt.gz, gzip data
// (magic 1f 8b) that reads back; codecs Spark has but Sluice does not write are refused.
TEST_F(IoTest, TextFormatsWriteGzipFiles) {
  auto df = Frame("v STRING", {"[\"a\", \"b\", \"c\"]"});
  struct Case {
    const char* format;
    const char* suffix;
  };
  for (const Case& c : {Case{"json", "json"}, Case{"csv", "csv"}, Case{"text", "txt"}}) {
    SCOPED_TRACE(c.format);
    const std::string out = dir_ / c.format;
    ASSERT_TRUE(df.write().format(c.format).option("compression", "gzip").save(out).ok());
    auto parts = PartFiles(out);
    ASSERT_EQ(parts.size(), 1u);
    EXPECT_TRUE(std::regex_match(
        parts[0], std::regex(std::string("part-00000-[0-9a-f-]{36}-c000\\.") + c.suffix +
                             "\\.gz")))
        << parts[0];
    const std::string bytes = ReadText(out + "/" + parts[0]);
    ASSERT_GE(bytes.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
    auto reader = spark_->read().format(c.format);
    if (std::string(c.format) != "text") reader.schema("v STRING");
    auto back = reader.load(out).collect();
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    auto rows = Rows(**back);
    std::sort(rows.begin(), rows.end());
    EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "c"}));
  }
  auto refused = df.write().option("compression", "bzip2").json(dir_ / "bzip2");
  EXPECT_TRUE(HasErrorClass(refused, "CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION"))
      << refused.ToString();
}

TEST_F(IoTest, SaveModes) {
  auto df = Frame("id INT, v STRING", {"[1, 2]", "[\"a\", \"b\"]"});
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().parquet(out).ok());
  auto again = df.write().parquet(out);
  EXPECT_TRUE(HasErrorClass(again, "PATH_ALREADY_EXISTS"));
  EXPECT_EQ(again.message(), "[PATH_ALREADY_EXISTS] Path file:" + out +
                                 " already exists. Set mode as \"overwrite\" to overwrite the "
                                 "existing path.");
  EXPECT_TRUE(df.write().mode("ignore").parquet(out).ok());
  EXPECT_EQ(spark_->read().parquet(out).count().ValueOrDie(), 2);
  ASSERT_TRUE(df.write().mode("append").parquet(out).ok());
  EXPECT_EQ(PartFiles(out).size(), 2u);
  EXPECT_EQ(spark_->read().parquet(out).count().ValueOrDie(), 4);
  ASSERT_TRUE(df.limit(1).write().mode("OVERWRITE").parquet(out).ok());
  EXPECT_EQ(PartFiles(out).size(), 1u);
  EXPECT_EQ(spark_->read().parquet(out).count().ValueOrDie(), 1);
  auto bad = df.write().mode("foo").parquet(out);
  EXPECT_TRUE(HasErrorClass(bad, "INVALID_SAVE_MODE"));
  EXPECT_EQ(bad.message(),
            "[INVALID_SAVE_MODE] The specified save mode \"foo\" is invalid. Valid save modes "
            "include \"append\", \"overwrite\", \"ignore\", \"error\", \"errorifexists\", and "
            "\"default\".");
  EXPECT_FALSE(fs::exists(out + "/_temporary"));
}

TEST_F(IoTest, OverwriteWhileReadingTheSameFolder) {
  auto df = Frame("id INT", {"[1, 2, 3]"});
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().parquet(out).ok());
  auto read = spark_->read().parquet(out).filter("id > 1");
  ASSERT_TRUE(read.write().mode("overwrite").parquet(out).ok());
  EXPECT_EQ(spark_->read().parquet(out).count().ValueOrDie(), 2);
}

TEST_F(IoTest, ParquetRoundTripKeepsTypes) {
  auto df = Frame("i INT, l BIGINT, d DOUBLE, s STRING, b BOOLEAN, dt DATE, t TIMESTAMP, "
                  "dec DECIMAL(10,2), arr ARRAY<INT>, st STRUCT<x: INT, y: STRING>",
                  {"[1, null]", "[10000000000, 2]", "[1.5, null]", "[\"x\", null]",
                   "[true, false]", "[19724, null]", "[1704103200000000, null]",
                   "[\"1.50\", null]", "[[1, null], null]", "[{\"x\": 1, \"y\": \"a\"}, null]"});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().parquet(out).ok());
  auto parts = PartFiles(out);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(std::regex_match(parts[0],
                               std::regex("part-00000-[0-9a-f-]{36}-c000\\.snappy\\.parquet")));
  auto back = spark_->read().parquet(out);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()),
            "i INT,l BIGINT,d DOUBLE,s STRING,b BOOLEAN,dt DATE,t TIMESTAMP,dec DECIMAL(10,2),"
            "arr ARRAY<INT>,st STRUCT<x: INT, y: STRING>");
  auto original = df.collect().ValueOrDie();
  auto read = back.collect().ValueOrDie();
  EXPECT_EQ(Rows(*original), Rows(*read));
  // A user schema selects and casts columns by name, case-insensitively; missing ones are null.
  auto selected = spark_->read().schema("L bigint, I bigint, missing string").parquet(out);
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  EXPECT_EQ(Rows(*selected.collect().ValueOrDie()),
            (std::vector<std::string>{"10000000000|1|null", "2|null|null"}));
}

TEST_F(IoTest, PartitionByWritesEscapedFoldersAndReadsThemBack) {
  auto df = Frame("id INT, p STRING, q DOUBLE, v STRING",
                  {"[1, 2, 3, 4, 5]", "[\"a/b=c:d%\", \"\", null, \"2024-01-01\", \"1\"]",
                   "[null, 1.5, 2.0, 3.0, 4.0]", "[\"x\", \"y\", \"z\", \"w\", \"v\"]"});
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().partitionBy({"p", "q"}).parquet(out).ok());
  EXPECT_EQ(FileNames(out), (std::vector<std::string>{"_SUCCESS", "p=1", "p=2024-01-01",
                                                       "p=__HIVE_DEFAULT_PARTITION__",
                                                       "p=a%2Fb%3Dc%3Ad%25"}));
  EXPECT_EQ(FileNames(out + "/p=__HIVE_DEFAULT_PARTITION__"),
            (std::vector<std::string>{"q=1.5", "q=2.0"}));
  EXPECT_EQ(FileNames(out + "/p=a%2Fb%3Dc%3Ad%25"),
            (std::vector<std::string>{"q=__HIVE_DEFAULT_PARTITION__"}));
  auto parts = PartFiles(out + "/p=1/q=4.0");
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(std::regex_match(parts[0],
                               std::regex("part-00000-[0-9a-f-]{36}\\.c000\\.snappy\\.parquet")));
  auto back = spark_->read().parquet(out);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()), "id INT,v STRING,p STRING,q DOUBLE");
  auto rows = Rows(*back.orderBy({functions::col("id")}).collect().ValueOrDie());
  EXPECT_EQ(rows, (std::vector<std::string>{"1|x|a/b=c:d%|null", "2|y|null|1.5", "3|z|null|2",
                                            "4|w|2024-01-01|3", "5|v|1|4"}));
}

TEST_F(IoTest, PartitionValueTypesAreInferred) {
  auto df = spark_->range(1).selectExpr(
      {"1 AS id", "TIMESTAMP'2024-01-01 10:00:00' AS t", "DATE'2024-01-01' AS d",
       "10000000000L AS l", "1.5D AS x", "true AS b"});
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().partitionBy({"t", "d", "l", "x", "b"}).json(out).ok());
  EXPECT_TRUE(fs::exists(out + "/t=2024-01-01 10%3A00%3A00/d=2024-01-01/l=10000000000/x=1.5/b=true"));
  auto back = spark_->read().json(out);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()),
            "id BIGINT,t TIMESTAMP,d DATE,l BIGINT,x DOUBLE,b STRING");
}

TEST_F(IoTest, PartitionByUnknownColumnFails) {
  auto df = Frame("id INT", {"[1]"});
  auto status = df.write().partitionBy({"nope"}).parquet(dir_ / "out");
  EXPECT_TRUE(HasErrorClass(status, "COLUMN_NOT_FOUND"));
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  EXPECT_TRUE(HasErrorClass(df.write().partitionBy({"id"}).parquet(dir_ / "out2"),
                            "ALL_PARTITION_COLUMNS_NOT_ALLOWED"));
}

TEST_F(IoTest, ReadErrors) {
  auto missing = spark_->read().json(dir_ / "nope");
  EXPECT_TRUE(HasErrorClass(missing.status(), "PATH_NOT_FOUND"));
  EXPECT_EQ(missing.status().message(),
            "[PATH_NOT_FOUND] Path does not exist: file:" + (dir_ / "nope") + ".");
  auto glob = spark_->read().json(dir_ / "nope*/x");
  EXPECT_TRUE(HasErrorClass(glob.status(), "PATH_NOT_FOUND"));
  auto unknown = spark_->read().format("foo").load(dir_.path());
  EXPECT_TRUE(HasErrorClass(unknown.status(), "DATA_SOURCE_NOT_FOUND"));
  EXPECT_EQ(unknown.status().message().rfind(
                "[DATA_SOURCE_NOT_FOUND] Failed to find the data source: foo.", 0),
            0u);
  auto bad_flag = spark_->read().option("header", "foo").csv(dir_.path());
  EXPECT_FALSE(bad_flag.ok());
  EXPECT_NE(bad_flag.status().message().find("header flag can be true or false"),
            std::string::npos);
  auto bad_schema = spark_->read().schema("a intt").json(dir_.path());
  EXPECT_TRUE(HasErrorClass(bad_schema.status(), "UNSUPPORTED_DATATYPE"));
  EXPECT_TRUE(HasErrorClass(spark_->read().parquet(dir_.path()).status(),
                            "UNABLE_TO_INFER_SCHEMA"));
}

TEST_F(IoTest, GlobsAndFileSchemes) {
  dir_.Write("in/a.json", "{\"x\":1}\n");
  dir_.Write("in/b.json", "{\"x\":2}\n");
  dir_.Write("in/c.txt", "{\"x\":3}\n");
  EXPECT_EQ(spark_->read().json(dir_ / "in/*.json").count().ValueOrDie(), 2);
  EXPECT_EQ(spark_->read().json(dir_ / "in/{a,c}.*").count().ValueOrDie(), 2);
  EXPECT_EQ(spark_->read().json("file:" + (dir_ / "in")).count().ValueOrDie(), 3);
  EXPECT_EQ(spark_->read().option("pathGlobFilter", "*.txt").json(dir_ / "in").count()
                .ValueOrDie(),
            1);
}

TEST_F(IoTest, JsonInParquetOut) {
  std::string lines;
  for (int i = 0; i < 1000; ++i) {
    lines += "{\"id\":" + std::to_string(i) + ",\"name\":\"n" + std::to_string(i % 7) +
             "\",\"ts\":\"2024-01-01T00:00:0" + std::to_string(i % 10) + "Z\"}\n";
  }
  dir_.Write("in/part1.json", lines);
  auto df = spark_->read().schema("id BIGINT, name STRING, ts TIMESTAMP").json(dir_ / "in");
  ASSERT_TRUE(df.write().partitionBy({"name"}).parquet(dir_ / "out").ok());
  auto back = spark_->read().parquet(dir_ / "out");
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()), "id BIGINT,ts TIMESTAMP,name STRING");
  EXPECT_EQ(back.count().ValueOrDie(), 1000);
  EXPECT_EQ(back.filter("name = 'n3'").count().ValueOrDie(), 143);
}

TEST_F(IoTest, CsvWriteQuotesLikeSpark) {
  auto df = Frame("s STRING", {"[\"a\\\\b\", \"x y\", \"  pad  \", \"\", null, \"q\\\"q\", "
                               "\"line\\nbreak\", \"#c\"]"});
  std::string out = dir_ / "out";
  ASSERT_TRUE(df.write().csv(out).ok());
  auto parts = PartFiles(out);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(ReadText(out + "/" + parts[0]),
            "a\\b\nx y\npad\n\"\"\n\n\"q\\\"q\"\n\"line\nbreak\"\n\"#c\"\n");
}

TEST_F(IoTest, TextAndOrcRoundTrips) {
  auto df = Frame("value STRING", {"[\"one\", \"two\"]"});
  ASSERT_TRUE(df.write().text(dir_ / "text").ok());
  auto parts = PartFiles(dir_ / "text");
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].substr(parts[0].size() - 9), "-c000.txt");
  EXPECT_EQ(Rows(*spark_->read().text(dir_ / "text").collect().ValueOrDie()),
            (std::vector<std::string>{"one", "two"}));
  auto wide = Frame("a INT, b STRING", {"[1]", "[\"x\"]"});
  EXPECT_FALSE(wide.write().text(dir_ / "text2").ok());

  auto typed = Frame("i INT, s STRING, t TIMESTAMP", {"[1, null]", "[\"x\", \"y\"]",
                                                      "[1704103200000000, null]"});
  ASSERT_TRUE(typed.write().orc(dir_ / "orc").ok());
  auto orc_parts = PartFiles(dir_ / "orc");
  ASSERT_EQ(orc_parts.size(), 1u);
  EXPECT_EQ(orc_parts[0].substr(orc_parts[0].size() - 16), "-c000.snappy.orc");
  auto back = spark_->read().orc(dir_ / "orc");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()), "i INT,s STRING,t TIMESTAMP");
  EXPECT_EQ(Rows(*back.collect().ValueOrDie()), Rows(*typed.collect().ValueOrDie()));
  // A schema asking for some of the file's columns, in another order, and one it lacks: only
  // those are decoded, by name; the missing one is null.
  auto some = spark_->read().schema("t TIMESTAMP, i INT, gone STRING").orc(dir_ / "orc");
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  EXPECT_EQ(Rows(*some.collect().ValueOrDie()),
            Rows(*typed.selectExpr({"t", "i", "CAST(NULL AS STRING) AS gone"})
                      .collect()
                      .ValueOrDie()));
}

}  // namespace
}  // namespace sluice::testing
