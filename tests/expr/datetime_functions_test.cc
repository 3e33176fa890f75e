// Date and time functions. Expected values computed by Apache Spark 4.0.1 (ANSI mode on).
#include <gtest/gtest.h>

#include "support/canonical_values.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

using testing::HasErrorClass;

class DatetimeFunctionsTest : public testing::SessionTest {
 protected:
  std::vector<std::string> Eval(const std::vector<std::string>& exprs) {
    auto table = Frame("id INT", {"[1]"}).selectExpr(exprs).collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    std::vector<std::string> values;
    if (!table.ok()) return values;
    for (const auto& column : (*table)->columns()) {
      values.push_back(testing::CanonicalText(*column->chunk(0), 0));
    }
    return values;
  }
  arrow::Status EvalError(const std::string& expr) {
    return Frame("id INT", {"[1]"}).selectExpr({expr}).collect().status();
  }
  void Zone(const std::string& zone) {
    ASSERT_TRUE(spark_->conf().set("spark.sql.session.timeZone", zone).ok());
  }
};

TEST_F(DatetimeFunctionsTest, FieldsInTheSessionZone) {
  Zone("America/Los_Angeles");
  EXPECT_EQ(Eval({"year(cast('2025-01-01T07:59:59Z' AS TIMESTAMP))",
                  "hour(cast('2024-03-10T10:00:00Z' AS TIMESTAMP))",
                  "dayofweek(cast('2024-01-07' AS DATE))", "weekday(cast('2024-01-07' AS DATE))",
                  "weekofyear(cast('2021-01-03' AS DATE))", "hour('2024-01-01 10:11:12')",
                  "year('2024-05-06 10:11')"}),
            (std::vector<std::string>{"2024", "3", "1", "6", "53", "10", "2024"}));
}

TEST_F(DatetimeFunctionsTest, DateFormatOfAColumnRowByRow) {
  // Rows of one unit (a day, an hour) in a row, then into the next, across a change to summer
  // time within a day, backwards, and before 1970: a row formats as it would alone.
  Zone("America/Los_Angeles");
  auto rows = Frame("s STRING", {R"(["2024-03-09T07:59:59.999999Z", "2024-03-09T08:00:00Z",
                                     "2024-03-09T08:00:00.5Z", "2024-03-10T09:59:59Z",
                                     "2024-03-10T10:00:00Z", "2024-03-10T06:59:59Z",
                                     "1969-12-31T23:59:59Z", null])"})
                  .selectExpr({"date_format(cast(s AS TIMESTAMP), 'yyyy-MM-dd') AS day",
                               "date_format(cast(s AS TIMESTAMP), 'yyyy-MM-dd HH') AS hour",
                               "date_format(cast(s AS TIMESTAMP), 'HH:mm:ss.SSS') AS time"})
                  .collect();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  auto column = [&](int i) {
    std::vector<std::string> values;
    const auto& chunk = *(*rows)->column(i)->chunk(0);
    for (int64_t row = 0; row < chunk.length(); ++row) {
      values.push_back(testing::CanonicalText(chunk, row));
    }
    return values;
  };
  EXPECT_EQ(column(0), (std::vector<std::string>{"\"2024-03-08\"", "\"2024-03-09\"",
                                                 "\"2024-03-09\"", "\"2024-03-10\"",
                                                 "\"2024-03-10\"", "\"2024-03-09\"",
                                                 "\"1969-12-31\"", "null"}));
  EXPECT_EQ(column(1), (std::vector<std::string>{"\"2024-03-08 23\"", "\"2024-03-09 00\"",
                                                 "\"2024-03-09 00\"", "\"2024-03-10 01\"",
                                                 "\"2024-03-10 03\"", "\"2024-03-09 22\"",
                                                 "\"1969-12-31 15\"", "null"}));
  EXPECT_EQ(column(2), (std::vector<std::string>{"\"23:59:59.999\"", "\"00:00:00.000\"",
                                                 "\"00:00:00.500\"", "\"01:59:59.000\"",
                                                 "\"03:00:00.000\"", "\"22:59:59.000\"",
                                                 "\"15:59:59.000\"", "null"}));
}

TEST_F(DatetimeFunctionsTest, DateFormatPatterns) {
  const std::string ts = "cast('2024-07-01T12:00:00Z' AS TIMESTAMP)";
  const std::string pattern = "'yyyy-MM-dd HH:mm:ss z VV XXX Z O'";
  Zone("America/Los_Angeles");
  EXPECT_EQ(Eval({"date_format(" + ts + ", " + pattern + ")"}),
            (std::vector<std::string>{
                "\"2024-07-01 05:00:00 PDT America/Los_Angeles -07:00 -0700 GMT-7\""}));
  Zone("+01:00");
  EXPECT_EQ(Eval({"date_format(" + ts + ", " + pattern + ")"}),
            (std::vector<std::string>{"\"2024-07-01 13:00:00 +01:00 +01:00 +01:00 +0100 GMT+1\""}));
  Zone("UTC");
  EXPECT_EQ(Eval({"date_format(" + ts + ", " + pattern + ")"}),
            (std::vector<std::string>{"\"2024-07-01 12:00:00 UTC UTC Z +0000 GMT\""}));
  EXPECT_TRUE(HasErrorClass(EvalError("date_format(" + ts + ", 'EEEEE')"),
                            "INVALID_DATETIME_PATTERN.LENGTH"));
  EXPECT_TRUE(HasErrorClass(EvalError("date_format(" + ts + ", 'YYYY-ww')"),
                            "INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN"));
}

TEST_F(DatetimeFunctionsTest, ParsingWithPatterns) {
  EXPECT_EQ(Eval({"to_timestamp('Jan 5 2024 3:04:05 PM', 'MMM d yyyy h:mm:ss a')",
                  "to_timestamp('20240105150405', 'yyyyMMddHHmmss')",
                  "to_timestamp('2024-01-05 America/New_York', 'yyyy-MM-dd VV')",
                  "to_timestamp('24-01-05', 'yy-MM-dd')",
                  "to_timestamp('2024-01-05 12', 'yyyy-MM-dd[ HH]')",
                  "to_timestamp('2024-01-05', 'yyyy-MM-dd[ HH]')",
                  "to_date('2024-01-01T23:30:00-08:00', \"yyyy-MM-dd'T'HH:mm:ssXXX\")"}),
            (std::vector<std::string>{
                "\"2024-01-05T15:04:05.000000Z\"", "\"2024-01-05T15:04:05.000000Z\"",
                "\"2024-01-05T05:00:00.000000Z\"", "\"2024-01-05T00:00:00.000000Z\"",
                "\"2024-01-05T12:00:00.000000Z\"", "\"2024-01-05T00:00:00.000000Z\"",
                "\"2024-01-02\""}));
  auto mismatch = EvalError("to_timestamp('2024-01-01', 'dd/MM/yyyy')");
  ASSERT_TRUE(HasErrorClass(mismatch, "CANNOT_PARSE_TIMESTAMP"));
  EXPECT_EQ(mismatch.message(),
            "[CANNOT_PARSE_TIMESTAMP] Text '2024-01-01' could not be parsed at index 2. Use "
            "`try_to_timestamp` to tolerate invalid input string and return NULL instead.");
  EXPECT_NE(EvalError("to_timestamp('2024-02-30', 'yyyy-MM-dd')")
                .message()
                .find("could not be parsed: Invalid date 'FEBRUARY 30'"),
            std::string::npos);
  EXPECT_NE(EvalError("to_timestamp('2024-01-05 25:00', 'yyyy-MM-dd HH:mm')")
                .message()
                .find("Invalid value for HourOfDay (valid values 0 - 23): 25"),
            std::string::npos);
  EXPECT_TRUE(HasErrorClass(EvalError("to_timestamp('not a time')"), "CAST_INVALID_INPUT"));
  EXPECT_EQ(Eval({"try_to_timestamp('2024-01-01', 'dd/MM/yyyy')"}),
            (std::vector<std::string>{"null"}));
}

TEST_F(DatetimeFunctionsTest, TruncationAroundDaylightSaving) {
  Zone("America/Los_Angeles");
  const std::string ts = "cast('2024-11-03T09:30:00Z' AS TIMESTAMP)";
  EXPECT_EQ(Eval({"date_trunc('HOUR', " + ts + ")", "date_trunc('DAY', " + ts + ")",
                  "date_trunc('WEEK', " + ts + ")", "date_trunc('bogus', " + ts + ")"}),
            (std::vector<std::string>{"\"2024-11-03T09:00:00.000000Z\"",
                                      "\"2024-11-03T07:00:00.000000Z\"",
                                      "\"2024-10-28T07:00:00.000000Z\"", "null"}));
  EXPECT_EQ(Eval({"trunc(cast('2024-05-17' AS DATE), 'YEAR')",
                  "trunc(cast('2024-05-17' AS DATE), 'Q')",
                  "trunc(cast('2024-05-17' AS DATE), 'QUARTER')",
                  "trunc(cast('2024-05-17' AS DATE), 'WEEK')"}),
            (std::vector<std::string>{"\"2024-01-01\"", "null", "\"2024-04-01\"",
                                      "\"2024-05-13\""}));
}

TEST_F(DatetimeFunctionsTest, DateArithmetic) {
  EXPECT_EQ(Eval({"add_months(cast('2024-01-31' AS DATE), 1)",
                  "add_months(cast('2024-03-31' AS DATE), -13)",
                  "last_day(cast('2024-02-10' AS DATE))",
                  "next_day(cast('2024-05-17' AS DATE), 'MON')",
                  "next_day(cast('2024-05-17' AS DATE), 'FRI')",
                  "date_add(cast('2024-02-28' AS DATE), 1)",
                  "date_sub(cast('2024-03-01' AS DATE), 1)",
                  "datediff(cast('2024-03-01' AS DATE), cast('2024-02-28' AS DATE))"}),
            (std::vector<std::string>{"\"2024-02-29\"", "\"2023-02-28\"", "\"2024-02-29\"",
                                      "\"2024-05-20\"", "\"2024-05-24\"", "\"2024-02-29\"",
                                      "\"2024-02-29\"", "2"}));
  EXPECT_EQ(Eval({"months_between(cast('2024-03-31 10:00:00' AS TIMESTAMP), "
                  "cast('2024-02-29 00:00:00' AS TIMESTAMP))",
                  "months_between(cast('2024-03-15' AS DATE), cast('2024-01-31' AS DATE))",
                  "make_date(2024, 2, 29)"}),
            (std::vector<std::string>{"1", "1.4838709699999999", "\"2024-02-29\""}));
  auto bad_date = EvalError("make_date(2023, 2, 29)");
  ASSERT_TRUE(HasErrorClass(bad_date, "DATETIME_FIELD_OUT_OF_BOUNDS"));
  EXPECT_NE(bad_date.message().find("Invalid date 'February 29' as '2023' is not a leap year"),
            std::string::npos);
}

TEST_F(DatetimeFunctionsTest, EpochConversions) {
  EXPECT_EQ(Eval({"timestamp_millis(1704103200123)", "timestamp_micros(1704103200123456)",
                  "unix_millis(cast('2024-01-01T10:00:00.123456Z' AS TIMESTAMP))",
                  "unix_micros(cast('1969-12-31T23:59:59.5Z' AS TIMESTAMP))",
                  "unix_seconds(cast('1969-12-31T23:59:59.5Z' AS TIMESTAMP))",
                  "unix_date(cast('2024-01-01' AS DATE))", "date_from_unix_date(19723)",
                  "from_unixtime(0)", "unix_timestamp('2024-01-01 10:00:00')"}),
            (std::vector<std::string>{"\"2024-01-01T10:00:00.123000Z\"",
                                      "\"2024-01-01T10:00:00.123456Z\"", "1704103200123",
                                      "-500000", "-1", "19723", "\"2024-01-01\"",
                                      "\"1970-01-01 00:00:00\"", "1704103200"}));
  EXPECT_EQ(Eval({"from_utc_timestamp(cast('2024-07-01 12:00:00' AS TIMESTAMP), "
                  "'America/Los_Angeles')",
                  "to_utc_timestamp(cast('2024-07-01 12:00:00' AS TIMESTAMP), "
                  "'America/Los_Angeles')",
                  "from_utc_timestamp(cast('2024-07-01 12:00:00' AS TIMESTAMP), '+05:30')"}),
            (std::vector<std::string>{"\"2024-07-01T05:00:00.000000Z\"",
                                      "\"2024-07-01T19:00:00.000000Z\"",
                                      "\"2024-07-01T17:30:00.000000Z\""}));
}

}  // namespace
}  // namespace sluice
