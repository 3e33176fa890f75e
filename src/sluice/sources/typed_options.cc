#include "sluice/sources/typed_options.h"

#include <cctype>
#include <limits>
#include <string>

#include "sluice/common/ascii.h"

namespace sluice::sources {

namespace {

std::string OptionName(std::string_view key) { return " (option '" + std::string(key) + "')"; }

arrow::Status NumberFormatError(std::string_view text, std::string_view key) {
  return arrow::Status::Invalid("For input string: \"", text, "\"", OptionName(key));
}

// Java's String.trim: strips every character up to and including the space.
std::string_view JavaTrim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

// The option `key` read by `parse`, or `default_value` when it is not set.
template <typename Number>
arrow::Result<Number> NumberOption(const formats::OptionMap& options, std::string_view key,
                                   Number default_value,
                                   std::optional<Number> (*parse)(std::string_view)) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  std::optional<Number> value = parse(it->second);
  if (!value) return NumberFormatError(it->second, key);
  return *value;
}

constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();

// Microseconds per unit of JavaUtils.timeSuffixes; 0 for an unknown suffix.
int64_t MicrosPerUnit(std::string_view suffix) {
  if (suffix == "us") return 1;
  if (suffix == "ms") return 1000;
  if (suffix == "s") return 1000 * 1000;
  if (suffix == "m" || suffix == "min") return 60LL * 1000 * 1000;
  if (suffix == "h") return 60LL * 60 * 1000 * 1000;
  if (suffix == "d") return 24LL * 60 * 60 * 1000 * 1000;
  return 0;
}

int64_t MicrosPerUnit(TimeStringUnit unit) {
  return unit == TimeStringUnit::kSeconds ? 1000 * 1000 : 1000;
}

// TimeUnit.convert: a finer unit divides (truncating toward zero), a coarser one multiplies,
// saturating at the long range instead of overflowing.
int64_t ConvertTime(int64_t value, int64_t from_micros, int64_t to_micros) {
  if (from_micros < to_micros) return value / (to_micros / from_micros);
  const int64_t factor = from_micros / to_micros;
  if (value > kLongMax / factor) return kLongMax;
  if (value < -(kLongMax / factor)) return kLongMin;
  return value * factor;
}

}  // namespace

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
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    const int digit = text[i] - '0';
    if (value < kLongMin / 10 || value * 10 < kLongMin + digit) return std::nullopt;
    value = value * 10 - digit;
  }
  if (negative) return value;
  if (value == kLongMin) return std::nullopt;
  return -value;
}

std::optional<int32_t> ParseJavaInt(std::string_view text) {
  std::optional<int64_t> value = ParseJavaLong(text);
  if (!value || *value < std::numeric_limits<int32_t>::min() ||
      *value > std::numeric_limits<int32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<int32_t>(*value);
}

arrow::Result<int64_t> ParseTimeString(std::string_view text, TimeStringUnit unit) {
  const std::string lower = AsciiLower(JavaTrim(text));
  // The form Spark accepts: (-?[0-9]+)([a-z]+)?
  size_t digits_end = lower.starts_with('-') ? 1 : 0;
  const size_t digits_begin = digits_end;
  while (digits_end < lower.size() && std::isdigit(static_cast<unsigned char>(lower[digits_end]))) {
    ++digits_end;
  }
  const std::string_view number = std::string_view(lower).substr(0, digits_end);
  const std::string_view suffix = std::string_view(lower).substr(digits_end);
  bool well_formed = digits_end > digits_begin;
  for (char c : suffix) well_formed = well_formed && c >= 'a' && c <= 'z';

  std::string problem;
  if (!well_formed) {
    problem = "Failed to parse time string: " + std::string(text);
  } else if (std::optional<int64_t> value = ParseJavaLong(number); !value) {
    problem = "For input string: \"" + std::string(number) + "\"";
  } else if (const int64_t from = suffix.empty() ? MicrosPerUnit(unit) : MicrosPerUnit(suffix);
             from != 0) {
    return ConvertTime(*value, from, MicrosPerUnit(unit));
  } else {
    problem = "Invalid suffix: \"" + std::string(suffix) + "\"";
  }
  return arrow::Status::Invalid(
      "Time must be specified as seconds (s), milliseconds (ms), microseconds (us), minutes (m "
      "or min), hour (h), or day (d). E.g. 50s, 100ms, or 250us.\n",
      problem);
}

arrow::Result<int64_t> LongOption(const formats::OptionMap& options, std::string_view key,
                                  int64_t default_value) {
  return NumberOption(options, key, default_value, ParseJavaLong);
}

arrow::Result<int32_t> IntOption(const formats::OptionMap& options, std::string_view key,
                                 int32_t default_value) {
  return NumberOption(options, key, default_value, ParseJavaInt);
}

arrow::Result<bool> BooleanOption(const formats::OptionMap& options, std::string_view key,
                                  bool default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  const std::string lower = AsciiLower(it->second);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return arrow::Status::Invalid(it->second, " is not a boolean string.", OptionName(key));
}

arrow::Result<int64_t> TimeStringOption(const formats::OptionMap& options, std::string_view key,
                                        TimeStringUnit unit, int64_t default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  auto value = ParseTimeString(it->second, unit);
  if (!value.ok()) return arrow::Status::Invalid(value.status().message(), OptionName(key));
  return *value;
}

arrow::Result<int64_t> ByteStringOption(const formats::OptionMap& options, std::string_view key,
                                        int64_t default_value) {
  auto it = options.find(key);
  if (it == options.end()) return default_value;
  std::string text = AsciiLower(JavaTrim(it->second));
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
    ++digits;
  }
  const std::string suffix = text.substr(digits);
  static constexpr std::pair<std::string_view, int> kUnits[] = {
      {"", 0},   {"b", 0},   {"k", 10},  {"kb", 10}, {"m", 20}, {"mb", 20},
      {"g", 30}, {"gb", 30}, {"t", 40},  {"tb", 40}, {"p", 50}, {"pb", 50}};
  for (const auto& [unit, shift] : kUnits) {
    if (suffix != unit || digits == 0) continue;
    auto value = ParseJavaLong(text.substr(0, digits));
    if (!value || *value > (kLongMax >> shift)) break;
    return *value << shift;
  }
  return arrow::Status::Invalid(
      "Size must be specified as bytes (b), kibibytes (k), mebibytes (m), gibibytes (g), "
      "tebibytes (t), or pebibytes(p). E.g. 50b, 100k, or 250m. Failed to parse byte string: ",
      it->second, OptionName(key));
}

}  // namespace sluice::sources
