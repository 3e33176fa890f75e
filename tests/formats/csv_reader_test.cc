// Expected rows come from Apache Spark 4.0.1 reading the same file (spark.read.csv).
#include <gtest/gtest.h>

#include "formats/format_test_support.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/common/errors.h"
#include "sluice/types/ddl_writer.h"
#include "support/session_fixture.h"

namespace sluice::testing {
namespace {

constexpr char kCsv[] =
    "id,name,score,when,day\n1,alice,1.5,2024-01-01 10:00:00,2024-01-01\n"
    "2,\"b,ob\",,2024-01-01T10:00:00Z,2024-1-2\n3,\"\",2.5\nx,\"q\\\"uote\",3,bad,bad\n"
    "# comment\n\n4, sp ,4.0,2024-01-01,2024-01-03,extra\n";

class CsvReaderTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    dir_.Write("a.csv", kCsv);
  }
  std::vector<std::string> Collect(const DataFrame& df) {
    EXPECT_TRUE(df.ok()) << df.status().ToString();
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? Rows(**table) : std::vector<std::string>{};
  }
  ScratchDir dir_;
};

TEST_F(CsvReaderTest, HeaderGivesStringColumns) {
  auto df = spark_->read().option("header", true).csv(dir_.path());
  EXPECT_EQ(types::ToDdl(*df.schema().ValueOrDie()),
            "id STRING,name STRING,score STRING,when STRING,day STRING");
  EXPECT_EQ(Collect(df), (std::vector<std::string>{
                             "1|alice|1.5|2024-01-01 10:00:00|2024-01-01",
                             "2|b,ob|null|2024-01-01T10:00:00Z|2024-1-2",
                             "3|null|2.5|null|null", "x|q\"uote|3|bad|bad",
                             "# comment|null|null|null|null",
                             "4| sp |4.0|2024-01-01|2024-01-03"}));
}

TEST_F(CsvReaderTest, NoHeaderNamesColumnsByPosition) {
  auto df = spark_->read().csv(dir_.path());
  EXPECT_EQ(types::ToDdl(*df.schema().ValueOrDie()),
            "_c0 STRING,_c1 STRING,_c2 STRING,_c3 STRING,_c4 STRING");
  EXPECT_EQ(Collect(df).size(), 7u);
}

TEST_F(CsvReaderTest, InferSchemaWithComments) {
  auto df = spark_->read()
                .option("header", true)
                .option("comment", "#")
                .option("inferSchema", true)
                .csv(dir_.path());
  EXPECT_EQ(types::ToDdl(*df.schema().ValueOrDie()),
            "id STRING,name STRING,score DOUBLE,when STRING,day STRING");
  EXPECT_EQ(Collect(df).size(), 5u);
}

TEST_F(CsvReaderTest, PermissiveAndDropMalformed) {
  const std::string schema =
      "id int, name string, score double, when timestamp, day date, _corrupt_record string";
  auto permissive =
      spark_->read().option("header", true).option("comment", "#").schema(schema).csv(
          dir_.path());
  auto rows = Collect(permissive);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[2].substr(rows[2].size() - 8), "3,\"\",2.5");
  EXPECT_EQ(rows[3].substr(0, 15), "null|q\"uote|3|n");
  EXPECT_NE(rows[3].find("x,\"q\\\"uote\",3,bad,bad"), std::string::npos);
  EXPECT_NE(rows[4].find("4, sp ,4.0,2024-01-01,2024-01-03,extra"), std::string::npos);
  EXPECT_EQ(rows[4].substr(0, 9), "4| sp |4|");
  auto dropped = spark_->read()
                     .option("header", true)
                     .option("comment", "#")
                     .option("mode", "DROPMALFORMED")
                     .schema(schema)
                     .csv(dir_.path());
  EXPECT_EQ(Collect(dropped).size(), 2u);
  auto failfast = spark_->read()
                      .option("header", true)
                      .option("comment", "#")
                      .option("mode", "FAILFAST")
                      .schema("id int, name string, score double, when timestamp, day date")
                      .csv(dir_.path())
                      .collect();
  EXPECT_TRUE(HasErrorClass(failfast.status(), "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION"));
  EXPECT_NE(failfast.status().message().find("3,\"\",2.5"), std::string::npos);
}

TEST_F(CsvReaderTest, NullValueAndEmptyValue) {
  auto df = spark_->read()
                .option("header", true)
                .option("nullValue", "alice")
                .option("emptyValue", "EMPTY")
                .csv(dir_.path());
  auto rows = Collect(df);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0], "1|null|1.5|2024-01-01 10:00:00|2024-01-01");
  EXPECT_EQ(rows[1], "2|b,ob|null|2024-01-01T10:00:00Z|2024-1-2");
  EXPECT_EQ(rows[2], "3|EMPTY|2.5|null|null");
}

TEST_F(CsvReaderTest, RoundTripWithHeader) {
  auto df = Frame("a INT, b STRING, c DOUBLE", {"[1, 2]", "[\"x,y\", null]", "[1.5, null]"});
  ASSERT_TRUE(df.write().option("header", true).csv(dir_ / "out").ok());
  auto back = spark_->read().option("header", true).option("inferSchema", true).csv(dir_ / "out");
  EXPECT_EQ(types::ToDdl(*back.schema().ValueOrDie()), "a INT,b STRING,c DOUBLE");
  EXPECT_EQ(Collect(back), (std::vector<std::string>{"1|x,y|1.5", "2|null|null"}));
}

}  // namespace
}  // namespace sluice::testing
