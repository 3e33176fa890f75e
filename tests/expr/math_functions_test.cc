// Expected values computed by Apache Spark 4.0.1 (ANSI mode on).
#include <cmath>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class MathFunctionsTest : public FunctionCallTest {};

TEST_F(MathFunctionsTest, Abs) {
  ExpectCall("abs", {Col("int", "[-5, 5, null]")}, "int", "[5, 5, null]");
  ExpectCall("abs", {Col("double", "[-1.5]", "d")}, "double", "[1.5]");
  Reset();
  ExpectCall("abs", {Col("decimal(3,2)", R"(["-1.50"])")}, "decimal(3,2)", R"(["1.50"])");
  Reset();
  ExpectCall("abs", {Col("string", R"(["-3"])")}, "double", "[3.0]");
  Reset();
  ExpectError("abs", {Col("int", "[-2147483648]")}, "ARITHMETIC_OVERFLOW");
  Reset();
  ExpectError("abs", {Col("tinyint", "[-128]")}, "ARITHMETIC_OVERFLOW");
  Reset();
  ExpectError("abs", {Col("bigint", "[-9223372036854775808]")}, "ARITHMETIC_OVERFLOW");
}

TEST_F(MathFunctionsTest, RoundDoublesThroughTheirDecimalForm) {
  auto d = Col("double", R"([2.5, -2.5, 0.5, -0.5, "NaN", 1e300])");
  ExpectCall("round", {d}, "double", R"([3.0, -3.0, 1.0, -1.0, "NaN", 1e300])");
  ExpectCall("bround", {d}, "double", R"([2.0, -2.0, 0.0, 0.0, "NaN", 1e300])");
  Reset();
  auto e = Col("double", "[0.125, 2.675, 1234.5678, 1e-20]");
  ExpectCall("round", {e, Lit("int", "2")}, "double", "[0.13, 2.68, 1234.57, 0.0]");
  ExpectCall("bround", {e, Lit("int", "2")}, "double", "[0.12, 2.68, 1234.57, 0.0]");
  ExpectCall("round", {e, Lit("int", "-2")}, "double", "[0.0, 0.0, 1200.0, 0.0]");
  ExpectCall("round", {e, Lit("int", "25")}, "double", "[0.125, 2.675, 1234.5678, 1e-20]");
  Reset();
  ExpectCall("round", {Col("float", "[1.5]")}, "float", "[2.0]");
}

TEST_F(MathFunctionsTest, RoundIntegersAndDecimals) {
  auto i = Col("int", "[15, -15, 125, 25, null]");
  ExpectCall("round", {i, Lit("int", "-1")}, "int", "[20, -20, 130, 30, null]");
  ExpectCall("bround", {i, Lit("int", "-1")}, "int", "[20, -20, 120, 20, null]");
  ExpectCall("round", {i}, "int", "[15, -15, 125, 25, null]");
  Reset();
  ExpectError("round", {Col("int", "[2147483647]"), Lit("int", "-1")}, "ARITHMETIC_OVERFLOW");
  Reset();
  ExpectCall("round", {Col("decimal(5,4)", R"(["1.2345"])"), Lit("int", "2")}, "decimal(4,2)",
             R"(["1.23"])");
  Reset();
  ExpectCall("round", {Col("decimal(3,2)", R"(["9.99"])"), Lit("int", "1")}, "decimal(3,1)",
             R"(["10.0"])");
  Reset();
  ExpectCall("round", {Col("decimal(9,4)", R"(["12345.6789"])"), Lit("int", "-2")},
             "decimal(6,0)", R"(["12300"])");
  Reset();
  ExpectCall("round", {Col("decimal(5,0)", R"(["99999"])"), Lit("int", "-5")}, "decimal(6,0)",
             R"(["100000"])");
  Reset();
  ExpectCall("round", {Col("decimal(6,3)", R"(["123.456"])"), Lit("int", "5")}, "decimal(7,3)",
             R"(["123.456"])");
  Reset();
  ExpectCall("bround", {Col("decimal(5,4)", R"(["1.2250"])"), Lit("int", "2")}, "decimal(4,2)",
             R"(["1.22"])");
}

TEST_F(MathFunctionsTest, FloorAndCeil) {
  auto d = Col("double", R"([1.5, -1.5, "NaN", 1e20])");
  ExpectCall("floor", {d}, "bigint", "[1, -2, 0, 9223372036854775807]");
  ExpectCall("ceil", {d}, "bigint", "[2, -1, 0, 9223372036854775807]");
  ExpectCall("ceiling", {d}, "bigint", "[2, -1, 0, 9223372036854775807]");
  Reset();
  ExpectCall("floor", {Col("int", "[5]")}, "bigint", "[5]");
  Reset();
  ExpectCall("floor", {Col("decimal(5,3)", R"(["12.345", "-0.500"])")}, "decimal(3,0)",
             R"(["12", "-1"])");
  Reset();
  ExpectCall("ceil", {Col("decimal(5,3)", R"(["-12.345"])")}, "decimal(3,0)", R"(["-12"])");
  Reset();
  ExpectCall("ceil", {Col("decimal(3,2)", R"(["9.99"])")}, "decimal(2,0)", R"(["10"])");
}

TEST_F(MathFunctionsTest, LogarithmsAreNullOutsideTheirDomain) {
  auto x = Col("double", "[1.0, 0.0, -1.0, 8.0, 1000.0]");
  ExpectCall("ln", {x}, "double", R"([0.0, null, null, 2.0794415416798357, 6.907755278982137])");
  ExpectCall("log2", {x}, "double", R"([0.0, null, null, 3.0, 9.965784284662087])");
  ExpectCall("log10", {x}, "double", R"([0.0, null, null, 0.9030899869919435, 3.0])");
  ExpectCall("log1p", {x}, "double",
             R"([0.6931471805599453, 0.0, null, 2.1972245773362196, 6.90875477931522])");
  ExpectCall("log", {Lit("int", "2"), x}, "double", R"([0.0, null, null, 3.0, 9.965784284662087])");
  ExpectCall("log", {Lit("int", "0"), x}, "double", "[null, null, null, null, null]");
}

TEST_F(MathFunctionsTest, FloatingFunctions) {
  ExpectCall("pow", {Lit("int", "2"), Lit("int", "10")}, "double", "[1024.0]");
  ExpectCall("power", {Lit("double", "2.5"), Lit("int", "2")}, "double", "[6.25]");
  ExpectCall("sqrt", {Lit("int", "16")}, "double", "[4.0]");
  ExpectCall("sqrt", {Lit("int", "-1")}, "double", R"(["NaN"])");
  ExpectCall("exp", {Lit("int", "1")}, "double", "[2.718281828459045]");
  ExpectCall("expm1", {Lit("int", "0")}, "double", "[0.0]");
  ExpectCall("asin", {Lit("int", "2")}, "double", R"(["NaN"])");
  ExpectCall("atan", {Lit("int", "1")}, "double", "[0.7853981633974483]");
  ExpectCall("atan2", {Lit("int", "1"), Lit("int", "1")}, "double", "[0.7853981633974483]");
  ExpectCall("degrees", {Lit("double", "3.141592653589793")}, "double", "[180.0]");
  ExpectCall("radians", {Lit("int", "180")}, "double", "[3.141592653589793]");
  ExpectCall("signum", {Lit("int", "-3")}, "double", "[-1.0]");
  ExpectCall("sign", {Lit("double", "0.0")}, "double", "[0.0]");
  ExpectCall("sinh", {Lit("int", "1")}, "double", "[1.1752011936438014]");
  ExpectCall("cbrt", {Lit("int", "27")}, "double", "[3.0]");
  ExpectCall("cot", {Lit("int", "1")}, "double", "[0.6420926159343306]");
  ExpectCall("hypot", {Lit("int", "3"), Lit("int", "4")}, "double", "[5.0]");
  ExpectCall("rint", {Lit("double", "2.5")}, "double", "[2.0]");
  ExpectCall("e", {}, "double", "[2.718281828459045]");
  ExpectCall("pi", {}, "double", "[3.141592653589793]");
}

TEST_F(MathFunctionsTest, GreatestAndLeastSkipNulls) {
  auto a = Col("int", "[1, null, null, 5]");
  auto b = Col("int", "[2, 3, null, 4]");
  ExpectCall("greatest", {a, b}, "int", "[2, 3, null, 5]");
  ExpectCall("least", {a, b}, "int", "[1, 3, null, 4]");
  ExpectCall("greatest", {a, Lit("double", "2.5")}, "double", "[2.5, 2.5, 2.5, 5.0]");
  ExpectCall("greatest", {Lit("string", R"("a")"), Lit("string", R"("b")")}, "string",
             R"(["b", "b", "b", "b"])");
  ExpectCall("least", {Lit("decimal(2,1)", R"("1.5")"), Lit("int", "2")}, "decimal(11,1)",
             R"(["1.5", "1.5", "1.5", "1.5"])");
  auto result = Resolve("greatest", {a});
  EXPECT_FALSE(result.ok());
}

TEST_F(MathFunctionsTest, PmodAndNans) {
  ExpectCall("pmod", {Col("int", "[-7, 7, null]"), Col("int", "[3, -3, 1]")}, "int",
             "[2, 1, null]");
  ExpectCall("pmod", {Lit("double", "-7.5"), Lit("int", "2")}, "double", "[0.5, 0.5, 0.5]");
  ExpectError("pmod", {Lit("int", "7"), Lit("int", "0")}, "DIVIDE_BY_ZERO");
  Reset();
  auto d = Col("double", R"(["NaN", 1.0, null])");
  ExpectCall("isnan", {d}, "boolean", "[true, false, false]");
  ExpectCall("nanvl", {d, Lit("double", "9.0")}, "double", "[9.0, 1.0, null]");
}

TEST_F(MathFunctionsTest, HexBinConv) {
  ExpectCall("hex", {Col("bigint", "[17, -1]")}, "string", R"(["11", "FFFFFFFFFFFFFFFF"])");
  Reset();
  ExpectCall("hex", {Col("string", R"(["Spark"])")}, "string", R"(["537061726B"])");
  Reset();
  ExpectCall("unhex", {Col("string", R"(["537061726B", "GG"])")}, "binary",
             R"(["Spark", null])");
  Reset();
  auto odd = Call("unhex", {Col("string", R"(["abc"])")});  // Spark: X'0ABC'
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(static_cast<const arrow::BinaryArray&>(**odd).GetView(0), std::string("\x0a\xbc"));
  Reset();
  ExpectCall("bin", {Col("bigint", "[13, -1]")}, "string",
             R"(["1101", "1111111111111111111111111111111111111111111111111111111111111111"])");
  Reset();
  auto n = Col("string", R"(["100", "-10", "ff", "zz", "12"])");
  auto from = Col("int", "[2, 16, 16, 36, 10]");
  auto to = Col("int", "[10, -10, 2, 10, 16]");
  ExpectCall("conv", {n, from, to}, "string", R"(["4", "-16", "11111111", "1295", "C"])");
}

TEST_F(MathFunctionsTest, FactorialBitwiseAndShifts) {
  ExpectCall("factorial", {Col("int", "[5, 20, 21, -1, 0]")}, "bigint",
             "[120, 2432902008176640000, null, null, 1]");
  Reset();
  auto five = Lit("int", "5");
  auto three = Lit("int", "3");
  ExpectCall("&", {five, three}, "int", "[1]");
  ExpectCall("|", {five, three}, "int", "[7]");
  ExpectCall("^", {five, three}, "int", "[6]");
  ExpectCall("~", {five}, "int", "[-6]");
  ExpectCall("&", {Lit("tinyint", "5"), Lit("tinyint", "3")}, "tinyint", "[1]");
  ExpectCall("shiftleft", {Lit("int", "1"), Lit("int", "10")}, "int", "[1024]");
  ExpectCall("shiftright", {Lit("int", "-16"), Lit("int", "2")}, "int", "[-4]");
  ExpectCall("shiftrightunsigned", {Lit("int", "-16"), Lit("int", "28")}, "int", "[15]");
  ExpectCall("shiftleft", {Lit("int", "1"), Lit("int", "33")}, "int", "[2]");
  ExpectCall("shiftleft", {Lit("bigint", "1"), Lit("int", "33")}, "bigint", "[8589934592]");
}

}  // namespace
}  // namespace sluice::testing
