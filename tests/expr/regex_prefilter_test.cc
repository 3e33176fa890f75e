// The prefilter that lets regex functions skip texts a pattern cannot match.
#include "sluice/expr/functions/regex_prefilter.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sluice::expr {
namespace {

RE2::Options Options() {
  RE2::Options options;
  options.set_log_errors(false);
  return options;
}

std::unique_ptr<const RegexPrefilter> Make(const std::string& pattern) {
  return RegexPrefilter::Make(pattern, Options());
}

TEST(RegexPrefilterTest, RulesOutTextsWithoutTheStringsEveryMatchHolds) {
  auto prefilter = Make("(&|^)channel_id=([^&]*)");
  ASSERT_NE(prefilter, nullptr);
  EXPECT_FALSE(prefilter->MayMatch("https://www.nexmark.com/a_b/c_d/e_f/item.htm?query=1"));
  EXPECT_FALSE(prefilter->MayMatch("channel_id"));
  EXPECT_FALSE(prefilter->MayMatch(""));
  EXPECT_TRUE(prefilter->MayMatch("https://www.nexmark.com/item.htm?query=1&channel_id=7"));
  EXPECT_TRUE(prefilter->MayMatch("channel_id=7"));
  // A string is only a necessary condition: the regex itself decides.
  EXPECT_TRUE(prefilter->MayMatch("xchannel_id=7"));
  // Atoms are searched for ignoring ASCII case.
  EXPECT_TRUE(prefilter->MayMatch("Channel_ID=7"));

  auto alternatives = Make("abc|xyz");
  ASSERT_NE(alternatives, nullptr);
  EXPECT_TRUE(alternatives->MayMatch("--xyz--"));
  EXPECT_TRUE(alternatives->MayMatch("abc"));
  EXPECT_FALSE(alternatives->MayMatch("ab xy"));

  // Ten atoms (status=50 to status=59) share "status=5": a text without it is ruled out with
  // one search, and one with it is left to the regex.
  auto gated = Make("status=5\\d\\d");
  ASSERT_NE(gated, nullptr);
  EXPECT_FALSE(gated->MayMatch("GET /items status=200 took=5ms"));
  EXPECT_TRUE(gated->MayMatch("GET /items status=503 took=5ms"));
  EXPECT_TRUE(gated->MayMatch("GET /items STATUS=5"));

  auto both = Make("foo.*bar");
  ASSERT_NE(both, nullptr);
  EXPECT_TRUE(both->MayMatch("foo and bar"));
  EXPECT_FALSE(both->MayMatch("foo alone"));
  EXPECT_FALSE(both->MayMatch("bar alone"));
}

TEST(RegexPrefilterTest, PatternsItCannotFilterSafelyGetNone) {
  // Nothing every match must contain.
  EXPECT_EQ(Make("\\d+"), nullptr);
  EXPECT_EQ(Make(""), nullptr);
  EXPECT_EQ(Make("ab"), nullptr);  // shorter than an atom
  EXPECT_EQ(Make("abc|\\d"), nullptr);
  // Too many atoms to search for one by one, with nothing in common.
  EXPECT_EQ(Make("abc|def|ghi|jkl|mno"), nullptr);
  // Case-insensitive matching folds more than ASCII case (RE2 folds the Kelvin sign to k).
  EXPECT_EQ(Make("(?i)hello"), nullptr);
  EXPECT_EQ(Make("x(?si:hello)"), nullptr);
  RE2::Options insensitive = Options();
  insensitive.set_case_sensitive(false);
  EXPECT_EQ(RegexPrefilter::Make("hello", insensitive), nullptr);
  // Atoms beyond ASCII, whose other cases an ASCII search would miss.
  EXPECT_EQ(Make("stra\u00dfe"), nullptr);
  // Flags that keep matching case-sensitive leave the prefilter on.
  EXPECT_NE(Make("(?s)hello.world"), nullptr);
}

// Whatever the pattern and the text, a text the regex matches is never ruled out; and the
// prefilter does rule out texts, or it would be no use.
TEST(RegexPrefilterTest, NeverRulesOutATextTheRegexMatches) {
  // Each pattern with a text it matches, planted into some of the random texts.
  const std::vector<std::pair<std::string, std::string>> patterns = {
      {"(&|^)channel_id=([^&]*)", "&channel_id=7"}, {"abc|xyz", "xyz"},
      {"foo.*bar", "foo bar"},     {"x(ab|cd)y", "xcdy"},  {"abcd+e", "abcdde"},
      {"[ab]cd", "bcd"},           {"(?s)abc.def", "abc\ndef"}, {"colou?r", "color"},
      {"(bc)*ddd", "bcddd"},       {"(abc)+", "abcabc"},    {"^abc$", "abc"},
      {"\\babc\\b", " abc "},      {"ABC", "ABC"},          {"xyz[^x]cd", "xyz_cd"},
      {"(ab|cd)(ef|gh)", "cdef"},  {"x{2,}yzz", "xxxyzz"},  {"ab[^x]*cdd", "ab__cdd"},
      {"s=5\\d\\d", "s=503"}};
  const std::string alphabet = "abcdefghruoxyzABC_=& 053\n";
  std::mt19937 random(7);
  for (const auto& [pattern, example] : patterns) {
    SCOPED_TRACE(pattern);
    auto prefilter = Make(pattern);
    ASSERT_NE(prefilter, nullptr);
    RE2 regex(pattern, Options());
    ASSERT_TRUE(regex.ok());
    int matched = 0;
    int ruled_out = 0;
    for (int i = 0; i < 20'000; ++i) {
      std::string text;
      const int length = static_cast<int>(random() % 24);
      for (int k = 0; k < length; ++k) text.push_back(alphabet[random() % alphabet.size()]);
      if (random() % 8 == 0) {
        text = example;
      } else if (random() % 3 == 0) {
        text.insert(random() % (text.size() + 1), example);
      }
      const bool matches = RE2::PartialMatch(text, regex);
      const bool may_match = prefilter->MayMatch(text);
      if (matches) {
        ++matched;
        ASSERT_TRUE(may_match) << "text: " << text;
      }
      if (!may_match) ++ruled_out;
    }
    EXPECT_GT(matched, 0);
    EXPECT_GT(ruled_out, 0);
  }
}

}  // namespace
}  // namespace sluice::expr
