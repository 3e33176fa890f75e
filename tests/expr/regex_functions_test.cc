// Regex functions (Java regex semantics on RE2) against answers taken from Spark 4.0.1.
#include <gtest/gtest.h>

#include "expr/function_call_harness.h"

namespace sluice::testing {
namespace {

class RegexFunctionsTest : public FunctionCallTest {
 protected:
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
  EXPECT_EQ(One("rlike", {StringLit("abc"), StringLit("b")}), "true");
  EXPECT_EQ(One("rlike", {StringLit("abc"), StringLit("^b")}), "false");
  EXPECT_EQ(One("regexp_like", {StringLit("abc"), StringLit("B")}), "false");
  EXPECT_EQ(One("regexp_like", {StringLit("abc"), StringLit("(?i)B")}), "true");
  EXPECT_EQ(One("rlike", {StringLit("a\nb"), StringLit("a.b")}), "false");
  auto s = Col("string", R"(["abc", "xyz", null, "abc"])");
  auto p = Col("string", R"(["a.c", "a.c", "a", "^b"])");
  ExpectCall("rlike", {s, p}, "boolean", "[true, false, null, false]");
}

TEST_F(RegexFunctionsTest, LikeMatchesWholeString) {
  EXPECT_EQ(One("like", {StringLit("abc"), StringLit("a%")}), "true");
  EXPECT_EQ(One("like", {StringLit("abc"), StringLit("a_c")}), "true");
  EXPECT_EQ(One("like", {StringLit("a%c"), StringLit("a\\%c")}), "true");
  EXPECT_EQ(One("like", {StringLit("abc"), StringLit("a\\%c")}), "false");
  EXPECT_EQ(One("like", {StringLit("a_c"), StringLit("a/_c"), StringLit("/")}), "true");
  EXPECT_EQ(One("like", {StringLit("abc"), StringLit("")}), "false");
  EXPECT_EQ(One("like", {StringLit(""), StringLit("%")}), "true");
  EXPECT_EQ(One("like", {StringLit("a\nb"), StringLit("a_b")}), "true");
  EXPECT_EQ(One("like", {StringLit("a\nb"), StringLit("a%")}), "true");
  EXPECT_EQ(One("ilike", {StringLit("ABC"), StringLit("a%")}), "true");
  EXPECT_EQ(One("ilike", {StringLit("ABC"), StringLit("a_c")}), "true");
  auto s = Col("string", R"(["abc", "xabcx", "ab", null])");
  ExpectCall("like", {s, StringLit("%bc%")}, "boolean", "[true, true, false, null]");
  ExpectCall("like", {s, StringLit("%bc")}, "boolean", "[true, false, false, null]");
}

TEST_F(RegexFunctionsTest, LikeEscapeErrors) {
  ExpectErrorClass("like", {StringLit("abc"), StringLit("ab\\")}, "INVALID_FORMAT.ESC_AT_THE_END");
  ExpectErrorClass("like", {StringLit("abc"), StringLit("\\a%")}, "INVALID_FORMAT.ESC_IN_THE_MIDDLE");
}

TEST_F(RegexFunctionsTest, RegexpExtract) {
  auto s = Col("string",
               R"(["John Smith 42", "jane doe", "no digits here", "", "x9y88z", "ünï 7", null])");
  ExpectCall("regexp_extract", {s, StringLit("(\\w+) (\\w+)"), IntLit(2)}, "string",
             R"(["Smith", "doe", "digits", "", "", "", null])");
  ExpectCall("regexp_extract", {s, StringLit("(\\d+)"), IntLit(1)}, "string",
             R"(["42", "", "", "", "9", "7", null])");
  ExpectCall("regexp_extract", {s, StringLit("[a-z](\\d)?"), IntLit(1)}, "string",
             R"(["", "", "", "", "9", "", null])");
  ExpectCall("regexp_extract", {s, StringLit("(x)|(y)"), IntLit(2)}, "string",
             R"(["", "", "", "", "", "", null])");
  ExpectCall("regexp_extract", {s, StringLit("(\\d+)")}, "string", R"(["42", "", "", "", "9", "7", null])");
}

TEST_F(RegexFunctionsTest, RegexpExtractErrors) {
  ExpectErrorClass("regexp_extract", {StringLit("abc"), StringLit("(a)"), IntLit(2)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
  ExpectErrorClass("regexp_extract", {StringLit("abc"), StringLit("(a)"), IntLit(-1)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
  ExpectErrorClass("regexp_extract", {StringLit("abc"), StringLit("(a"), IntLit(1)}, "INVALID_PARAMETER_VALUE.PATTERN");
  ExpectErrorClass("rlike", {StringLit("abc"), StringLit("[")}, "INVALID_PARAMETER_VALUE.PATTERN");
}

// A constant pattern and a constant group index among its groups cannot fail at run time, so
// AND, OR and CASE evaluate the call on every row instead of gathering the rows they need
// (Nexmark q21's ELSE regexp_extract(url, ...)); a pattern or index known only at run time, or
// an index past the groups, can.
TEST_F(RegexFunctionsTest, RegexpExtractWithAConstantPatternAndIndexCannotFail) {
  auto can_fail = [&](const std::string& name, std::vector<expr::BoundExprPtr> args) {
    auto resolved = Resolve(name, std::move(args));
    EXPECT_TRUE(resolved.ok()) << resolved.status();
    return resolved.ok() && (*resolved)->can_fail();
  };
  auto url = [&] { return Col("string", R"(["a=1", null])"); };
  const std::string pattern = "(&|^)channel_id=([^&]*)";
  EXPECT_FALSE(can_fail("regexp_extract", {url(), StringLit(pattern), IntLit(2)}));
  EXPECT_FALSE(can_fail("regexp_extract", {url(), StringLit(pattern)}));
  EXPECT_FALSE(can_fail("regexp_extract_all", {url(), StringLit(pattern), IntLit(0)}));
  EXPECT_FALSE(can_fail("regexp_instr", {url(), StringLit("x")}));
  EXPECT_FALSE(can_fail("regexp_count", {url(), StringLit("x")}));
  EXPECT_TRUE(can_fail("regexp_extract", {url(), StringLit(pattern), IntLit(3)}));
  EXPECT_TRUE(can_fail("regexp_extract", {url(), StringLit(pattern), IntLit(-1)}));
  EXPECT_TRUE(can_fail("regexp_extract", {url(), StringLit("abc")}));  // no group 1
  EXPECT_TRUE(can_fail("regexp_extract", {url(), url(), IntLit(0)}));
  EXPECT_TRUE(can_fail("regexp_extract", {url(), StringLit(pattern), Col("int", "[1, 2]")}));
}

TEST_F(RegexFunctionsTest, JavaSyntaxIsTranslated) {
  EXPECT_EQ(One("regexp_extract", {StringLit("abc"), StringLit("(?<x>b)"), IntLit(1)}), "b");
  EXPECT_EQ(One("regexp_extract", {StringLit("a\nb"), StringLit("(?s)a.b"), IntLit(0)}), "a\nb");
  EXPECT_EQ(One("regexp_extract", {StringLit("aXb"), StringLit("\\p{Upper}"), IntLit(0)}), "X");
  EXPECT_EQ(One("regexp_extract", {StringLit("a b"), StringLit("\\p{Alpha}+"), IntLit(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {StringLit("abc"), StringLit("\\Qa\\E"), IntLit(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {StringLit("ab"), StringLit("\\x61"), IntLit(0)}), "a");
  EXPECT_EQ(One("regexp_extract", {StringLit("ab"), StringLit("\\u0062"), IntLit(0)}), "b");
  EXPECT_EQ(One("regexp_extract", {StringLit("aab"), StringLit("a++"), IntLit(0)}), "aa");
  EXPECT_EQ(One("regexp_extract", {StringLit("x\x0By"), StringLit("\\s"), IntLit(0)}), "\x0B");
}

TEST_F(RegexFunctionsTest, RegexpExtractAll) {
  auto all = Call("regexp_extract_all", {StringLit("a1b22c333"), StringLit("(\\d)(\\d)?"), IntLit(2)});
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_TRUE((*all)->Equals(*Expected("array<string>", R"([["", "2", "3", ""]])")))
      << (*all)->ToString();
  auto empty = Call("regexp_extract_all", {StringLit("abc"), StringLit(""), IntLit(0)});
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE((*empty)->Equals(*Expected("array<string>", R"([["", "", "", ""]])")));
  ExpectErrorClass("regexp_extract_all", {StringLit("abc"), StringLit("(a)"), IntLit(3)},
                   "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX");
}

TEST_F(RegexFunctionsTest, RegexpReplace) {
  auto s = Col("string", R"(["Hello World", "aaa", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, StringLit("[aeiou]"), StringLit("*")}, "string",
             R"(["H*ll* W*rld", "***", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, StringLit(""), StringLit("-")}, "string",
             R"(["-H-e-l-l-o- -W-o-r-l-d-", "-a-a-a-", "-", "-2-0-2-4---0-1---1-5-", "-ü-n-ï-c-ö-d-é-", null])");
  ExpectCall("regexp_replace", {s, StringLit("(\\d+)-(\\d+)-(\\d+)"), StringLit("$3/$2/$1")}, "string",
             R"(["Hello World", "aaa", "", "15/01/2024", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, StringLit("^"), StringLit(">")}, "string",
             R"([">Hello World", ">aaa", ">", ">2024-01-15", ">ünïcödé", null])");
  ExpectCall("regexp_replace", {s, StringLit("l+"), StringLit("L"), IntLit(4)}, "string",
             R"(["HelLo WorLd", "aaa", "", "2024-01-15", "ünïcödé", null])");
  ExpectCall("regexp_replace", {s, NullLit(), StringLit("x")}, "string",
             R"([null, null, null, null, null, null])");
}

TEST_F(RegexFunctionsTest, RegexpReplaceJavaReplacementSyntax) {
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("(a)"), StringLit("\\$1")}), "$1bc");
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("x*"), StringLit("-")}), "-a-b-c-");
  EXPECT_EQ(One("regexp_replace", {StringLit("abcabc"), StringLit("b"), StringLit("X"), IntLit(3)}), "abcaXc");
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("b"), StringLit("X"), IntLit(10)}), "abc");
  EXPECT_EQ(One("regexp_replace", {StringLit("aaa"), StringLit("^a"), StringLit("X"), IntLit(2)}), "aXa");
  EXPECT_EQ(One("regexp_replace", {StringLit("a.b"), StringLit("."), StringLit("$0$0")}), "aa..bb");
  EXPECT_EQ(One("regexp_replace", {StringLit("a.b.c"), StringLit("\\."), StringLit("\\\\")}), "a\\b\\c");
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("b"), StringLit("\\n")}), "anc");
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("(b)"), StringLit("$10")}), "ab0c");
  EXPECT_EQ(One("regexp_replace", {StringLit("ünï"), StringLit("ï"), StringLit("i"), IntLit(3)}), "üni");
}

TEST_F(RegexFunctionsTest, RegexpReplaceErrors) {
  ExpectErrorClass("regexp_replace", {StringLit("abc"), StringLit("(a)"), StringLit("$2")}, "INVALID_REGEXP_REPLACE");
  ExpectErrorClass("regexp_replace", {StringLit("abc"), StringLit("(a)"), StringLit("x\\")}, "INVALID_REGEXP_REPLACE");
  ExpectErrorClass("regexp_replace", {StringLit("abc"), StringLit("[a"), StringLit("x")},
                   "INVALID_PARAMETER_VALUE.PATTERN");
  ExpectErrorClass("regexp_replace", {StringLit("abc"), StringLit("b"), StringLit("X"), IntLit(0)},
                   "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
  // No match, no error (Java fails only while appending a replacement).
  EXPECT_EQ(One("regexp_replace", {StringLit("xyz"), StringLit("(a)"), StringLit("$2")}), "xyz");
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
  ExpectCall("split", {s, StringLit(",")}, "array<string>",
             R"([["a", "b", "", "c", "", ""], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, StringLit(","), IntLit(2)}, "array<string>",
             R"([["a", "b,,c,,"], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, StringLit(","), IntLit(0)}, "array<string>",
             R"([["a", "b", "", "c", "", ""], ["one"], [""], ["", "lead"], null])");
  ExpectCall("split", {s, StringLit(","), IntLit(1)}, "array<string>",
             R"([["a,b,,c,,"], ["one"], [""], [",lead"], null])");
  ExpectCall("split", {s, StringLit("")}, "array<string>",
             R"([["a", ",", "b", ",", ",", "c", ",", ","], ["o", "n", "e"], [""], [",", "l", "e", "a", "d"], null])");
  ExpectCall("split", {s, StringLit(".")}, "array<string>",
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
  EXPECT_EQ(split({StringLit("a1b2c3"), StringLit("\\d")}), expect(R"(["a", "b", "c", ""])"));
  EXPECT_EQ(split({StringLit("a1b2c3"), StringLit("\\d"), IntLit(2)}), expect(R"(["a", "b2c3"])"));
  EXPECT_EQ(split({StringLit("abc"), StringLit(""), IntLit(2)}), expect(R"(["a", "b"])"));
  EXPECT_EQ(split({StringLit("abc"), StringLit("z*")}), expect(R"(["a", "b", "c", ""])"));
  EXPECT_EQ(split({StringLit("a1b22c333d"), StringLit("\\d+"), IntLit(2)}), expect(R"(["a", "b22c333d"])"));
  EXPECT_EQ(split({StringLit("ü;ö,ä"), StringLit("[,;]")}), expect(R"(["ü", "ö", "ä"])"));
  EXPECT_EQ(split({StringLit("a,b"), NullLit()}), expect("null"));
}

TEST_F(RegexFunctionsTest, RegexpCountSubstrInstr) {
  EXPECT_EQ(One("regexp_count", {StringLit("abcabc"), StringLit("b")}), "2");
  EXPECT_EQ(One("regexp_substr", {StringLit("abc123def"), StringLit("\\d+")}), "123");
  EXPECT_EQ(One("regexp_substr", {StringLit("abc"), StringLit("\\d+")}), "null");
  EXPECT_EQ(One("regexp_instr", {StringLit("abc123"), StringLit("\\d+")}), "4");
  EXPECT_EQ(One("regexp_instr", {StringLit("abc"), StringLit("\\d+")}), "0");
}

TEST_F(RegexFunctionsTest, EmptyMatchesFollowJavaFind) {
  EXPECT_EQ(One("regexp_replace", {StringLit("abc"), StringLit("b*"), StringLit("-")}), "-a--c-");
  EXPECT_EQ(One("regexp_replace", {StringLit("aaa"), StringLit("a*"), StringLit("X")}), "XX");
  EXPECT_EQ(One("regexp_count", {StringLit("abc"), StringLit("")}), "4");
  EXPECT_EQ(One("regexp_instr", {StringLit("abc"), StringLit("b"), IntLit(0)}), "2");
  EXPECT_EQ(One("regexp_extract", {StringLit("ab"), StringLit("a(x)?"), IntLit(1)}), "");
  EXPECT_EQ(One("rlike", {StringLit(""), StringLit("")}), "true");
  auto all = Call("regexp_extract_all", {StringLit("abc"), StringLit("b*"), IntLit(0)});
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE((*all)->Equals(*Expected("array<string>", R"([["", "b", "", ""]])")));
  auto split = Call("split", {StringLit("abc"), StringLit("b*")});
  ASSERT_TRUE(split.ok());
  EXPECT_EQ((*split)->ToString(), Expected("array<string>", R"([["a", "", "c", ""]])")->ToString());
}

TEST_F(RegexFunctionsTest, IlikeLowersBothSides) {
  EXPECT_EQ(One("ilike", {StringLit("ÄBC"), StringLit("ä%")}), "true");
  EXPECT_EQ(One("ilike", {StringLit("a_c"), StringLit("A/_C"), StringLit("/")}), "true");
}

TEST_F(RegexFunctionsTest, UnsupportedJavaFeaturesSayWhy) {
  ExpectErrorClass("regexp_extract", {StringLit("abc"), StringLit("b(?=c)"), IntLit(0)}, "UNSUPPORTED_FEATURE.REGEX");
  ExpectErrorClass("regexp_extract", {StringLit("aab"), StringLit("(a)\\1"), IntLit(0)}, "UNSUPPORTED_FEATURE.REGEX");
}

}  // namespace
}  // namespace sluice::testing
