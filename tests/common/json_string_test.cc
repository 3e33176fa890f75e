#include "sluice/common/json_string.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

std::string Quoted(std::string_view text) {
  std::string out;
  AppendJsonString(text, &out);
  return out;
}

// Spark 4.0.1's to_json escapes quote and backslash with a backslash, newline and tab as \n and
// \t, char(1) and char(31) as \u0001 and \u001F (upper-case hex), and keeps '/' and é verbatim.
TEST(JsonStringTest, EscapesLikeJackson) {
  EXPECT_EQ(Quoted("a\"b\\\n\t\x01\x1f/\xc3\xa9"), "\"a\\\"b\\\\\\n\\t\\u0001\\u001F/\xc3\xa9\"");
  EXPECT_EQ(Quoted(""), "\"\"");
  EXPECT_EQ(Quoted("\b\f\r"), "\"\\b\\f\\r\"");
}

}  // namespace
}  // namespace sluice
