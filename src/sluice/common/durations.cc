#include "sluice/common/durations.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"

namespace sluice {

namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

struct Unit {
  const char* name;
  double ms;
};

// IntervalUtils' unit names (singular and plural) for day-time intervals.
constexpr Unit kIntervalUnits[] = {
    {"week", 604800000},      {"weeks", 604800000},  {"day", 86400000},
    {"days", 86400000},       {"hour", 3600000},     {"hours", 3600000},
    {"minute", 60000},        {"minutes", 60000},    {"second", 1000},
    {"seconds", 1000},        {"millisecond", 1},    {"milliseconds", 1},
    {"microsecond", 0.001},   {"microseconds", 0.001}, {"ms", 1},
    {"us", 0.001},            {"s", 1000},           {"sec", 1000},
    {"secs", 1000},           {"min", 60000},        {"mins", 60000},
    {"h", 3600000},           {"d", 86400000}};

}  // namespace

arrow::Result<int64_t> ParseIntervalMs(std::string_view text, std::string_view what) {
  std::string lower = AsciiLower(Trim(text));
  std::vector<std::string> words;
  size_t pos = 0;
  while (pos < lower.size()) {
    while (pos < lower.size() && std::isspace(static_cast<unsigned char>(lower[pos]))) ++pos;
    size_t start = pos;
    while (pos < lower.size() && !std::isspace(static_cast<unsigned char>(lower[pos]))) ++pos;
    if (pos > start) words.push_back(lower.substr(start, pos - start));
  }
  auto invalid = [&](const std::string& why) {
    return SparkError("INVALID_INTERVAL_FORMAT.INVALID_UNIT",
                      "Error parsing '" + std::string(text) + "' to interval for " +
                          std::string(what) + ": " + why);
  };
  if (!words.empty() && words[0] == "interval") words.erase(words.begin());
  if (words.empty()) return invalid("the interval is empty");
  double total_ms = 0;
  for (size_t i = 0; i < words.size(); i += 2) {
    double value = 0;
    std::string_view number = words[i];
    auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc() || end != number.data() + number.size()) {
      return invalid("'" + words[i] + "' is not a number");
    }
    if (i + 1 >= words.size()) return invalid("the number " + words[i] + " has no unit");
    const std::string& unit = words[i + 1];
    if (unit.rfind("month", 0) == 0 || unit.rfind("year", 0) == 0) {
      return SparkError("INVALID_INTERVAL_FORMAT.INVALID_UNIT",
                        "Doesn't support month or year interval: " + std::string(text));
    }
    const Unit* found = nullptr;
    for (const auto& candidate : kIntervalUnits) {
      if (unit == candidate.name) found = &candidate;
    }
    if (found == nullptr) return invalid("invalid unit '" + unit + "'");
    total_ms += value * found->ms;
  }
  // Beyond int64 milliseconds (or not a number at all, as "nan" and "inf" parse) there is no
  // interval; converting such a double is undefined behaviour.
  if (!(std::fabs(total_ms) < 9.2e18)) return invalid("the interval is out of range");
  return static_cast<int64_t>(total_ms);
}

}  // namespace sluice
