// Regex functions (Java regex semantics on RE2) against answers taken from Spark 4.0.1.
#include <cstdio>

#include <gtest/gtest.h>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class RegexFunctionsTest : public FunctionCallTest {
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
  static expr::BoundExprPtr Null() { return Lit("void", "null", "NULL"); }

  std::string One(const std::string& name, std::vector<expr::BoundExprPtr> args) {
    auto result = Call(name, std::move(args));
    if (!result.ok()) return "error: " + result.status().ToString();
    if ((*result)->IsNull(0)) return "null";
    auto scalar = (*result)->GetScalar(0).ValueOrDie();
    if (scalar->type->id() == arrow::Type::STRING) {
      return std::string(static_cast<const arrow::StringScalar&>(*scalar).view());
    }
    return scalar->ToString();
  }
  void ExpectErrorClass(const std::string& name, std::vector<expr::BoundExprPtr> args,
                        const std::string& error_class) {
    auto resolved = Resolve(name, args);
    arrow::Status status = resolved.status();
    if (resolved.ok()) status = Call(name, std::move(args)).status();
    ASSERT_FALSE(status.ok()) << name;
    EXPECT_EQ(ErrorClassOf(status).value_or("<none>"), error_class) << status.ToString();
  }
};

TEST_F(RegexFunctionsTest, RlikeFindsAnywhere) {
  EXPECT_EQ(One("rlike", {S("abc"), S("b")}), "true");
  EXPECT_EQ(One("rlike", {S("abc"), S("^b")}), "false");
  EXPECT_EQ(One("regexp_like", {S("abc"), S("B")}), "false");
  EXPECT_EQ(One("regexp_like", {S("abc"), S("(?i)B")}), "true");
  EXPECT_EQ(One("rlike", {S("a\nb"), S("a.b")}), "false");
  auto s = Col("string", R"(["abc", "xyz", null, "abc"])");
  auto p = Col("string", R"(["a.c", "a.c", "a", "^b"])");
  ExpectCall("rlike", {s, p}, "boolean", "[true, false, null, false]");
}

TEST_F(RegexFunctionsTest, LikeMatchesWholeString) {
  EXPECT_EQ(One("like", {S("abc"), S("a%")}), "true");
  EXPECT_EQ(One("like", {S("abc"), S("a_c")}), "true");
  EXPECT_EQ(One("like", {S("a%c"), S("a\\%c")}), "true");
  EXPECT_EQ(One("like", {S("abc"), S("a\\%c")}), "false");
  EXPECT_EQ(One("like", {S("a_c"), S("a/_c"), S("/")}), "true");
  EXPECT_EQ(One("like", {S("abc"), S("")}), "false");
  EXPECT_EQ(One("like", {S(""), S("%")}), "true");
  EXPECT_EQ(One("like", {S("a\nb"), S("a_b")}), "true");
  EXPECT_EQ(One("like", {S("a\nb"), S("a%")}), "true");
  EXPECT_EQ(One("ilike", {S("ABC"), S("a%")}), "true");
  EXPECT_EQ(One("ilike", {S("ABC"), S("a_c")}), "true");
  auto s = Col("string", R"(["abc", "xabcx", "ab", null])");
  ExpectCall("like", {s, S("%bc%")}, "boolean", "[true, true, false, null]");
  ExpectCall("like", {s, S("%bc")}, "boolean", "[true, false, false, null]");
}

TEST_F(RegexFunctionsTest, LikeEscapeErrors) {
  ExpectErrorClass("like", {S("abc"), S("ab\\")}, "INVALID_FORMAT.ESC_AT_THE_END");
  ExpectErrorClass("like", {S("abc"), S("\\a%")}, "INVALID_FORMAT.ESC_IN_THE_MIDDLE");
}

TEST_F(RegexFunctionsTest, RegexpExtract) {
  auto s = Col("string",
               R"(["John Smith 42", "jane doe", "no digits here", "", "x9y88z", "ünï 7", null])");
  ExpectCall("regexp_extract", {s, S("(\\w+) (\\w+)"), I(2)}, "string",
             R"(["Smith", "doe", "digits", "", "", "", null])");
  ExpectCall("regexp_extract", {s, S("(\\d+)"), I(1)}, "string",
             R"(["42", "", "", "", "9", "7", null])");
  ExpectCall("regexp_extract", {s, S("[a-z](\\d)?"), I(1)}, "string",
             R"(["", "", "", "", "9", "", null])");
  ExpectCall("regexp_extract", {s, S("(x)|(y)"), I(2)}, "string",
             R"(["", "", "", "", "", "", null])");
  ExpectCall("regexp_extract", {s, S("(\\d+)")}, "string", R"(["42", "", "", "", "9", "7", null])");
}

TEST_F(RegexFunctionsTest, RegexpExtractErrors) {
  ExpectErrorClass("regexp_extract", {S("abc"), S("(a)"), I(2)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
  ExpectErrorClass("regexp_extract", {S("abc"), S("(a)"), I(-1)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
  ExpectErrorClass("regexp_extract", {S("abc"), S("(a"), I(1)}, "INVALID_PARAMETER_VALUE.PATTERN");
  ExpectErrorClass("rlike", {S("abc"), S("[")}, "INVALID_PARAMETER_VALUE.PATTERN");
}

TEST_F(RegexFunctionsTest, JavaSyntaxIsTranslated) {
  EXPECT_EQ(One("regexp_extract", {S("abc"), S("(?<x>b)"), I(1)}), "b");
  EXPECT_EQ(One("regexp_extract", {S("a\nb"), S("(?s)a.b"), I(0)}), "a\nb");
  EXPECT_EQ(One("regexp_extract", {S("aXb"), S("\\p{Upper}"), I(0)}), "X");
  EXPECT_EQ(One("regexp_extract", {S("a b"), S("\\p{Alpha}+"), I(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {S("abc"), S("\\Qa\\E"), I(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {S("ab"), S("\\x61"), I(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {S("ab"), S("\\u0062"), I(0)}), "b");
  EXPECT_EQ(One("regexp_extract", {S("aab"), S("a++"), I(0)}), "aa");
  EXPECT_EQ(One("regexp_extract", {S("x\x0By"), S("\\s"), I(0)}), "\x0B");
}

TEST_F(RegexFunctionsTest, RegexpExtractAll) {
  auto all = Call("regexp_extract_all", {S("a1b22c333"), S("(\\d)(\\d)?"), I(2)});
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_TRUE((*all)->Equals(*Expected("array<string>", R"([["", "2", "3", ""]])")))
      << (*all)->ToString();
  auto empty = Call("regexp_extract_all", {S("abc"), S(""), I(0)});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE((*empty)->Equals(*Expected("array<string>", R"([["", "", "", ""]])")));
  ExpectErrorClass("regexp_extract_all", {S("abc"), S("(a)"), I(3)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
}

TEST_F(RegexFunctionsTest, RegexpReplace) {
  auto s = Col("string", R"(["Hello World", "aaa", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, S("[aeiou]"), S("*")}, "string",
             R"(["H*ll* W*rld", "***", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, S(""), S("-")}, "string",
             R"(["-H-e-l-l-o- -W-o-r-l-d-", "-a-a-a-", "-", "-2-0-2-4---0-1---1-5-", "-ü-n-ï-c-ö-d-é-", null])");
  ExpectCall("regexp_replace", {s, S("(\\d+)-(\\d+)-(\\d+)"), S("$3/$2/$1")}, "string",
             R"(["Hello World", "aaa", "", "15/01/2024", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, S("^"), S(">")}, "string",
             R"([">Hello World", ">aaa", ">", ">2024-01-15", ">ünïcödé", null])");
  ExpectCall("regexp_replace", {s, S("l+"), S("L"), I(4)}, "string",
             R"(["HelLo WorLd", "aaa", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, Null(), S("x")}, "string",
             R"([null, null, null, null, null, null])");
}

TEST_F(RegexFunctionsTest, RegexpReplaceJavaReplacementSyntax) {
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("(a)"), S("\\$1")}), "$1bc");
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("x*"), S("-")}), "-a-b-c-");
  EXPECT_EQ(One("regexp_replace", {S("abcabc"), S("b"), S("X"), I(3)}), "abcaXc");
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("b"), S("X"), I(10)}), "abc");
  EXPECT_EQ(One("regexp_replace", {S("aaa"), S("^a"), S("X"), I(2)}), "aXa");
  EXPECT_EQ(One("regexp_replace", {S("a.b"), S("."), S("$0$0")}), "aa..bb");
  EXPECT_EQ(One("regexp_replace", {S("a.b.c"), S("\\."), S("\\\\")}), "a\\b\\c");
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("b"), S("\\n")}), "anc");
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("(b)"), S("$10")}), "ab0c");
  EXPECT_EQ(One("regexp_replace", {S("ünï"), S("ï"), S("i"), I(3)}), "üni");
}

TEST_F(RegexFunctionsTest, RegexpReplaceErrors) {
  ExpectErrorClass("regexp_replace", {S("abc"), S("(a)"), S("$2")}, "INVALID_REGEXP_REPLACE");
  ExpectErrorClass("regexp_replace", {S("abc"), S("(a)"), S("x\\")}, "INVALID_REGEXP_REPLACE");
  ExpectErrorClass("regexp_replace", {S("abc"), S("[a"), S("x")},
                   "INVALID_PARAMETER_VALUE.PATTERN");
  ExpectErrorClass("regexp_replace", {S("abc"), S("b"), S("X"), I(0)},
                   "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
  // No match, no error (Java fails only while appending a replacement).
  EXPECT_EQ(One("regexp_replace", {S("xyz"), S("(a)"), S("$2")}), "xyz");
}

TEST_F(RegexFunctionsTest, SplitKeepsTrailingEmptyStrings) {
  // split's elements are never null (array<string> with containsNull = false, as in Spark), so
  // compare values only.
  auto ExpectCall = [this](const std::string& name, std::vector<expr::BoundExprPtr> args,
                           const std::string& type, const std::string& json) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ((*result)->ToString(), Expected(type, json)->ToString());
  };
  auto s = Col("string", R"(["a,b,,c,,", "one", "", ",lead", null])");
  ExpectCall("split", {s, S(",")}, "array<string>",
             R"([["a", "b", "", "c", "", ""], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, S(","), I(2)}, "array<string>",
             R"([["a", "b,,c,,"], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, S(","), I(0)}, "array<string>",
             R"([["a", "b", "", "c", "", ""], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, S(","), I(1)}, "array<string>",
             R"([["a,b,,c,,"], ["one"], [""], [",lead"], null])");
  ExpectCall("split", {s, S("")}, "array<string>",
             R"([["a", ",", "b", ",", ",", "c", ",", ","], ["o", "n", "e"], [""], [",", "l", "e", "a", "d"], null])");
  ExpectCall("split", {s, S(".")}, "array<string>",
             R"([["", "", "", "", "", "", "", "", ""], ["", "", "", ""], [""], ["", "", "", "", "", ""], null])");
}

TEST_F(RegexFunctionsTest, SplitRegexAndLimits) {
  auto split = [&](std::vector<expr::BoundExprPtr> args) {
    auto result = Call("split", std::move(args));
    return result.ok() ? (*result)->ToString() : result.status().ToString();
  };
  auto expect = [&](const std::string& json) {
    return Expected("array<string>", "[" + json + "]")->ToString();
  };
  EXPECT_EQ(split({S("a1b2c3"), S("\\d")}), expect(R"(["a", "b", "c", ""])"));
  EXPECT_EQ(split({S("a1b2c3"), S("\\d"), I(2)}), expect(R"(["a", "b2c3"])"));
  EXPECT_EQ(split({S("abc"), S(""), I(2)}), expect(R"(["a", "b"])"));
  EXPECT_EQ(split({S("abc"), S("z*")}), expect(R"(["a", "b", "c", ""])"));
  EXPECT_EQ(split({S("a1b22c333d"), S("\\d+"), I(2)}), expect(R"(["a", "b22c333d"])"));
  EXPECT_EQ(split({S("ü;ö,ä"), S("[,;]")}), expect(R"(["ü", "ö", "ä"])"));
  EXPECT_EQ(split({S("a,b"), Null()}), expect("null"));
}

TEST_F(RegexFunctionsTest, RegexpCountSubstrInstr) {
  EXPECT_EQ(One("regexp_count", {S("abcabc"), S("b")}), "2");
  EXPECT_EQ(One("regexp_substr", {S("abc123def"), S("\\d+")}), "123");
  EXPECT_EQ(One("regexp_substr", {S("abc"), S("\\d+")}), "null");
  EXPECT_EQ(One("regexp_instr", {S("abc123"), S("\\d+")}), "4");
  EXPECT_EQ(One("regexp_instr", {S("abc"), S("\\d+")}), "0");
}

TEST_F(RegexFunctionsTest, EmptyMatchesFollowJavaFind) {
  EXPECT_EQ(One("regexp_replace", {S("abc"), S("b*"), S("-")}), "-a--c-");
  EXPECT_EQ(One("regexp_replace", {S("aaa"), S("a*"), S("X")}), "XX");
  EXPECT_EQ(One("regexp_count", {S("abc"), S("")}), "4");
  EXPECT_EQ(One("regexp_instr", {S("abc"), S("b"), I(0)}), "2");
  EXPECT_EQ(One("regexp_extract", {S("ab"), S("a(x)?"), I(1)}), "");
  EXPECT_EQ(One("rlike", {S(""), S("")}), "true");
  auto all = Call("regexp_extract_all", {S("abc"), S("b*"), I(0)});
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE((*all)->Equals(*Expected("array<string>", R"([["", "b", "", ""]])")));
  auto split = Call("split", {S("abc"), S("b*")});
  ASSERT_TRUE(split.ok());
  EXPECT_EQ((*split)->ToString(), Expected("array<string>", R"([["a", "", "c", ""]])")->ToString());
}

TEST_F(RegexFunctionsTest, IlikeLowersBothSides) {
  EXPECT_EQ(One("ilike", {S("ÄBC"), S("ä%")}), "true");
  EXPECT_EQ(One("ilike", {S("a_c"), S("A/_C"), S("/")}), "true");
}

TEST_F(RegexFunctionsTest, UnsupportedJavaFeaturesSayWhy) {
  ExpectErrorClass("regexp_extract", {S("abc"), S("b(?=c)"), I(0)}, "UNSUPPORTED_FEATURE.REGEX");
  ExpectErrorClass("regexp_extract", {S("aab"), S("(a)\\1"), I(0)}, "UNSUPPORTED_FEATURE.REGEX");
}

}  // namespace
}  // namespace sluice::testing
