// CAST with Spark 4 semantics. Expected values computed by Apache Spark 4.0.1.
#include <gtest/gtest.h>

#include "support/canonical_values.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

using testing::HasErrorClass;

class CastTest : public testing::SessionTest {
 protected:
  // The canonical text of every value of every column of `exprs` over a one-row table.
  std::vector<std::string> Eval(const std::vector<std::string>& exprs) {
    auto df = Frame("id INT", {"[1]"}).selectExpr(exprs);
    auto table = df.collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    std::vector<std::string> values;
    if (!table.ok()) return values;
    for (const auto& column : (*table)->columns()) {
      values.push_back(testing::CanonicalText(*column->chunk(0), 0));
    }
    return values;
  }
  arrow::Status EvalError(const std::string& expr) {
    auto table = Frame("id INT", {"[1]"}).selectExpr({expr}).collect();
    return table.status();
  }
  void Zone(const std::string& zone) {
    ASSERT_TRUE(spark_->conf().set("spark.sql.session.timeZone", zone).ok());
  }
  void Ansi(bool on) {
    ASSERT_TRUE(spark_->conf().set("spark.sql.ansi.enabled", on ? "true" : "false").ok());
  }
};

TEST_F(CastTest, StringToNumbers) {
  EXPECT_EQ(Eval({"cast(' 12 ' AS INT)", "cast('-2147483648' AS INT)", "cast('+7' AS BIGINT)",
                  "cast('1e3' AS DOUBLE)", "cast('-inf' AS DOUBLE)", "cast('1.5d' AS DOUBLE)",
                  "cast('0.1' AS FLOAT)"}),
            (std::vector<std::string>{"12", "-2147483648", "7", "1000", "\"-Infinity\"", "1.5",
                                      "0.10000000149011612"}));
  EXPECT_EQ(Eval({"cast('1.235' AS DECIMAL(10,2))", "cast('-1.235' AS DECIMAL(10,2))",
                  "cast('9999.994' AS DECIMAL(5,0))", "cast('.5' AS DECIMAL(5,0))"}),
            (std::vector<std::string>{"\"1.24\"", "\"-1.24\"", "\"10000\"", "\"1\""}));
}

// A decimal that holds every value of the integer type scales each value without a check;
// a narrower one checks each and fails on a value beyond it.
TEST_F(CastTest, IntegersToDecimals) {
  EXPECT_EQ(Eval({"cast(-9223372036854775808L AS DECIMAL(20,0))",
                  "cast(2147483647 AS DECIMAL(12,2))",
                  "cast(cast(-128 AS TINYINT) AS DECIMAL(5,2))",
                  "cast(cast(NULL AS BIGINT) AS DECIMAL(20,0))", "cast(99999 AS DECIMAL(5,0))",
                  "cast(-7L AS DECIMAL(3,1))"}),
            (std::vector<std::string>{"\"-9223372036854775808\"", "\"2147483647.00\"",
                                      "\"-128.00\"", "null", "\"99999\"", "\"-7.0\""}));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(123456 AS DECIMAL(5,0))"),
                            "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION"));
}

TEST_F(CastTest, MalformedStringsFailUnderAnsi) {
  auto status = EvalError("cast('abc' AS INT)");
  ASSERT_TRUE(HasErrorClass(status, "CAST_INVALID_INPUT"));
  EXPECT_EQ(status.message(),
            "[CAST_INVALID_INPUT] The value 'abc' of the type \"STRING\" cannot be cast to \"INT\" "
            "because it is malformed. Correct the value as per the syntax, or change its target "
            "type. Use `try_cast` to tolerate malformed input and return NULL instead.");
  for (const char* expr : {"cast('1.5' AS INT)", "cast('1.' AS INT)", "cast('' AS BIGINT)",
                           "cast('128' AS TINYINT)", "cast('1.2.3' AS DOUBLE)",
                           "cast('maybe' AS BOOLEAN)", "cast('2024-02-30' AS DATE)",
                           "cast('2024-01-01 25:00:00' AS TIMESTAMP)",
                           "cast('2024-01-01 10:00:00 Mars/Olympus' AS TIMESTAMP)"}) {
    EXPECT_TRUE(HasErrorClass(EvalError(expr), "CAST_INVALID_INPUT")) << expr;
  }
  EXPECT_TRUE(HasErrorClass(EvalError("cast('123456789.5' AS DECIMAL(10,2))"),
                            "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION"));
}

TEST_F(CastTest, OverflowMessagesRenderTheValue) {
  auto status = EvalError("cast(300 AS TINYINT)");
  ASSERT_TRUE(HasErrorClass(status, "CAST_OVERFLOW"));
  EXPECT_EQ(status.message(),
            "[CAST_OVERFLOW] The value 300 of the type \"INT\" cannot be cast to \"TINYINT\" due "
            "to an overflow. Use `try_cast` to tolerate overflow and return NULL instead.");
  EXPECT_NE(EvalError("cast(1e10D AS INT)").message().find("The value 1.0E10D of the type"),
            std::string::npos);
  EXPECT_NE(EvalError("cast(3000000000L AS INT)").message().find("The value 3000000000L"),
            std::string::npos);
  EXPECT_TRUE(HasErrorClass(EvalError("cast(cast('NaN' AS DOUBLE) AS INT)"), "CAST_OVERFLOW"));
  auto decimal = EvalError("cast(cast(12345.6 AS DECIMAL(10,3)) AS DECIMAL(5,1))");
  EXPECT_EQ(decimal.message(),
            "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION]  12345.600 cannot be represented as "
            "Decimal(5, 1). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
            "this error, and return NULL instead.");
}

TEST_F(CastTest, NumericConversions) {
  EXPECT_EQ(Eval({"cast(2147483647.9D AS INT)", "cast(-1.9D AS BIGINT)",
                  "cast(cast(-1.999 AS DECIMAL(10,3)) AS INT)", "cast(1.005D AS DECIMAL(5,2))",
                  "cast(cast(-2.675 AS FLOAT) AS DECIMAL(10,9))", "cast(cast('NaN' AS DOUBLE) AS DECIMAL(5,2))",
                  "cast(cast(999.950 AS DECIMAL(10,3)) AS DECIMAL(5,1))", "cast(1e39D AS FLOAT)"}),
            (std::vector<std::string>{"2147483647", "-1", "-1", "\"1.01\"", "\"-2.674999952\"",
                                      "null", "\"1000.0\"", "\"Infinity\""}));
}

TEST_F(CastTest, AnsiOffAndTryCast) {
  EXPECT_EQ(Eval({"try_cast('abc' AS INT)", "try_cast(300 AS TINYINT)",
                  "try_cast('2024-13-01' AS DATE)"}),
            (std::vector<std::string>{"null", "null", "null"}));
  Ansi(false);
  EXPECT_EQ(Eval({"cast('abc' AS INT)", "cast(300 AS TINYINT)", "cast('1.9' AS INT)",
                  "cast(1e10D AS INT)", "cast(-129.5D AS TINYINT)", "cast('2024-13-01' AS DATE)"}),
            (std::vector<std::string>{"null", "44", "1", "2147483647", "127", "null"}));
}

// Spark 4.0.1: a timestamp past microseconds' range is invalid (null under try_cast); the
// largest year that fits still reads. Found by fuzzing the CSV reader (UBSan: overflow).
TEST_F(CastTest, TimestampsPastTheMicrosecondRangeAreInvalid) {
  EXPECT_EQ(Eval({"cast(try_cast('999996-06-10 00:00:00' AS TIMESTAMP) AS STRING)",
                  "cast(try_cast('294247-01-10 04:00:54' AS TIMESTAMP) AS STRING)",
                  "cast(try_cast('294248-01-10' AS TIMESTAMP_NTZ) AS STRING)"}),
            (std::vector<std::string>{"null", "\"+294247-01-10 04:00:54\"", "null"}));
}

TEST_F(CastTest, ToStringMatchesSpark) {
  EXPECT_EQ(Eval({"cast(1e10D AS STRING)", "cast(1e-5D AS STRING)", "cast(123456789.0D AS STRING)",
                  "cast(100.0D AS STRING)", "cast(0.001D AS STRING)", "cast(-0.0D AS STRING)",
                  "cast(cast(1.1 AS FLOAT) AS STRING)", "cast(1.5e10f AS DOUBLE)",
                  "cast(cast(0 AS DECIMAL(38,18)) AS STRING)", "cast(true AS STRING)"}),
            (std::vector<std::string>{"\"1.0E10\"", "\"1.0E-5\"", "\"1.23456789E8\"",
                                      "\"100.0\"", "\"0.001\"", "\"-0.0\"", "\"1.1\"",
                                      "15000000512", "\"0.000000000000000000\"",
                                      "\"true\""}));
  EXPECT_EQ(Eval({"cast(array(1, null, 3) AS STRING)",
                  "cast(named_struct('a', 1, 'b', 'x') AS STRING)",
                  "cast(map('a', 1, 'b', null) AS STRING)",
                  "cast(array(array(1.5D), null) AS STRING)",
                  "cast(named_struct('a', array(1), 'b', map(1, named_struct('c', null))) AS STRING)"}),
            (std::vector<std::string>{"\"[1, null, 3]\"", "\"{1, x}\"", "\"{a -> 1, b -> null}\"",
                                      "\"[[1.5], null]\"", "\"{[1], {1 -> {null}}}\""}));
}

TEST_F(CastTest, TimestampsInTheSessionZone) {
  Zone("America/Los_Angeles");
  EXPECT_EQ(Eval({"cast(cast('2024-01-01T10:00:00.12Z' AS TIMESTAMP) AS STRING)",
                  "cast(cast('2050-07-01 12:00:00 UTC' AS TIMESTAMP) AS STRING)",
                  "cast(cast('2024-03-10 02:30:00' AS TIMESTAMP) AS STRING)",
                  "cast(cast('0001-01-01' AS DATE) AS TIMESTAMP)",
                  "cast(cast('2024-11-03T09:30:00Z' AS TIMESTAMP) AS DATE)",
                  "cast(cast('2024-01-01 10:00:00' AS TIMESTAMP_NTZ) AS TIMESTAMP)"}),
            (std::vector<std::string>{"\"2024-01-01 02:00:00.12\"", "\"2050-07-01 05:00:00\"",
                                      "\"2024-03-10 03:30:00\"",
                                      "\"0001-01-01T07:52:58.000000Z\"", "\"2024-11-03\"",
                                      "\"2024-01-01T18:00:00.000000Z\""}));
  Zone("+01:00");
  EXPECT_EQ(Eval({"cast(cast('2024-07-01 12:00:00 UTC' AS TIMESTAMP) AS STRING)",
                  "cast('2024-01-01 10:00:00 PST' AS TIMESTAMP)",
                  "cast('2024-01-01T10:00:00+0100' AS TIMESTAMP)"}),
            (std::vector<std::string>{"\"2024-07-01 13:00:00\"", "\"2024-01-01T18:00:00.000000Z\"",
                                      "\"2024-01-01T09:00:00.000000Z\""}));
}

TEST_F(CastTest, NumbersAndTimestamps) {
  EXPECT_EQ(Eval({"cast(1700000000L AS TIMESTAMP)", "cast(-0.000001D AS TIMESTAMP)",
                  "cast(cast(-1.5 AS DECIMAL(13,3)) AS TIMESTAMP)",
                  "cast(cast('1969-12-31T23:59:59.5Z' AS TIMESTAMP) AS BIGINT)",
                  "cast(cast('1969-12-31T23:59:59.5Z' AS TIMESTAMP) AS DOUBLE)"}),
            (std::vector<std::string>{"\"2023-11-14T22:13:20.000000Z\"",
                                      "\"1969-12-31T23:59:59.999999Z\"",
                                      "\"1969-12-31T23:59:58.500000Z\"", "-1", "-0.5"}));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(1e20D AS TIMESTAMP)"), "CAST_OVERFLOW"));
}

TEST_F(CastTest, DisallowedCastsAreAnalysisErrors) {
  EXPECT_TRUE(HasErrorClass(EvalError("cast(cast('2024-01-01' AS DATE) AS INT)"),
                            "DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION"));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(1 AS BINARY)"),
                            "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION"));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(true AS TIMESTAMP)"),
                            "DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION"));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(1.5D AS TIMESTAMP_NTZ)"),
                            "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION"));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(array(1) AS INT)"),
                            "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION"));
}

TEST_F(CastTest, NestedCastsAreElementWise) {
  EXPECT_EQ(Eval({"cast(array('1', '2') AS ARRAY<INT>)",
                  "cast(map('1', '2.5') AS MAP<INT, DOUBLE>)"}),
            (std::vector<std::string>{"[1, 2]", "[[1, 2.5]]"}));
  EXPECT_TRUE(HasErrorClass(EvalError("cast(array('1', 'x') AS ARRAY<INT>)"), "CAST_INVALID_INPUT"));
}

}  // namespace
}  // namespace sluice
