// Arithmetic operators and the math functions' type rules. Expected values and types computed by
// Apache Spark 4.0.1 (ANSI mode on).
#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class ArithmeticTest : public FunctionCallTest {
 protected:
  /// The result type of `name(args)` as Spark prints it.
  std::string ResultType(const std::string& name, std::vector<expr::BoundExprPtr> args) {
    auto bound = Resolve(name, std::move(args));
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    return bound.ok() ? types::SimpleString(*(*bound)->type()) : "<error>";
  }
};

TEST_F(ArithmeticTest, IntegralLiteralsMeetDecimalsWithTheirOwnDigits) {
  auto p = Col("decimal(4,2)", R"(["1.25", "-99.99"])", "p");
  ExpectCall("+", {p, Lit("int", "1")}, "decimal(5,2)", R"(["2.25", "-98.99"])");
  ExpectCall("+", {Lit("int", "1"), p}, "decimal(5,2)", R"(["2.25", "-98.99"])");
  ExpectCall("*", {p, Lit("int", "2")}, "decimal(6,2)", R"(["2.50", "-199.98"])");
  // A tinyint literal keeps tinyint's decimal(3,0).
  ExpectCall("+", {p, Lit("tinyint", "1")}, "decimal(6,2)", R"(["2.25", "-98.99"])");
  ExpectCall("*", {p, Lit("bigint", "100000000000")}, "decimal(17,2)",
             R"(["125000000000.00", "-9999000000000.00"])");
  ExpectCall("-", {p, Lit("int", "0")}, "decimal(5,2)", R"(["1.25", "-99.99"])");
  // A column keeps its type's full width.
  EXPECT_EQ(ResultType("+", {p, Col("int", "[1, 1]")}), "decimal(13,2)");
}

TEST_F(ArithmeticTest, DecimalResultsRoundHalfAwayFromZero) {
  auto r = Col("decimal(38,18)", R"(["-0.0000005", "0.0000005", "-1", "2"])", "r");
  auto e = Col("decimal(38,18)", R"(["1", "1", "3", "3"])", "e");
  ExpectCall("*", {r, e}, "decimal(38,6)",
             R"(["-0.000001", "0.000001", "-3.000000", "6.000000"])");
  ExpectCall("/", {r, e}, "decimal(38,6)",
             R"(["-0.000001", "0.000001", "-0.333333", "0.666667"])");
  Reset();
  auto p = Col("decimal(10,2)", R"(["-1.00", "-2.00", "2.00"])", "p");
  ExpectCall("/", {p, Lit("int", "3")}, "decimal(14,6)",
             R"(["-0.333333", "-0.666667", "0.666667"])");
  ExpectCall("/", {p, Lit("int", "7")}, "decimal(14,6)",
             R"(["-0.142857", "-0.285714", "0.285714"])");
}

TEST_F(ArithmeticTest, HighPrecisionDecimalProductsAndQuotients) {
  auto r = Col("decimal(38,18)", R"(["1.000000000000000001", "12345.678901234567890123", "-3.3"])");
  auto e = Col("decimal(38,18)", R"(["2.5", "0.000000000000000001", "3.3"])");
  ExpectCall("*", {r, e}, "decimal(38,6)", R"(["2.500000", "0.000000", "-10.890000"])");
  ExpectCall("/", {r, e}, "decimal(38,6)",
             R"(["0.400000", "12345678901234567890123.000000", "-1.000000"])");
  ExpectCall("+", {r, e}, "decimal(38,17)",
             R"(["3.50000000000000000", "12345.67890123456789012", "0.00000000000000000"])");
}

TEST_F(ArithmeticTest, DecimalOverflowAndDivisionByZero) {
  ExpectError("*", {Col("decimal(38,0)", R"(["10000000000000000000000000000000000000"])"),
                    Col("decimal(10,0)", R"(["100"])")},
              "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
  Reset();
  ExpectError("/", {Col("decimal(10,2)", R"(["1.00"])"), Lit("int", "0")}, "DIVIDE_BY_ZERO");
}

// Results computed in 128 bits (no rounding needed) up to the last digit of the precision, and
// past it: an overflow of 128 bits or of the precision is still NUMERIC_VALUE_OUT_OF_RANGE.
TEST_F(ArithmeticTest, DecimalResultsAtTheLimitOfTheirPrecision) {
  auto price = Col("bigint", "[12345678, -12345678, 9223372036854775807]");
  ExpectCall("*", {Col("decimal(3,3)", R"(["0.908", "0.908", "-0.999"])"), price},
             "decimal(24,3)",
             R"(["11209875.624", "-11209875.624", "-9214148664817921031.193"])");
  Reset();
  const std::string nines(38, '9');
  auto max = [&] { return Col("decimal(38,0)", "[\"" + nines + "\", \"-" + nines + "\"]"); };
  ExpectCall("-", {max(), Col("decimal(38,0)", R"(["1", "-1"])")}, "decimal(38,0)",
             "[\"" + nines.substr(1) + "8\", \"-" + nines.substr(1) + "8\"]");
  Reset();
  ExpectError("+", {max(), Col("decimal(38,0)", R"(["1", "0"])")},
              "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
  Reset();
  ExpectError("-", {max(), Col("decimal(38,0)", R"(["0", "1"])")},
              "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
  Reset();
  // Beyond 128 bits: 10^37 * 10^19.
  ExpectError("*", {Col("decimal(38,0)", R"(["10000000000000000000000000000000000000"])"),
                    Col("decimal(20,0)", R"(["10000000000000000000"])")},
              "NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION");
}

// Rows in range are computed without a check of each row's outcome; one row out of range
// among them sends the whole column row by row, where it alone is null (try_multiply). A
// null in an input does the same.
TEST_F(ArithmeticTest, ADecimalRowOutOfRangeAmongRowsInRange) {
  ExpectCall("try_multiply",
             {Col("decimal(38,0)", R"(["2", "10000000000000000000000000000000000000", "-3"])"),
              Col("decimal(20,0)", R"(["5", "10000000000000000000", "7"])")},
             "decimal(38,0)", R"(["10", null, "-21"])");
  Reset();
  ExpectCall("*", {Lit("decimal(3,3)", R"("0.908")", "0.908"), Col("bigint", "[12, null, -5]")},
             "decimal(24,3)", R"(["10.896", null, "-4.540"])");
}

// A sum, difference or product whose exact digits fit in 38 can neither round nor overflow:
// it never fails, so AND, OR, CASE and coalesce evaluate it on every row instead of gathering
// the rows they need first (Nexmark q14's `0.908 * price < 50000000`). Past 38 digits, and a
// quotient or remainder (a zero divisor), it can fail.
TEST_F(ArithmeticTest, DecimalArithmeticWhoseDigitsAlwaysFitCannotFail) {
  auto can_fail = [&](const std::string& op, const std::string& left, const std::string& right) {
    auto zero = [](const std::string& type) {
      return type.starts_with("decimal") ? R"(["0"])" : "[0]";
    };
    auto bound = Resolve(op, {Col(left, zero(left)), Col(right, zero(right))});
    EXPECT_TRUE(bound.ok()) << bound.status();
    Reset();
    return bound.ok() && (*bound)->can_fail();
  };
  EXPECT_FALSE(can_fail("*", "decimal(3,3)", "bigint"));  // decimal(24,3)
  EXPECT_FALSE(can_fail("+", "decimal(10,2)", "decimal(35,0)"));  // decimal(38,2)
  EXPECT_TRUE(can_fail("+", "decimal(10,2)", "decimal(36,0)"));  // 39 digits
  EXPECT_FALSE(can_fail("-", "decimal(37,0)", "decimal(37,0)"));
  EXPECT_TRUE(can_fail("-", "decimal(38,0)", "decimal(1,0)"));
  EXPECT_TRUE(can_fail("*", "decimal(20,0)", "decimal(18,0)"));
  EXPECT_TRUE(can_fail("/", "decimal(3,3)", "decimal(3,0)"));
  EXPECT_TRUE(can_fail("%", "decimal(3,3)", "decimal(3,0)"));
}

TEST_F(ArithmeticTest, TinyintAndSmallintOverflowNamesBothOperands) {
  auto b = Col("tinyint", "[100, -3]");
  auto s = Col("smallint", "[-17000, 7]");
  ExpectCall("-", {s, s}, "smallint", "[0, 0]");
  auto result = Call("+", {b, b});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorClassOf(result.status()).value_or(""), "BINARY_ARITHMETIC_OVERFLOW");
  EXPECT_NE(result.status().message().find(
                "100S + 100S caused overflow. Use `try_add` to ignore overflow problem and "
                "return NULL."),
            std::string::npos)
      << result.status().ToString();
  ExpectError("*", {s, Lit("smallint", "2")}, "BINARY_ARITHMETIC_OVERFLOW");
  Reset();
  ExpectCall("*", {Col("tinyint", "[-3, null]"), Lit("tinyint", "2")}, "tinyint", "[-6, null]");
}

TEST_F(ArithmeticTest, PmodOfDecimalsAndIntegers) {
  auto p = Col("decimal(6,2)", R"(["5.50", "-5.50", "-0.10"])", "p");
  ExpectCall("pmod", {p, Lit("int", "2")}, "decimal(3,2)", R"(["1.50", "0.50", "1.90"])");
  ExpectCall("pmod", {p, Lit("decimal(2,2)", R"("-0.75")")}, "decimal(2,2)",
             R"(["0.25", "-0.25", "-0.10"])");
  ExpectCall("%", {p, Lit("int", "2")}, "decimal(3,2)", R"(["1.50", "-1.50", "-0.10"])");
  Reset();
  ExpectCall("pmod", {Col("int", "[-7, -2147483648]"), Col("int", "[3, -2147483647]")}, "int",
             "[2, -1]");
  Reset();
  ExpectCall("pmod", {Col("tinyint", "[-128, -7]"), Col("tinyint", "[127, -128]")}, "tinyint",
             "[126, -7]");
}

TEST_F(ArithmeticTest, FloatMeetingAnIntegerIsDouble) {
  auto f = Col("float", "[0.1]");
  ExpectCall("+", {f, Col("int", "[1]")}, "double", "[1.1000000014901161]");
  ExpectCall("*", {f, Lit("int", "2")}, "double", "[0.20000000298023224]");
  ExpectCall("*", {f, f}, "float", "[0.010000001]");
  EXPECT_EQ(ResultType("greatest", {f, Lit("int", "1")}), "double");
}

TEST_F(ArithmeticTest, FloorAndCeilWithAScale) {
  auto d = Col("double", "[2.55, -2.55]");
  auto i = Col("int", "[123, -123]");
  ExpectCall("floor", {d, Lit("int", "1")}, "decimal(17,1)", R"(["2.5", "-2.6"])");
  ExpectCall("ceil", {d, Lit("int", "1")}, "decimal(17,1)", R"(["2.6", "-2.5"])");
  ExpectCall("floor", {i, Lit("int", "-1")}, "decimal(11,0)", R"(["120", "-130"])");
  ExpectCall("ceil", {i, Lit("int", "-1")}, "decimal(11,0)", R"(["130", "-120"])");
  Reset();
  auto p = Col("decimal(10,3)", R"(["-1.005", "1234.567"])");
  ExpectCall("floor", {p, Lit("int", "1")}, "decimal(9,1)", R"(["-1.1", "1234.5"])");
  ExpectCall("ceil", {p, Lit("int", "-2")}, "decimal(8,0)", R"(["0", "1300"])");
}

TEST_F(ArithmeticTest, RoundingDecimalTiesGoAwayFromZero) {
  auto p = Col("decimal(10,3)", R"(["-2.500", "-1.005", "2.500"])");
  ExpectCall("round", {p}, "decimal(8,0)", R"(["-3", "-1", "3"])");
  ExpectCall("round", {p, Lit("int", "2")}, "decimal(10,2)", R"(["-2.50", "-1.01", "2.50"])");
  ExpectCall("bround", {p}, "decimal(8,0)", R"(["-2", "-1", "2"])");
}

TEST_F(ArithmeticTest, RoundingFloatsGoesThroughTheirDoubleDigits) {
  auto f = Col("float", "[-1.55, 0.15, 2.675]");
  ExpectCall("round", {f, Lit("int", "1")}, "float", "[-1.5, 0.2, 2.7]");
  ExpectCall("bround", {f, Lit("int", "1")}, "float", "[-1.5, 0.2, 2.7]");
  ExpectCall("round", {f, Lit("int", "2")}, "float", "[-1.55, 0.15, 2.67]");
}

TEST_F(ArithmeticTest, PowFollowsJava) {
  auto x = Col("double", R"([1.0, -1.0, "NaN", 1.0, 2.0])");
  auto y = Col("double", "[NaN, Infinity, 0.0, -Infinity, Infinity]");
  ExpectCall("pow", {x, y}, "double", R"(["NaN", "NaN", 1.0, "NaN", "Infinity"])");
}

TEST_F(ArithmeticTest, NanvlKeepsFloats) {
  auto f = Col("float", R"(["NaN", 1.5])");
  auto g = Col("float", "[2.5, 2.5]");
  ExpectCall("nanvl", {f, g}, "float", "[2.5, 1.5]");
  ExpectCall("nanvl", {f, Lit("int", "1")}, "double", "[1.0, 1.5]");
}

}  // namespace
}  // namespace sluice::testing
