// The connectors' typed option getters against Java's parsing rules and Spark's messages:
// Long.parseLong / Integer.parseInt, JavaUtils.timeStringAs in seconds and milliseconds.
#include "sluice/sources/typed_options.h"

#include <cstdint>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace sluice::sources {
namespace {

constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();

TEST(TypedOptionsTest, ParsesNumbersAsJava) {
  EXPECT_EQ(ParseJavaLong("+7"), 7);
  EXPECT_EQ(ParseJavaLong("-0"), 0);
  EXPECT_EQ(ParseJavaLong("9223372036854775807"), kLongMax);
  EXPECT_EQ(ParseJavaLong("-9223372036854775808"), kLongMin);
  EXPECT_EQ(ParseJavaLong("9223372036854775808"), std::nullopt);
  for (const char* bad : {"", "+", "-", " 1", "1 ", "+-1", "1.0", "0x10"}) {
    EXPECT_EQ(ParseJavaLong(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(ParseJavaInt("-2147483648"), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ParseJavaInt("2147483648"), std::nullopt);
}

TEST(TypedOptionsTest, ReadsOptionsByAnyCaseOfTheirKey) {
  const formats::OptionMap options = {{"ROWS", "12"}, {"flag", "TRUE"}, {"wait", "2min"}};
  EXPECT_EQ(*LongOption(options, "rows", 1), 12);
  EXPECT_EQ(*LongOption(options, "missing", 1), 1);
  EXPECT_EQ(*IntOption(options, "Rows", 1), 12);
  EXPECT_TRUE(*BooleanOption(options, "FLAG", false));
  EXPECT_EQ(*TimeStringOption(options, "wait", TimeStringUnit::kSeconds, 0), 120);
  EXPECT_EQ(*TimeStringOption(options, "missing", TimeStringUnit::kSeconds, 5), 5);
  EXPECT_EQ(IntOption({{"n", "3000000000"}}, "n", 1).status().message(),
            "For input string: \"3000000000\" (option 'n')");
}

TEST(TypedOptionsTest, ReadsDurationsAsSparksTimeStringAsSec) {
  auto seconds = [](const char* text) {
    return *ParseTimeString(text, TimeStringUnit::kSeconds);
  };
  EXPECT_EQ(seconds("5s"), 5);
  EXPECT_EQ(seconds("1500ms"), 1);
  EXPECT_EQ(seconds("999999us"), 0);
  EXPECT_EQ(seconds(" 2MIN "), 120);
  EXPECT_EQ(seconds("3m"), 180);
  EXPECT_EQ(seconds("1h"), 3600);
  EXPECT_EQ(seconds("2d"), 172800);
  EXPECT_EQ(seconds("10"), 10);
  EXPECT_EQ(seconds("-1500ms"), -1);
}

TEST(TypedOptionsTest, ReadsDurationsAsSparksTimeStringAsMs) {
  auto millis = [](const char* text) {
    return *ParseTimeString(text, TimeStringUnit::kMilliseconds);
  };
  EXPECT_EQ(millis("1000"), 1000);
  EXPECT_EQ(millis("7d"), 7 * 24 * 3600 * 1000LL);
  EXPECT_EQ(millis("2500us"), 2);
  // TimeUnit.convert saturates instead of overflowing.
  EXPECT_EQ(millis("9223372036854775807d"), kLongMax);
  EXPECT_EQ(millis("-9223372036854775807s"), kLongMin);
}

TEST(TypedOptionsTest, NamesTheOptionInJavaUtilsMessages) {
  const std::string prefix =
      "Time must be specified as seconds (s), milliseconds (ms), microseconds (us), minutes (m "
      "or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\n";
  auto error = [](const char* value) {
    return TimeStringOption({{"rampUpTime", value}}, "rampUpTime", TimeStringUnit::kSeconds, 0)
        .status()
        .message();
  };
  EXPECT_EQ(error("abc"), prefix + "Failed to parse time string: abc (option 'rampUpTime')");
  EXPECT_EQ(error("5 s"), prefix + "Failed to parse time string: 5 s (option 'rampUpTime')");
  EXPECT_EQ(error("5years"), prefix + "Invalid suffix: \"years\" (option 'rampUpTime')");
  EXPECT_EQ(error("99999999999999999999s"),
            prefix + "For input string: \"99999999999999999999\" (option 'rampUpTime')");
  EXPECT_EQ(ParseTimeString("5 s", TimeStringUnit::kMilliseconds).status().message(),
            prefix + "Failed to parse time string: 5 s");
}

}  // namespace
}  // namespace sluice::sources
