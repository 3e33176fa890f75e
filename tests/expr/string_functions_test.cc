// String functions against answers taken from Spark 4.0.1 (spark.sql("select ...") runs).
#include <cstdio>

#include <gtest/gtest.h>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class StringFunctionsTest : public FunctionCallTest {
 protected:
  static expr::BoundExprPtr S(const std::string& value) {
    std::string json = "\"";
    for (char c : value) {
      if (c == '"' || c == '\\') {
        json.push_back('\\');
        json.push_back(c);
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
        json += escaped;
      } else {
        json.push_back(c);
      }
    }
    return Lit("string", json + "\"", value);
  }
  static expr::BoundExprPtr I(int value) { return Lit("int", std::to_string(value)); }
  static expr::BoundExprPtr D(double value) { return Lit("double", std::to_string(value)); }
  static expr::BoundExprPtr Null() { return Lit("void", "null", "NULL"); }

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

TEST_F(StringFunctionsTest, ConcatPropagatesNulls) {
  auto s = Col("string", R"(["abc", "", "ünï", null, "z", null])");
  auto u = Col("string", R"(["x", "", "日本", "y", null, null])");
  ExpectCall("concat", {s, u}, "string", R"(["abcx", "", "ünï日本", null, null, null])");
  ExpectCall("concat", {s, S("-"), u}, "string",
             R"(["abc-x", "-", "ünï-日本", null, null, null])");
  ExpectCall("concat", {s, Null()}, "string", R"([null, null, null, null, null, null])");
}

TEST_F(StringFunctionsTest, ConcatOfLiteralsAndNumbers) {
  ExpectString("concat", {}, "");
  ExpectString("concat", {S("a"), I(1)}, "a1");
  ExpectNull("concat", {S("a"), Null()});
}

TEST_F(StringFunctionsTest, ConcatWsSkipsNulls) {
  auto s = Col("string", R"(["abc", "", "ünï", null, "z", null])");
  auto u = Col("string", R"(["x", "", "日本", "y", null, null])");
  ExpectCall("concat_ws", {S("-"), s, u}, "string", R"(["abc-x", "-", "ünï-日本", "y", "z", ""])");
  ExpectCall("concat_ws", {S(","), s, Null(), u}, "string",
             R"(["abc,x", ",", "ünï,日本", "y", "z", ""])");
  ExpectCall("concat_ws", {Null(), s, u}, "string", R"([null, null, null, null, null, null])");
  ExpectCall("concat_ws", {S("|")}, "string", R"(["", "", "", "", "", ""])");
}

TEST_F(StringFunctionsTest, ConcatWsFlattensArrays) {
  auto list = Col("array<string>", R"([["a", null, "b"], null, []])");
  auto s = Col("string", R"(["c", "d", null])");
  ExpectCall("concat_ws", {S(","), list, Null(), s}, "string", R"(["a,b,c", "d", ""])");
}

TEST_F(StringFunctionsTest, SubstringFollowsSparkPositions) {
  auto s = Col("string", R"(["Hello World", "", "a😀b", "ünïcödé", null])");
  ExpectCall("substring", {s, I(1), I(3)}, "string", R"(["Hel", "", "a😀b", "ünï", null])");
  ExpectCall("substring", {s, I(0), I(3)}, "string", R"(["Hel", "", "a😀b", "ünï", null])");
  ExpectCall("substring", {s, I(2)}, "string", R"(["ello World", "", "😀b", "nïcödé", null])");
  ExpectCall("substring", {s, I(-3)}, "string", R"(["rld", "", "a😀b", "ödé", null])");
  ExpectCall("substring", {s, I(-3), I(2)}, "string", R"(["rl", "", "a😀", "öd", null])");
  ExpectCall("substring", {s, I(-100), I(3)}, "string", R"(["", "", "", "", null])");
  ExpectCall("substring", {s, I(100), I(2)}, "string", R"(["", "", "", "", null])");
  ExpectCall("substring", {s, I(2), I(-1)}, "string", R"(["", "", "", "", null])");
}

TEST_F(StringFunctionsTest, SubstringExtremes) {
  ExpectString("substring", {S("abc"), I(-2147483647 - 1), I(2147483647)}, "ab");
  ExpectString("substring", {S("abc"), I(2147483647), I(2147483647)}, "");
  ExpectString("substring", {S("abc"), I(1), I(-2147483647 - 1)}, "");
  ExpectString("substring", {S("日本語😀x"), I(3), I(2)}, "語😀");
  ExpectString("substring", {S("abc"), S("2"), I(1)}, "b");
}

TEST_F(StringFunctionsTest, SubstringColumnArguments) {
  auto s = Col("string", R"(["abcdef", "abcdef", "abcdef", "abcdef", null, "日本語"])");
  auto p = Col("int", "[2, -2, null, 1, 1, 2]");
  auto l = Col("int", "[3, 1, 2, null, 1, 5]");
  ExpectCall("substring", {s, p, l}, "string", R"(["bcd", "e", null, null, null, "本語"])");
}

TEST_F(StringFunctionsTest, LeftAndRight) {
  ExpectString("left", {S("abc"), I(2)}, "ab");
  ExpectString("left", {S("abc"), I(-1)}, "");
  ExpectString("left", {S("abc"), I(10)}, "abc");
  ExpectString("right", {S("abc"), I(2)}, "bc");
  ExpectString("right", {S("abc"), I(0)}, "");
  ExpectString("right", {S("abc"), I(10)}, "abc");
  ExpectString("right", {S("日本語"), I(2)}, "本語");
  ExpectNull("right", {S("abc"), Null()});
}

TEST_F(StringFunctionsTest, UpperAndLowerUseFullCaseMappings) {
  auto s = Col("string", R"(["Hello World", "straße", "İstanbul", "ünïcödé", "a😀b", null])");
  ExpectCall("upper", {s}, "string",
             R"(["HELLO WORLD", "STRASSE", "İSTANBUL", "ÜNÏCÖDÉ", "A😀B", null])");
  ExpectCall("lower", {s}, "string",
             R"(["hello world", "straße", "i̇stanbul", "ünïcödé", "a😀b", null])");
  Reset();
  ExpectString("upper", {S("ﬁ")}, "FI");
  ExpectString("upper", {S("ǅ")}, "Ǆ");
  ExpectString("lower", {S("ΑΣ Α")}, "ας α");
  ExpectString("upper", {I(123)}, "123");
}

TEST_F(StringFunctionsTest, Initcap) {
  ExpectString("initcap", {S("hello WORLD  foo-bar")}, "Hello World  Foo-bar");
  ExpectString("initcap", {S("ünï cöd")}, "Ünï Cöd");
  ExpectString("initcap", {S("hello\tworld")}, "Hello\tworld");
  ExpectString("initcap", {S("")}, "");
}

TEST_F(StringFunctionsTest, TrimRemovesSpacesOnly) {
  auto s = Col("string", "[\" a \", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"   \", null]");
  ExpectCall("trim", {s}, "string", "[\"a\", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
  ExpectCall("ltrim", {s}, "string", "[\"a \", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
  ExpectCall("rtrim", {s}, "string", "[\" a\", \"\\ta\\t\", \"\\u00a0a\\u00a0\", \"\", null]");
}

TEST_F(StringFunctionsTest, TrimWithCharacters) {
  // SQL argument order: trim(trimStr, str); btrim(str, trimStr).
  ExpectString("trim", {S("x"), S("xxaxx")}, "a");
  ExpectString("ltrim", {S("x"), S("xxaxx")}, "axx");
  ExpectString("rtrim", {S("x"), S("xxaxx")}, "xxa");
  ExpectString("trim", {S("ab"), S("abcba")}, "c");
  ExpectString("trim", {S("日"), S("日本日")}, "本");
  ExpectString("trim", {S(""), S(" a ")}, " a ");
  ExpectString("btrim", {S("xxaxx"), S("x")}, "a");
  ExpectNull("trim", {Null(), S("a")});
}

TEST_F(StringFunctionsTest, Lengths) {
  auto s = Col("string", R"(["a😀b", "", "ü日", null])");
  ExpectCall("length", {s}, "int", "[3, 0, 2, null]");
  ExpectCall("char_length", {s}, "int", "[3, 0, 2, null]");
  ExpectCall("octet_length", {s}, "int", "[6, 0, 5, null]");
  ExpectCall("bit_length", {s}, "int", "[48, 0, 40, null]");
  Reset();
  ExpectInt("length", {I(123)}, 3);
  ExpectInt("length", {Lit("binary", "\"ab\"")}, 2);
}

TEST_F(StringFunctionsTest, PadsAndTruncates) {
  auto s = Col("string", R"(["abc", "", "ünï", null])");
  ExpectCall("lpad", {s, I(5), S("*")}, "string", R"(["**abc", "*****", "**ünï", null])");
  ExpectCall("rpad", {s, I(2), S("*")}, "string", R"(["ab", "**", "ün", null])");
  ExpectCall("lpad", {s, I(7), S("xy")}, "string", R"(["xyxyabc", "xyxyxyx", "xyxyünï", null])");
  ExpectCall("rpad", {s, I(7), S("xy")}, "string", R"(["abcxyxy", "xyxyxyx", "ünïxyxy", null])");
  ExpectCall("lpad", {s, I(5), S("")}, "string", R"(["abc", "", "ünï", null])");
  ExpectCall("lpad", {s, I(-1), S("*")}, "string", R"(["", "", "", null])");
  ExpectCall("rpad", {s, I(4)}, "string", R"(["abc ", "    ", "ünï ", null])");
  Reset();
  ExpectString("lpad", {S("ü日😀"), I(5), S("😀")}, "😀😀ü日😀");
  ExpectString("rpad", {S("ü日😀"), I(4), S("ab")}, "ü日😀a");
  ExpectNull("lpad", {S("abc"), I(5), Null()});
}

TEST_F(StringFunctionsTest, InstrAndLocate) {
  auto s = Col("string", R"(["Hello World", "Hello World", "", "a😀b", null, "a"])");
  auto u = Col("string", R"(["o", "", "", "b", "a", null])");
  ExpectCall("instr", {s, u}, "int", "[5, 1, 1, 3, null, null]");
  Reset();
  ExpectInt("instr", {S("日本語語"), S("語")}, 3);
  ExpectInt("locate", {S("b"), S("abcb")}, 2);
  ExpectInt("locate", {S("b"), S("abcb"), I(3)}, 4);
  ExpectInt("locate", {S("b"), S("abcb"), I(0)}, 0);
  ExpectInt("locate", {S("b"), S("abcb"), I(10)}, 0);
  ExpectInt("locate", {S(""), S("abc"), I(5)}, 1);
  ExpectInt("locate", {S("b"), S("abc"), Null()}, 0);
  ExpectNull("locate", {S("b"), Null()});
}

TEST_F(StringFunctionsTest, Predicates) {
  auto s = Col("string", R"(["abc", "abc", null])");
  auto p = Col("string", R"(["ab", "", "a"])");
  ExpectCall("startswith", {s, p}, "boolean", "[true, true, null]");
  ExpectCall("endswith", {s, p}, "boolean", "[false, true, null]");
  ExpectCall("contains", {s, p}, "boolean", "[true, true, null]");
}

TEST_F(StringFunctionsTest, RepeatReverseReplaceTranslate) {
  ExpectString("repeat", {S("ab"), I(3)}, "ababab");
  ExpectString("repeat", {S("ab"), I(-1)}, "");
  ExpectString("reverse", {S("ab😀ü")}, "ü😀ba");
  ExpectString("replace", {S("abcabc"), S("b"), S("XY")}, "aXYcaXYc");
  ExpectString("replace", {S("abcabc"), S("b")}, "acac");
  ExpectString("replace", {S("abc"), S(""), S("x")}, "abc");
  ExpectString("replace", {S("aaaa"), S("aa"), S("b")}, "bb");
  ExpectString("translate", {S("AaBbCc"), S("abc"), S("123")}, "A1B2C3");
  ExpectString("translate", {S("abcde"), S("aec"), S("1")}, "1bd");
  ExpectString("translate", {S("abcabc"), S("aa"), S("xy")}, "xbcxbc");
  ExpectString("translate", {S("日本語"), S("本"), S("X")}, "日X語");
}

TEST_F(StringFunctionsTest, AsciiAndChr) {
  ExpectInt("ascii", {S("a")}, 97);
  ExpectInt("ascii", {S("")}, 0);
  ExpectInt("ascii", {S("😀")}, 128512);
  ExpectString("chr", {I(65)}, "A");
  ExpectString("chr", {I(256 + 65)}, "A");
  ExpectString("chr", {I(-1)}, "");
}

TEST_F(StringFunctionsTest, Base64) {
  ExpectString("base64", {S("Spark SQL")}, "U3BhcmsgU1FM");
  ExpectString("base64", {S("ü日")}, "w7zml6U=");
  auto decoded = Call("unbase64", {S("U3Bhc msgU1F")});
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(static_cast<const arrow::BinaryArray&>(**decoded).GetView(0), "Spark SQ");
}

TEST_F(StringFunctionsTest, LevenshteinAndSoundex) {
  ExpectInt("levenshtein", {S("kitten"), S("sitting")}, 3);
  ExpectInt("levenshtein", {S("kitten"), S("sitting"), I(2)}, -1);
  ExpectInt("levenshtein", {S("日本"), S("日本語")}, 1);
  ExpectString("soundex", {S("Robert")}, "R163");
  ExpectString("soundex", {S("Tymczak")}, "T522");
  ExpectString("soundex", {S("Pfister")}, "P236");
  ExpectString("soundex", {S("Ashcraft")}, "A261");
  ExpectString("soundex", {S("a1b")}, "A100");
  ExpectString("soundex", {S("123")}, "123");
}

TEST_F(StringFunctionsTest, FormatStringLikeJava) {
  auto s = Col("string", R"(["abc", "", null, "ü"])");
  auto i = Col("int", "[42, -7, null, 0]");
  auto d = Col("double", "[3.14159, -0.5, null, 1e10]");
  auto l = Col("bigint", "[10000000000, -1, null, 0]");
  ExpectCall("format_string", {S("%s-%d"), s, i}, "string",
             R"(["abc-42", "--7", "null-null", "ü-0"])");
  ExpectCall("format_string", {S("%05d"), i}, "string", R"(["00042", "-0007", " null", "00000"])");
  ExpectCall("format_string", {S("%.2f"), d}, "string", R"(["3.14", "-0.50", "nu", "10000000000.00"])");
  ExpectCall("format_string", {S("%10.3f|"), d}, "string",
             R"(["     3.142|", "    -0.500|", "       nul|", "10000000000.000|"])");
  ExpectCall("format_string", {S("%-6s|"), s}, "string",
             R"(["abc   |", "      |", "null  |", "ü     |"])");
  ExpectCall("format_string", {S("%x"), i}, "string", R"(["2a", "fffffff9", "null", "0"])");
  ExpectCall("format_string", {S("%e"), d}, "string",
             R"(["3.141590e+00", "-5.000000e-01", "null", "1.000000e+10"])");
  ExpectCall("format_string", {S("%,d"), l}, "string", R"(["10,000,000,000", "-1", "null", "0"])");
  ExpectCall("format_string", {S("%s and %s"), s, d}, "string",
             R"(["abc and 3.14159", " and -0.5", "null and null", "ü and 1.0E10"])");
  ExpectCall("format_string", {S("%2$s %1$s"), s, i}, "string",
             R"(["42 abc", "-7 ", "null null", "0 ü"])");
  ExpectCall("format_string", {S("%b"), s}, "string", R"(["true", "true", "false", "true"])");
  ExpectCall("format_string", {S("%%")}, "string", R"(["%", "%", "%", "%"])");
}

TEST_F(StringFunctionsTest, FormatStringFlags) {
  ExpectString("format_string", {S("%o %X %x"), I(8), I(255), I(-1)}, "10 FF ffffffff");
  ExpectString("format_string", {S("%c"), I(65)}, "A");
  ExpectString("format_string", {S("%10s|%-10s|"), S("ab"), S("cd")}, "        ab|cd        |");
  ExpectString("format_string", {S("%.3s"), S("abcdef")}, "abc");
  ExpectString("format_string", {S("%+d % d %(d"), I(5), I(5), I(-5)}, "+5  5 (5)");
  ExpectString("format_string", {S("%s"), D(0.1)}, "0.1");
  ExpectString("format_string", {S("%s"), Lit("double", "1e-5")}, "1.0E-5");
  ExpectString("format_string", {S("%S"), S("abc")}, "ABC");
  ExpectString("format_string", {S("%3$s %1$s"), S("a"), S("b"), S("c")}, "c a");
  ExpectString("format_string", {S("%s %<s"), S("a")}, "a a");
  ExpectString("format_string", {S("%-5d|%5d"), I(42), I(42)}, "42   |   42");
  ExpectString("format_string", {S("%x"), Lit("tinyint", "-1")}, "ff");
  ExpectString("format_string", {S("%x"), Lit("bigint", "-1")}, "ffffffffffffffff");
  ExpectString("format_string", {S("%b %b %b"), Lit("boolean", "true"), Null(), S("x")},
               "true false true");
  ExpectNull("format_string", {Null(), I(1)});
  ExpectString("printf", {S("%s=%d"), S("x"), I(3)}, "x=3");
}

TEST_F(StringFunctionsTest, FormatStringRoundsLikeJava) {
  // Java rounds the shortest decimal form half-up, unlike C's printf.
  ExpectString("format_string", {S("%.1f"), D(0.25)}, "0.3");
  ExpectString("format_string", {S("%.1f"), D(0.35)}, "0.4");
  ExpectString("format_string", {S("%.0f"), D(2.5)}, "3");
  ExpectString("format_string", {S("%.20f"), D(0.1)}, "0.10000000000000000000");
  ExpectString("format_string", {S("%g"), D(1234.5678)}, "1234.57");
  ExpectString("format_string", {S("%.3g"), Lit("double", "0.0001234")}, "0.000123");
  ExpectString("format_string", {S("%g"), D(0.0)}, "0.00000");
  ExpectString("format_string", {S("%g"), D(100000)}, "100000");
  ExpectString("format_string", {S("%g"), D(1000000)}, "1.00000e+06");
  ExpectString("format_string", {S("%g"), D(0.0001)}, "0.000100000");
  ExpectString("format_string", {S("%g"), Lit("double", "0.00001")}, "1.00000e-05");
  ExpectString("format_string", {S("%e"), D(0.0)}, "0.000000e+00");
  ExpectString("format_string", {S("%.3e"), D(123456)}, "1.235e+05");
  ExpectString("format_string", {S("%08.2f"), D(-3.5)}, "-0003.50");
  ExpectString("format_string", {S("%,.2f"), D(1234567.891)}, "1,234,567.89");
  ExpectString("format_string", {S("%s"), D(123456789.0)}, "1.23456789E8");
  ExpectString("format_string", {S("%s"), D(1e7)}, "1.0E7");
  ExpectString("format_string", {S("%s"), D(0.001)}, "0.001");
  ExpectString("format_string", {S("%s"), Lit("float", "0.1")}, "0.1");
  ExpectString("format_string", {S("%f"), Lit("float", "0.1")}, "0.100000");
  ExpectString("format_string", {S("%#x"), I(255)}, "0xff");
  ExpectString("format_string", {S("%08x"), I(255)}, "000000ff");
  ExpectString("format_string", {S("%X"), Null()}, "NULL");
  ExpectString("format_string", {S("%-8b|"), Lit("boolean", "true")}, "true    |");
  ExpectString("format_string", {S("%10.4s|"), S("abcdefg")}, "      abcd|");
  ExpectString("format_string", {S("%c"), I(128512)}, "😀");
}

TEST_F(StringFunctionsTest, MoreCaseMappings) {
  ExpectString("upper", {S("ᾳ")}, "ΑΙ");
  ExpectString("initcap", {S("ǆemal")}, "ǅemal");
  ExpectString("lower", {S("ΣΑ")}, "σα");
  ExpectString("lower", {S("AΣ.")}, "aς.");
  ExpectString("lpad", {S("abc"), I(5), S("日本")}, "日本abc");
  ExpectString("btrim", {S("xyxaxyx"), S("xy")}, "a");
  ExpectString("translate", {S("abc"), S("abc"), S("xyz")}, "xyz");
  ExpectNull("replace", {S("abc"), S("b"), Null()});
}

TEST_F(StringFunctionsTest, FormatStringErrors) {
  auto missing = Call("format_string", {S("%s %s"), S("a")});
  EXPECT_FALSE(missing.ok());
  auto unknown = Resolve("format_string", {S("%q"), I(1)});
  EXPECT_FALSE(unknown.ok());
}

TEST_F(StringFunctionsTest, WrongTypesAreAnalysisErrors) {
  auto list = Col("array<int>", "[[1]]");
  auto resolved = Resolve("upper", {list});
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(ErrorClassOf(resolved.status()).value_or(""), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
  auto count = Resolve("substring", {S("a")});
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(ErrorClassOf(count.status()).value_or(""), "WRONG_NUM_ARGS.WITHOUT_SUGGESTION");
}

}  // namespace
}  // namespace sluice::testing
