// String functions against answers taken from Spark 4.0.1 (spark.sql("select ...") runs).
#include <gtest/gtest.h>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class StringFunctionsTest : public FunctionCallTest {
 protected:
  static expr::BoundExprPtr D(double value) { return Lit("double", std::to_string(value)); }

  // Expects the string result of a call on literals.
  void ExpectString(const std::string& name, std::vector<expr::BoundExprPtr> args,
                    const std::string& expected) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << name << ": " << result.status().ToString();
    ASSERT_EQ((*result)->length(), 1);
    ASSERT_TRUE((*result)->IsValid(0)) << name << " gave null";
    EXPECT_EQ(static_cast<const arrow::StringArray&>(**result).GetView(0), expected) << name;
  }
  void ExpectInt(const std::string& name, std::vector<expr::BoundExprPtr> args, int expected) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << name << ": " << result.status().ToString();
    ASSERT_TRUE((*result)->IsValid(0)) << name << " gave null";
    EXPECT_EQ(static_cast<const arrow::Int32Array&>(**result).Value(0), expected) << name;
  }
  void ExpectNull(const std::string& name, std::vector<expr::BoundExprPtr> args) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << name << ": " << result.status().ToString();
    EXPECT_TRUE((*result)->IsNull(0)) << name << " gave " << (*result)->ToString();
  }
};

TEST_F(StringFunctionsTest, LengthOfAReplaceOfLiteralsReadsTheTextItself) {
  // length(replace(s, 'c', '')) counts the occurrences in s; the replaced text is never built.
  // Its values are the golden case length_of_replace's.
  auto s = Col("string", R"(["accbc", "ünï c", null])");
  auto replace = Resolve("replace", {s, StringLit("c"), StringLit("")}).ValueOrDie();
  auto length = Resolve("length", {replace}).ValueOrDie();
  ASSERT_EQ(length->children().size(), 1u);
  EXPECT_EQ(length->children()[0], s);
  ExpectCall("length", {replace}, "int", "[2, 4, null]");
  // With a search that is not a literal, the replaced text is built and measured.
  auto by_column = Resolve("replace", {s, s, StringLit("")}).ValueOrDie();
  EXPECT_EQ(Resolve("length", {by_column}).ValueOrDie()->children()[0], by_column);
}

TEST_F(StringFunctionsTest, ConcatPropagatesNulls) {
  auto s = Col("string", R"(["abc", "", "ünï", null, "z", null])");
  auto u = Col("string", R"(["x", "", "日本", "y", null, null])");
  ExpectCall("concat", {s, u}, "string", R"(["abcx", "", "ünï日本", null, null, null])");
  ExpectCall("concat", {s, StringLit("-"), u}, "string",
             R"(["abc-x", "-", "ünï-日本", null, null, null])");
  ExpectCall("concat", {s, NullLit()}, "string", R"([null, null, null, null, null, null])");
}

TEST_F(StringFunctionsTest, ConcatOfLiteralsAndNumbers) {
  ExpectString("concat", {}, "");
  ExpectString("concat", {StringLit("a"), IntLit(1)}, "a1");
  ExpectNull("concat", {StringLit("a"), NullLit()});
}

TEST_F(StringFunctionsTest, ConcatWsSkipsNulls) {
  auto s = Col("string", R"(["abc", "", "ünï", null, "z", null])");
  auto u = Col("string", R"(["x", "", "日本", "y", null, null])");
  ExpectCall("concat_ws", {StringLit("-"), s, u}, "string", R"(["abc-x", "-", "ünï-日本", "y", "z", ""])");
  ExpectCall("concat_ws", {StringLit(","), s, NullLit(), u}, "string",
             R"(["abc,x", ",", "ünï,日本", "y", "z", ""])");
  ExpectCall("concat_ws", {NullLit(), s, u}, "string", R"([null, null, null, null, null, null])");
  ExpectCall("concat_ws", {StringLit("|")}, "string", R"(["", "", "", "", "", ""])");
}

TEST_F(StringFunctionsTest, ConcatWsFlattensArrays) {
  auto list = Col("array<string>", R"([["a", null, "b"], null, []])");
  auto s = Col("string", R"(["c", "d", null])");
  ExpectCall("concat_ws", {StringLit(","), list, NullLit(), s}, "string", R"(["a,b,c", "d", ""])");
}

TEST_F(StringFunctionsTest, SubstringFollowsSparkPositions) {
  auto s = Col("string", R"(["Hello World", "", "a😀b", "ünïcödé", null])");
  ExpectCall("substring", {s, IntLit(1), IntLit(3)}, "string", R"(["Hel", "", "a😀b", "ünï", null])");
  ExpectCall("substring", {s, IntLit(0), IntLit(3)}, "string", R"(["Hel", "", "a😀b", "ünï", null])");
  ExpectCall("substring", {s, IntLit(2)}, "string", R"(["ello World", "", "😀b", "nïcödé", null])");
  ExpectCall("substring", {s, IntLit(-3)}, "string", R"(["rld", "", "a😀b", "ödé", null])");
  ExpectCall("substring", {s, IntLit(-3), IntLit(2)}, "string", R"(["rl", "", "a😀", "öd", null])");
  ExpectCall("substring", {s, IntLit(-100), IntLit(3)}, "string", R"(["", "", "", "", null])");
  ExpectCall("substring", {s, IntLit(100), IntLit(2)}, "string", R"(["", "", "", "", null])");
  ExpectCall("substring", {s, IntLit(2), IntLit(-1)}, "string", R"(["", "", "", "", null])");
}

TEST_F(StringFunctionsTest, SubstringExtremes) {
  ExpectString("substring", {StringLit("abc"), IntLit(-2147483647 - 1), IntLit(2147483647)}, "ab");
  ExpectString("substring", {StringLit("abc"), IntLit(2147483647), IntLit(2147483647)}, "");
  ExpectString("substring", {StringLit("abc"), IntLit(1), IntLit(-2147483647 - 1)}, "");
  ExpectString("substring", {StringLit("日本語😀x"), IntLit(3), IntLit(2)}, "語😀");
  ExpectString("substring", {StringLit("abc"), StringLit("2"), IntLit(1)}, "b");
}

TEST_F(StringFunctionsTest, SubstringColumnArguments) {
  auto s = Col("string", R"(["abcdef", "abcdef", "abcdef", "abcdef", null, "日本語"])");
  auto p = Col("int", "[2, -2, null, 1, 1, 2]");
  auto l = Col("int", "[3, 1, 2, null, 1, 5]");
  ExpectCall("substring", {s, p, l}, "string", R"(["bcd", "e", null, null, null, "本語"])");
}

TEST_F(StringFunctionsTest, LeftAndRight) {
  ExpectString("left", {StringLit("abc"), IntLit(2)}, "ab");
  ExpectString("left", {StringLit("abc"), IntLit(-1)}, "");
  ExpectString("left", {StringLit("abc"), IntLit(10)}, "abc");
  ExpectString("right", {StringLit("abc"), IntLit(2)}, "bc");
  ExpectString("right", {StringLit("abc"), IntLit(0)}, "");
  ExpectString("right", {StringLit("abc"), IntLit(10)}, "abc");
  ExpectString("right", {StringLit("日本語"), IntLit(2)}, "本語");
  ExpectNull("right", {StringLit("abc"), NullLit()});
}

TEST_F(StringFunctionsTest, UpperAndLowerUseFullCaseMappings) {
  auto s = Col("string", R"(["Hello World", "straße", "İstanbul", "ünïcödé", "a😀b", null])");
  ExpectCall("upper", {s}, "string",
             R"(["HELLO WORLD", "STRASSE", "İSTANBUL", "ÜNÏCÖDÉ", "A😀B", null])");
  ExpectCall("lower", {s}, "string",
             R"(["hello world", "straße", "i̇stanbul", "ünïcödé", "a😀b", null])");
  Reset();
  ExpectString("upper", {StringLit("ﬁ")}, "FI");
  ExpectString("upper", {StringLit("ǅ")}, "Ǆ");
  ExpectString("lower", {StringLit("ΑΣ Α")}, "ας α");
  ExpectString("upper", {IntLit(123)}, "123");
}

TEST_F(StringFunctionsTest, UpperAndLowerOfAsciiColumns) {
  // All ASCII: mapped as a whole array, nulls kept.
  auto s = Col("string", R"(["Hello World", null, "", "@AZ[`az{", "nexmark.com/Q?X=1"])");
  ExpectCall("upper", {s}, "string", R"(["HELLO WORLD", null, "", "@AZ[`AZ{", "NEXMARK.COM/Q?X=1"])");
  ExpectCall("lower", {s}, "string", R"(["hello world", null, "", "@az[`az{", "nexmark.com/q?x=1"])");
}

TEST_F(StringFunctionsTest, Initcap) {
  ExpectString("initcap", {StringLit("hello WORLD  foo-bar")}, "Hello World  Foo-bar");
  ExpectString("initcap", {StringLit("ünï cöd")}, "Ünï Cöd");
  ExpectString("initcap", {StringLit("hello\tworld")}, "Hello\tworld");
  ExpectString("initcap", {StringLit("")}, "");
}

TEST_F(StringFunctionsTest, TrimRemovesSpacesOnly) {
  auto s = Col("string", "[\" a \", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"   \", null]");
  ExpectCall("trim", {s}, "string", "[\"a\", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
  ExpectCall("ltrim", {s}, "string", "[\"a \", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
  ExpectCall("rtrim", {s}, "string", "[\" a\", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
}

TEST_F(StringFunctionsTest, TrimWithCharacters) {
  // SQL argument order: trim(trimStr, str); btrim(str, trimStr).
  ExpectString("trim", {StringLit("x"), StringLit("xxaxx")}, "a");
  ExpectString("ltrim", {StringLit("x"), StringLit("xxaxx")}, "axx");
  ExpectString("rtrim", {StringLit("x"), StringLit("xxaxx")}, "xxa");
  ExpectString("trim", {StringLit("ab"), StringLit("abcba")}, "c");
  ExpectString("trim", {StringLit("日"), StringLit("日本日")}, "本");
  ExpectString("trim", {StringLit(""), StringLit(" a ")}, " a ");
  ExpectString("btrim", {StringLit("xxaxx"), StringLit("x")}, "a");
  ExpectNull("trim", {NullLit(), StringLit("a")});
}

TEST_F(StringFunctionsTest, Lengths) {
  auto s = Col("string", R"(["a😀b", "", "ü日", null])");
  ExpectCall("length", {s}, "int", "[3, 0, 2, null]");
  ExpectCall("char_length", {s}, "int", "[3, 0, 2, null]");
  ExpectCall("octet_length", {s}, "int", "[6, 0, 5, null]");
  ExpectCall("bit_length", {s}, "int", "[48, 0, 40, null]");
  Reset();
  ExpectInt("length", {IntLit(123)}, 3);
  ExpectInt("length", {Lit("binary", "\"ab\"")}, 2);
}

TEST_F(StringFunctionsTest, PadsAndTruncates) {
  auto s = Col("string", R"(["abc", "", "ünï", null])");
  ExpectCall("lpad", {s, IntLit(5), StringLit("*")}, "string", R"(["**abc", "*****", "**ünï", null])");
  ExpectCall("rpad", {s, IntLit(2), StringLit("*")}, "string", R"(["ab", "**", "ün", null])");
  ExpectCall("lpad", {s, IntLit(7), StringLit("xy")}, "string", R"(["xyxyabc", "xyxyxyx", "xyxyünï", null])");
  ExpectCall("rpad", {s, IntLit(7), StringLit("xy")}, "string", R"(["abcxyxy", "xyxyxyx", "ünïxyxy", null])");
  ExpectCall("lpad", {s, IntLit(5), StringLit("")}, "string", R"(["abc", "", "ünï", null])");
  ExpectCall("lpad", {s, IntLit(-1), StringLit("*")}, "string", R"(["", "", "", null])");
  ExpectCall("rpad", {s, IntLit(4)}, "string", R"(["abc ", "    ", "ünï ", null])");
  Reset();
  ExpectString("lpad", {StringLit("ü日😀"), IntLit(5), StringLit("😀")}, "😀😀ü日😀");
  ExpectString("rpad", {StringLit("ü日😀"), IntLit(4), StringLit("ab")}, "ü日😀a");
  ExpectNull("lpad", {StringLit("abc"), IntLit(5), NullLit()});
}

TEST_F(StringFunctionsTest, InstrAndLocate) {
  auto s = Col("string", R"(["Hello World", "Hello World", "", "a😀b", null, "a"])");
  auto u = Col("string", R"(["o", "", "", "b", "a", null])");
  ExpectCall("instr", {s, u}, "int", "[5, 1, 1, 3, null, null]");
  Reset();
  ExpectInt("instr", {StringLit("日本語語"), StringLit("語")}, 3);
  ExpectInt("locate", {StringLit("b"), StringLit("abcb")}, 2);
  ExpectInt("locate", {StringLit("b"), StringLit("abcb"), IntLit(3)}, 4);
  ExpectInt("locate", {StringLit("b"), StringLit("abcb"), IntLit(0)}, 0);
  ExpectInt("locate", {StringLit("b"), StringLit("abcb"), IntLit(10)}, 0);
  ExpectInt("locate", {StringLit(""), StringLit("abc"), IntLit(5)}, 1);
  ExpectInt("locate", {StringLit("b"), StringLit("abc"), NullLit()}, 0);
  ExpectNull("locate", {StringLit("b"), NullLit()});
}

TEST_F(StringFunctionsTest, Predicates) {
  auto s = Col("string", R"(["abc", "abc", null])");
  auto p = Col("string", R"(["ab", "", "a"])");
  ExpectCall("startswith", {s, p}, "boolean", "[true, true, null]");
  ExpectCall("endswith", {s, p}, "boolean", "[false, true, null]");
  ExpectCall("contains", {s, p}, "boolean", "[true, true, null]");
}

TEST_F(StringFunctionsTest, RepeatReverseReplaceTranslate) {
  ExpectString("repeat", {StringLit("ab"), IntLit(3)}, "ababab");
  ExpectString("repeat", {StringLit("ab"), IntLit(-1)}, "");
  ExpectString("reverse", {StringLit("ab😀ü")}, "ü😀ba");
  ExpectString("replace", {StringLit("abcabc"), StringLit("b"), StringLit("XY")}, "aXYcaXYc");
  ExpectString("replace", {StringLit("abcabc"), StringLit("b")}, "acac");
  ExpectString("replace", {StringLit("abc"), StringLit(""), StringLit("x")}, "abc");
  ExpectString("replace", {StringLit("aaaa"), StringLit("aa"), StringLit("b")}, "bb");
  ExpectString("translate", {StringLit("AaBbCc"), StringLit("abc"), StringLit("123")}, "A1B2C3");
  ExpectString("translate", {StringLit("abcde"), StringLit("aec"), StringLit("1")}, "1bd");
  ExpectString("translate", {StringLit("abcabc"), StringLit("aa"), StringLit("xy")}, "xbcxbc");
  ExpectString("translate", {StringLit("日本語"), StringLit("本"), StringLit("X")}, "日X語");
}

TEST_F(StringFunctionsTest, AsciiAndChr) {
  ExpectInt("ascii", {StringLit("a")}, 97);
  ExpectInt("ascii", {StringLit("")}, 0);
  ExpectInt("ascii", {StringLit("😀")}, 128512);
  ExpectString("chr", {IntLit(65)}, "A");
  ExpectString("chr", {IntLit(256 + 65)}, "A");
  ExpectString("chr", {IntLit(-1)}, "");
}

TEST_F(StringFunctionsTest, Base64) {
  ExpectString("base64", {StringLit("Spark SQL")}, "U3BhcmsgU1FM");
  ExpectString("base64", {StringLit("ü日")}, "w7zml6U=");
  auto decoded = Call("unbase64", {StringLit("U3Bhc msgU1F")});
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(static_cast<const arrow::BinaryArray&>(**decoded).GetView(0), "Spark SQ");
}

TEST_F(StringFunctionsTest, LevenshteinAndSoundex) {
  ExpectInt("levenshtein", {StringLit("kitten"), StringLit("sitting")}, 3);
  ExpectInt("levenshtein", {StringLit("kitten"), StringLit("sitting"), IntLit(2)}, -1);
  ExpectInt("levenshtein", {StringLit("日本"), StringLit("日本語")}, 1);
  ExpectString("soundex", {StringLit("Robert")}, "R163");
  ExpectString("soundex", {StringLit("Tymczak")}, "T522");
  ExpectString("soundex", {StringLit("Pfister")}, "P236");
  ExpectString("soundex", {StringLit("Ashcraft")}, "A261");
  ExpectString("soundex", {StringLit("a1b")}, "A100");
  ExpectString("soundex", {StringLit("123")}, "123");
}

TEST_F(StringFunctionsTest, FormatStringLikeJava) {
  auto s = Col("string", R"(["abc", "", null, "ü"])");
  auto i = Col("int", "[42, -7, null, 0]");
  auto d = Col("double", "[3.14159, -0.5, null, 1e10]");
  auto l = Col("bigint", "[10000000000, -1, null, 0]");
  ExpectCall("format_string", {StringLit("%s-%d"), s, i}, "string",
             R"(["abc-42", "--7", "null-null", "ü-0"])");
  ExpectCall("format_string", {StringLit("%05d"), i}, "string", R"(["00042", "-0007", " null", "00000"])");
  ExpectCall("format_string", {StringLit("%.2f"), d}, "string", R"(["3.14", "-0.50", "nu", "10000000000.00"])");
  ExpectCall("format_string", {StringLit("%10.3f|"), d}, "string",
             R"(["     3.142|", "    -0.500|", "       nul|", "10000000000.000|"])");
  ExpectCall("format_string", {StringLit("%-6s|"), s}, "string",
             R"(["abc   |", "      |", "null  |", "ü     |"])");
  ExpectCall("format_string", {StringLit("%x"), i}, "string", R"(["2a", "fffffff9", "null", "0"])");
  ExpectCall("format_string", {StringLit("%e"), d}, "string",
             R"(["3.141590e+00", "-5.000000e-01", "null", "1.000000e+10"])");
  ExpectCall("format_string", {StringLit("%,d"), l}, "string", R"(["10,000,000,000", "-1", "null", "0"])");
  ExpectCall("format_string", {StringLit("%s and %s"), s, d}, "string",
             R"(["abc and 3.14159", " and -0.5", "null and null", "ü and 1.0E10"])");
  ExpectCall("format_string", {StringLit("%2$s %1$s"), s, i}, "string",
             R"(["42 abc", "-7 ", "null null", "0 ü"])");
  ExpectCall("format_string", {StringLit("%b"), s}, "string", R"(["true", "true", "false", "true"])");
  ExpectCall("format_string", {StringLit("%%")}, "string", R"(["%", "%", "%", "%"])");
}

TEST_F(StringFunctionsTest, FormatStringFlags) {
  ExpectString("format_string", {StringLit("%o %X %x"), IntLit(8), IntLit(255), IntLit(-1)}, "10 FF ffffffff");
  ExpectString("format_string", {StringLit("%c"), IntLit(65)}, "A");
  ExpectString("format_string", {StringLit("%10s|%-10s|"), StringLit("ab"), StringLit("cd")}, "        ab|cd        |");
  ExpectString("format_string", {StringLit("%.3s"), StringLit("abcdef")}, "abc");
  ExpectString("format_string", {StringLit("%+d % d %(d"), IntLit(5), IntLit(5), IntLit(-5)}, "+5  5 (5)");
  ExpectString("format_string", {StringLit("%s"), D(0.1)}, "0.1");
  ExpectString("format_string", {StringLit("%s"), Lit("double", "1e-5")}, "1.0E-5");
  ExpectString("format_string", {StringLit("%S"), StringLit("abc")}, "ABC");
  ExpectString("format_string", {StringLit("%3$s %1$s"), StringLit("a"), StringLit("b"), StringLit("c")}, "c a");
  ExpectString("format_string", {StringLit("%s %<s"), StringLit("a")}, "a a");
  ExpectString("format_string", {StringLit("%-5d|%5d"), IntLit(42), IntLit(42)}, "42   |   42");
  ExpectString("format_string", {StringLit("%x"), Lit("tinyint", "-1")}, "ff");
  ExpectString("format_string", {StringLit("%x"), Lit("bigint", "-1")}, "ffffffffffffffff");
  ExpectString("format_string", {StringLit("%b %b %b"), Lit("boolean", "true"), NullLit(), StringLit("x")},
               "true false true");
  ExpectNull("format_string", {NullLit(), IntLit(1)});
  ExpectString("printf", {StringLit("%s=%d"), StringLit("x"), IntLit(3)}, "x=3");
}

TEST_F(StringFunctionsTest, FormatStringRoundsLikeJava) {
  // Java rounds the shortest decimal form half-up, unlike C's printf.
  ExpectString("format_string", {StringLit("%.1f"), D(0.25)}, "0.3");
  ExpectString("format_string", {StringLit("%.1f"), D(0.35)}, "0.4");
  ExpectString("format_string", {StringLit("%.0f"), D(2.5)}, "3");
  ExpectString("format_string", {StringLit("%.20f"), D(0.1)}, "0.10000000000000000000");
  ExpectString("format_string", {StringLit("%g"), D(1234.5678)}, "1234.57");
  ExpectString("format_string", {StringLit("%.3g"), Lit("double", "0.0001234")}, "0.000123");
  ExpectString("format_string", {StringLit("%g"), D(0.0)}, "0.00000");
  ExpectString("format_string", {StringLit("%g"), D(100000)}, "100000");
  ExpectString("format_string", {StringLit("%g"), D(1000000)}, "1.00000e+06");
  ExpectString("format_string", {StringLit("%g"), D(0.0001)}, "0.000100000");
  ExpectString("format_string", {StringLit("%g"), Lit("double", "0.00001")}, "1.00000e-05");
  ExpectString("format_string", {StringLit("%e"), D(0.0)}, "0.000000e+00");
  ExpectString("format_string", {StringLit("%.3e"), D(123456)}, "1.235e+05");
  ExpectString("format_string", {StringLit("%08.2f"), D(-3.5)}, "-0003.50");
  ExpectString("format_string", {StringLit("%,.2f"), D(1234567.891)}, "1,234,567.89");
  ExpectString("format_string", {StringLit("%s"), D(123456789.0)}, "1.23456789E8");
  ExpectString("format_string", {StringLit("%s"), D(1e7)}, "1.0E7");
  ExpectString("format_string", {StringLit("%s"), D(0.001)}, "0.001");
  ExpectString("format_string", {StringLit("%s"), Lit("float", "0.1")}, "0.1");
  ExpectString("format_string", {StringLit("%f"), Lit("float", "0.1")}, "0.100000");
  ExpectString("format_string", {StringLit("%#x"), IntLit(255)}, "0xff");
  ExpectString("format_string", {StringLit("%08x"), IntLit(255)}, "000000ff");
  ExpectString("format_string", {StringLit("%X"), NullLit()}, "NULL");
  ExpectString("format_string", {StringLit("%-8b|"), Lit("boolean", "true")}, "true    |");
  ExpectString("format_string", {StringLit("%10.4s|"), StringLit("abcdefg")}, "      abcd|");
  ExpectString("format_string", {StringLit("%c"), IntLit(128512)}, "😀");
}

TEST_F(StringFunctionsTest, MoreCaseMappings) {
  ExpectString("upper", {StringLit("ᾳ")}, "ΑΙ");
  ExpectString("initcap", {StringLit("ǆemal")}, "ǅemal");
  ExpectString("lower", {StringLit("ΣΑ")}, "σα");
  ExpectString("lower", {StringLit("AΣ.")}, "aς.");
  ExpectString("lpad", {StringLit("abc"), IntLit(5), StringLit("日本")}, "日本abc");
  ExpectString("btrim", {StringLit("xyxaxyx"), StringLit("xy")}, "a");
  ExpectString("translate", {StringLit("abc"), StringLit("abc"), StringLit("xyz")}, "xyz");
  ExpectNull("replace", {StringLit("abc"), StringLit("b"), NullLit()});
}

TEST_F(StringFunctionsTest, FormatStringErrors) {
  auto missing = Call("format_string", {StringLit("%s %s"), StringLit("a")});
  EXPECT_FALSE(missing.ok());
  auto unknown = Resolve("format_string", {StringLit("%q"), IntLit(1)});
  EXPECT_FALSE(unknown.ok());
}

TEST_F(StringFunctionsTest, WrongTypesAreAnalysisErrors) {
  auto list = Col("array<int>", "[[1]]");
  auto resolved = Resolve("upper", {list});
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(ErrorClassOf(resolved.status()).value_or(""), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  auto count = Resolve("substring", {StringLit("a")});
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(ErrorClassOf(count.status()).value_or(""), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
}

}  // namespace
}  // namespace sluice::testing
