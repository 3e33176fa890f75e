// The console sink's text, byte for byte as Spark 4.0.1 prints it. The expected texts are
// Spark's output of
//   spark.readStream.format("rate-micro-batch").option("rowsPerBatch", N)
//     .option("numPartitions", 1).option("startTimestamp", 1700000000123).load()
//     [.selectExpr(...)].writeStream.format("console")[.option(...)].trigger(availableNow=True)
// with spark.sql.session.timeZone=America/Los_Angeles.
#include "sluice/sinks/console/console_sink.h"

#include <sstream>

#include <gtest/gtest.h>

#include "sluice/sources/rate/rate_rows.h"
#include "support/batch_stream_fixture.h"

namespace sluice::sinks {
namespace {

constexpr char kZone[] = "America/Los_Angeles";

// The rows of one rate-micro-batch batch of `rows` rows, split into record batches of 7 rows
// so that the sink has to gather the rows it shows across them.
std::vector<std::shared_ptr<arrow::RecordBatch>> RateRows(int64_t rows) {
  sources::RateRange range;
  range.range_end = rows;
  range.start_time_ms = 1700000000123;
  auto reader = sources::MakeRateReader(range, /*max_rows=*/7);
  auto batches = reader->ToRecordBatches();
  EXPECT_TRUE(batches.ok());
  return *batches;
}

std::string Print(const formats::OptionMap& options,
                  std::vector<std::shared_ptr<arrow::RecordBatch>> batches,
                  std::shared_ptr<arrow::Schema> schema = sources::RateSchema(),
                  int64_t batch_id = 0, int64_t* output_rows = nullptr) {
  std::ostringstream out;
  auto sink = MakeConsoleSink(options, &out, kZone);
  EXPECT_TRUE(sink.ok()) << sink.status().ToString();
  testing::InMemoryBatchStream stream(std::move(schema), std::move(batches));
  auto added = (*sink)->AddBatch(batch_id, stream, OutputMode::kAppend);
  EXPECT_TRUE(added.ok()) << added.ToString();
  if (output_rows != nullptr) *output_rows = (*sink)->last_output_rows();
  return out.str();
}

const std::string kBanner = "-------------------------------------------\n";

TEST(ConsoleSinkTest, ShowsTheFirstTwentyRowsAndSaysSo) {
  std::string expected = kBanner + "Batch: 0\n" + kBanner +
                         "+--------------------+-----+\n"
                         "|           timestamp|value|\n"
                         "+--------------------+-----+\n";
  for (int i = 0; i < 20; ++i) {
    std::string value = std::to_string(i);
    expected += "|2023-11-14 14:13:...|" + std::string(5 - value.size(), ' ') + value + "|\n";
  }
  expected += "+--------------------+-----+\n";
  int64_t output_rows = 0;
  EXPECT_EQ(Print({}, RateRows(25), sources::RateSchema(), 0, &output_rows),
            expected + "only showing top 20 rows\n");
  EXPECT_EQ(output_rows, 25);  // Spark's numOutputRows counts every row, shown or not
  // With exactly 20 rows there is no footer, and println leaves a blank line.
  EXPECT_EQ(Print({}, RateRows(20)), expected + "\n");
}

TEST(ConsoleSinkTest, HonoursNumRows) {
  EXPECT_EQ(Print({{"numRows", "2"}}, RateRows(5), sources::RateSchema(), 7),
            kBanner + "Batch: 7\n" + kBanner +
                "+--------------------+-----+\n"
                "|           timestamp|value|\n"
                "+--------------------+-----+\n"
                "|2023-11-14 14:13:...|    0|\n"
                "|2023-11-14 14:13:...|    1|\n"
                "+--------------------+-----+\n"
                "only showing top 2 rows\n");
  const std::string none = kBanner + "Batch: 0\n" + kBanner +
                           "+---------+-----+\n"
                           "|timestamp|value|\n"
                           "+---------+-----+\n"
                           "+---------+-----+\n";
  EXPECT_EQ(Print({{"numRows", "0"}}, RateRows(5)), none + "only showing top 0 rows\n");
  EXPECT_EQ(Print({{"NUMROWS", "-1"}}, RateRows(5)), none + "only showing top 0 rows\n");
  // An empty batch still gets its banner and header.
  EXPECT_EQ(Print({}, {}), none + "\n");
}

TEST(ConsoleSinkTest, TruncateFalseShowsWholeCellsLeftAligned) {
  EXPECT_EQ(Print({{"truncate", "false"}}, RateRows(3)),
            kBanner + "Batch: 0\n" + kBanner +
                "+-----------------------+-----+\n"
                "|timestamp              |value|\n"
                "+-----------------------+-----+\n"
                "|2023-11-14 14:13:20.123|0    |\n"
                "|2023-11-14 14:13:20.123|1    |\n"
                "|2023-11-14 14:13:20.123|2    |\n"
                "+-----------------------+-----+\n\n");
}

// selectExpr("value", "case when value=1 then null else repeat('abcdefghij',
// cast(value+2 as int)) end as s", "cast(value as double)/3 as d",
// "cast(value as decimal(10,2)) as dec", "cast(timestamp as date) as dt", "timestamp",
// "value % 2 = 0 as b", "array(value, value) as arr", "named_struct('a', value, 'b', 'x') as st",
// "map('k', value) as m") over 3 rows.
TEST(ConsoleSinkTest, RendersValuesAsShowDoes) {
  auto schema = arrow::schema(
      {arrow::field("value", arrow::int64()), arrow::field("s", arrow::utf8()),
       arrow::field("d", arrow::float64()), arrow::field("dec", arrow::decimal128(10, 2)),
       arrow::field("dt", arrow::date32()),
       arrow::field("timestamp", arrow::timestamp(arrow::TimeUnit::MICRO, "UTC")),
       arrow::field("b", arrow::boolean()),
       arrow::field("arr", arrow::list(arrow::field("element", arrow::int64()))),
       arrow::field("st", arrow::struct_({arrow::field("a", arrow::int64()),
                                          arrow::field("b", arrow::utf8())})),
       arrow::field("m", arrow::map(arrow::utf8(), arrow::int64()))});
  auto batch = testing::MakeBatch(
      schema, {"[0, 1, 2]",
               "[\"abcdefghijabcdefghij\", null, "
               "\"abcdefghijabcdefghijabcdefghijabcdefghij\"]",
               "[0.0, 0.3333333333333333, 0.6666666666666666]", "[\"0.00\", \"1.00\", \"2.00\"]",
               "[19675, 19675, 19675]",
               "[1700000000123000, 1700000000123000, 1700000000123000]",
               "[true, false, true]", "[[0, 0], [1, 1], [2, 2]]",
               "[{\"a\": 0, \"b\": \"x\"}, {\"a\": 1, \"b\": \"x\"}, {\"a\": 2, \"b\": \"x\"}]",
               "[[[\"k\", 0]], [[\"k\", 1]], [[\"k\", 2]]]"});
  EXPECT_EQ(
      Print({}, {batch}, schema),
      kBanner + "Batch: 0\n" + kBanner +
          "+-----+--------------------+------------------+----+----------+--------------------+"
          "-----+------+------+--------+\n"
          "|value|                   s|                 d| dec|        dt|           timestamp|"
          "    b|   arr|    st|       m|\n"
          "+-----+--------------------+------------------+----+----------+--------------------+"
          "-----+------+------+--------+\n"
          "|    0|abcdefghijabcdefghij|               0.0|0.00|2023-11-14|2023-11-14 14:13:...|"
          " true|[0, 0]|{0, x}|{k -> 0}|\n"
          "|    1|                NULL|0.3333333333333333|1.00|2023-11-14|2023-11-14 14:13:...|"
          "false|[1, 1]|{1, x}|{k -> 1}|\n"
          "|    2|abcdefghijabcdefg...|0.6666666666666666|2.00|2023-11-14|2023-11-14 14:13:...|"
          " true|[2, 2]|{2, x}|{k -> 2}|\n"
          "+-----+--------------------+------------------+----+----------+--------------------+"
          "-----+------+------+--------+\n\n");
}

TEST(ConsoleSinkTest, CountsFullWidthCharactersTwiceAndEscapesTabs) {
  auto schema =
      arrow::schema({arrow::field("jp", arrow::utf8()), arrow::field("t", arrow::utf8())});
  auto batch = testing::MakeBatch(schema, {"[\"日本語テキストです\", \"日本語テキストです\"]",
                                           "[\"tab\\there\", \"tab\\there\"]"});
  EXPECT_EQ(Print({}, {batch}, schema), kBanner + "Batch: 0\n" + kBanner +
                                           "+------------------+---------+\n"
                                           "|                jp|        t|\n"
                                           "+------------------+---------+\n"
                                           "|日本語テキストです|tab\\there|\n"
                                           "|日本語テキストです|tab\\there|\n"
                                           "+------------------+---------+\n\n");
}

TEST(ConsoleSinkTest, RejectsBadOptionsWithSparksMessages) {
  std::ostringstream out;
  auto rows = MakeConsoleSink({{"numRows", "x"}}, &out, kZone);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().message(), "For input string: \"x\" (option 'numRows')");
  auto truncate = MakeConsoleSink({{"truncate", "x"}}, &out, kZone);
  ASSERT_FALSE(truncate.ok());
  EXPECT_EQ(truncate.status().message(), "x is not a boolean string. (option 'truncate')");
  EXPECT_FALSE(MakeConsoleSink({}, &out, "Not/AZone").ok());
}

TEST(ConsoleSinkTest, PrintsNothingWhenTheBatchFails) {
  std::ostringstream out;
  auto sink = MakeConsoleSink({}, &out, kZone);
  ASSERT_TRUE(sink.ok());
  testing::InMemoryBatchStream failing(sources::RateSchema(), {},
                                       arrow::Status::Invalid("upstream failed"));
  EXPECT_FALSE((*sink)->AddBatch(0, failing, OutputMode::kAppend).ok());
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace sluice::sinks
