#include "sluice/sources/rate/typed_options.h"

#include <cctype>
#include <limits>
#include <optional>
#include <string>

namespace sluice::sources {

namespace {

std::string OptionName(std::string_view key) { return " (option '" + std::string(key) + "')"; }

// Java's Long.parseLong: an optional sign then at least one digit, overflow rejected.
std::optional<int64_t> ParseJavaLong(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return std::nullopt;
  // Accumulate negatively so that Long.MIN_VALUE, which has no positive twin, parses too.
  int64_t value = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    const int digit = text[i] - '0';
    if (value < kMin / 10 || value * 10 < kMin + digit) return std::nullopt;
    value = value * 10 - digit;
  }
  if (negative) return value;
  if (value == kMin) return std::nullopt;
  return -value;
}

arrow::Status NumberFormatError(std::string_view text, std::string_view key) {
  return arrow::Status::Invalid("For input string: \"", text, "\"", OptionName(key));
}

// Java's String.trim: strips every character up to and including the space.
std::string_view JavaTrim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

int64_t SaturatingMultiply(int64_t value, int64_t factor) {
  int64_t product = 0;
  if (__builtin_mul_overflow(value, factor, &product)) {
    return value < 0 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
  }
  return product;
}

// TimeUnit.SECONDS.convert(value, unit) for the unit named by `suffix`.
std::optional<int64_t> ToSeconds(int64_t value, std::string_view suffix) {
  if (suffix == "us") return value / 1000000;
  if (suffix == "ms") return value / 1000;
  if (suffix == "s") return value;
  if (suffix == "m" || suffix == "min") return SaturatingMultiply(value, 60);
  if (suffix == "h") return SaturatingMultiply(value, 3600);
  if (suffix == "d") return SaturatingMultiply(value, 86400);
  return std::nullopt;
}

}  // namespace

arrow::Result<int64_t> LongOption(const formats::OptionMap& options, std::string_view key,
                                  int64_t default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  std::optional<int64_t> value = ParseJavaLong(it->second);
  if (!value) return NumberFormatError(it->second, key);
  return *value;
}

arrow::Result<int32_t> IntOption(const formats::OptionMap& options, std::string_view key,
                                 int32_t default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  std::optional<int64_t> value = ParseJavaLong(it->second);
  if (!value || *value < std::numeric_limits<int32_t>::min() ||
      *value > std::numeric_limits<int32_t>::max()) {
    return NumberFormatError(it->second, key);
  }
  return static_cast<int32_t>(*value);
}

arrow::Result<bool> BooleanOption(const formats::OptionMap& options, std::string_view key,
                                  bool default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  std::string lower = it->second;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return arrow::Status::Invalid(it->second, " is not a boolean string.", OptionName(key));
}

arrow::Result<int64_t> TimeStringAsSeconds(std::string_view text, std::string_view key) {
  std::string lower(JavaTrim(text));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // The form Spark accepts: (-?[0-9]+)([a-z]+)?
  size_t digits_end = lower.starts_with('-') ? 1 : 0;
  const size_t digits_begin = digits_end;
  while (digits_end < lower.size() && std::isdigit(static_cast<unsigned char>(lower[digits_end]))) {
    ++digits_end;
  }
  std::string_view suffix = std::string_view(lower).substr(digits_end);
  bool well_formed = digits_end > digits_begin;
  for (char c : suffix) well_formed = well_formed && c >= 'a' && c <= 'z';

  std::string problem;
  if (!well_formed) {
    problem = "Failed to parse time string: " + std::string(text);
  } else if (std::optional<int64_t> value =
                 ParseJavaLong(std::string_view(lower).substr(0, digits_end));
             !value) {
    problem = "For input string: \"" + lower.substr(0, digits_end) + "\"";
  } else if (std::optional<int64_t> seconds = ToSeconds(*value, suffix.empty() ? "s" : suffix)) {
    return *seconds;
  } else {
    problem = "Invalid suffix: \"" + std::string(suffix) + "\"";
  }
  return arrow::Status::Invalid(
      "Time must be specified as seconds (s), milliseconds (ms), microseconds (us), minutes (m "
      "or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\n",
      problem, OptionName(key));
}

}  // namespace sluice::sources
