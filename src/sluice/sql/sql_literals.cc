#include "sluice/sql/sql_literals.h"

#include <cfloat>
#include <cmath>
#include <cstdlib>

#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_types.h"

namespace sluice::sql {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

arrow::Status OutOfRange(std::string_view text, bool negative, std::string_view type_name,
                         std::string_view min_value, std::string_view max_value) {
  return SparkError("INVALID_NUMERIC_LITERAL_RANGE",
                    "Numeric literal " + std::string(negative ? "-" : "") + std::string(text) +
                        " is outside the valid range for " + std::string(type_name) +
                        " with minimum value of " + std::string(min_value) +
                        " and maximum value of " + std::string(max_value) +
                        ". Please adjust the value accordingly.");
}

/// Signed value of unsigned decimal `digits` if it lies in [min, max].
std::optional<int64_t> IntegerInRange(std::string_view digits, bool negative, int64_t min,
                                      int64_t max) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return 0;
  digits.remove_prefix(first);
  if (digits.size() > 19) return std::nullopt;
  unsigned __int128 magnitude = 0;
  for (char c : digits) magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
  __int128 value = negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  if (value < min || value > max) return std::nullopt;
  return static_cast<int64_t>(value);
}

/// An exact decimal from digits with an optional point and exponent, as Java's BigDecimal
/// reads them and Spark types them: precision = max(digits, scale), a negative scale is
/// folded into the digits.
arrow::Result<std::shared_ptr<arrow::Scalar>> MakeDecimal(std::string_view text, bool negative) {
  std::string digits;
  int64_t scale = 0;
  bool after_point = false;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    if (IsDigit(text[i])) {
      digits.push_back(text[i]);
      if (after_point) ++scale;
    } else if (text[i] == '.') {
      after_point = true;
    } else {
      break;
    }
  }
  if (i < text.size() && Upper(text[i]) == 'E') {
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    int64_t exponent = 0;
    for (; i < text.size() && IsDigit(text[i]); ++i) {
      exponent = std::min<int64_t>(exponent * 10 + (text[i] - '0'), 1000000);
    }
    scale += exponent_negative ? exponent : -exponent;
  }
  size_t first = digits.find_first_not_of('0');
  digits = first == std::string::npos ? "0" : digits.substr(first);
  if (scale < 0) {
    if (digits != "0") {
      if (static_cast<int64_t>(digits.size()) - scale > types::kMaxDecimalPrecision) {
        return SparkError("DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                          "Decimal precision " + std::to_string(digits.size() - scale) +
                              " exceeds max precision " +
                              std::to_string(types::kMaxDecimalPrecision) + ".");
      }
      digits.append(static_cast<size_t>(-scale), '0');
    }
    scale = 0;
  }
  const int64_t precision = std::max<int64_t>(static_cast<int64_t>(digits.size()), scale);
  if (precision > types::kMaxDecimalPrecision) {
    return SparkError("DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                      "Decimal precision " + std::to_string(precision) +
                          " exceeds max precision " +
                          std::to_string(types::kMaxDecimalPrecision) + ".");
  }
  ARROW_ASSIGN_OR_RAISE(auto type, types::MakeDecimalType(static_cast<int32_t>(precision),
                                                          static_cast<int32_t>(scale)));
  ARROW_ASSIGN_OR_RAISE(auto value, arrow::Decimal128::FromString(digits));
  if (negative) value.Negate();
  return std::make_shared<arrow::Decimal128Scalar>(value, std::move(type));
}

arrow::Result<double> ParseFloating(std::string_view text, bool negative, bool is_float) {
  std::string number = (negative ? "-" : "") + std::string(text);
  double value = std::strtod(number.c_str(), nullptr);
  const double max = is_float ? static_cast<double>(FLT_MAX) : DBL_MAX;
  if (std::isinf(value) || std::fabs(value) > max) {
    return is_float ? OutOfRange(text, negative, "float", "-3.4028235E38", "3.4028235E38")
                    : OutOfRange(text, negative, "double", "-1.7976931348623157E308",
                                 "1.7976931348623157E308");
  }
  return value;
}

/// Days since the epoch of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

/// Reads between `min` and `max` digits at `*pos`.
std::optional<int64_t> ReadDigits(std::string_view text, size_t* pos, size_t min, size_t max) {
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < text.size() && *pos - start < max && IsDigit(text[*pos])) {
    value = value * 10 + (text[(*pos)++] - '0');
  }
  if (*pos - start < min || (*pos < text.size() && IsDigit(text[*pos]))) return std::nullopt;
  return value;
}

std::string_view Trim(std::string_view text) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

/// Reads [+-]yyyy[-[m]m[-[d]d]] at the start of `text`, leaving `*pos` after it.
std::optional<int64_t> ReadDate(std::string_view text, size_t* pos) {
  bool negative = false;
  if (*pos < text.size() && (text[*pos] == '+' || text[*pos] == '-')) {
    negative = text[(*pos)++] == '-';
  }
  auto year = ReadDigits(text, pos, 4, 7);
  if (!year) return std::nullopt;
  int64_t month = 1;
  int64_t day = 1;
  if (*pos < text.size() && text[*pos] == '-') {
    ++*pos;
    auto m = ReadDigits(text, pos, 1, 2);
    if (!m) return std::nullopt;
    month = *m;
    if (*pos < text.size() && text[*pos] == '-') {
      ++*pos;
      auto d = ReadDigits(text, pos, 1, 2);
      if (!d) return std::nullopt;
      day = *d;
    }
  }
  const int64_t y = negative ? -*year : *year;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(y, month)) return std::nullopt;
  return DaysFromCivil(y, month, day);
}

bool IsZoneChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_' ||
         c == '/' || c == '+' || c == '-' || c == ':';
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Scalar>> MakeNumericLiteral(std::string_view text,
                                                                 bool negative) {
  const char last = text.empty() ? '\0' : Upper(text.back());
  const bool big_decimal = text.size() >= 2 && last == 'D' && Upper(text[text.size() - 2]) == 'B';
  if (big_decimal) return MakeDecimal(text.substr(0, text.size() - 2), negative);
  if (last == 'D' || last == 'F') {
    ARROW_ASSIGN_OR_RAISE(double value,
                          ParseFloating(text.substr(0, text.size() - 1), negative, last == 'F'));
    if (last == 'F') return std::make_shared<arrow::FloatScalar>(static_cast<float>(value));
    return std::make_shared<arrow::DoubleScalar>(value);
  }
  if (last == 'L' || last == 'S' || last == 'Y') {
    std::string_view digits = text.substr(0, text.size() - 1);
    if (last == 'L') {
      auto value = IntegerInRange(digits, negative, INT64_MIN, INT64_MAX);
      if (!value) {
        return OutOfRange(digits, negative, "bigint", "-9223372036854775808",
                          "9223372036854775807");
      }
      return std::make_shared<arrow::Int64Scalar>(*value);
    }
    if (last == 'S') {
      auto value = IntegerInRange(digits, negative, INT16_MIN, INT16_MAX);
      if (!value) return OutOfRange(digits, negative, "smallint", "-32768", "32767");
      return std::make_shared<arrow::Int16Scalar>(static_cast<int16_t>(*value));
    }
    auto value = IntegerInRange(digits, negative, INT8_MIN, INT8_MAX);
    if (!value) return OutOfRange(digits, negative, "tinyint", "-128", "127");
    return std::make_shared<arrow::Int8Scalar>(static_cast<int8_t>(*value));
  }
  if (text.find_first_of("eE") != std::string_view::npos) {
    ARROW_ASSIGN_OR_RAISE(double value, ParseFloating(text, negative, false));
    return std::make_shared<arrow::DoubleScalar>(value);
  }
  if (text.find('.') != std::string_view::npos) return MakeDecimal(text, negative);
  if (auto value = IntegerInRange(text, negative, INT32_MIN, INT32_MAX)) {
    return std::make_shared<arrow::Int32Scalar>(static_cast<int32_t>(*value));
  }
  if (auto value = IntegerInRange(text, negative, INT64_MIN, INT64_MAX)) {
    return std::make_shared<arrow::Int64Scalar>(*value);
  }
  return MakeDecimal(text, negative);
}

std::optional<int32_t> ParseDateText(std::string_view text) {
  text = Trim(text);
  size_t pos = 0;
  auto days = ReadDate(text, &pos);
  if (!days) return std::nullopt;
  if (pos < text.size() && text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  if (*days < INT32_MIN || *days > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(*days);
}

std::optional<int64_t> ParseTimestampText(std::string_view text, bool allow_zone) {
  text = Trim(text);
  size_t pos = 0;
  auto days = ReadDate(text, &pos);
  if (!days) return std::nullopt;
  int64_t hour = 0, minute = 0, second = 0, micros = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T') && pos + 1 < text.size() &&
      IsDigit(text[pos + 1])) {
    ++pos;
    auto h = ReadDigits(text, &pos, 1, 2);
    if (!h || pos >= text.size() || text[pos] != ':') return std::nullopt;
    ++pos;
    auto m = ReadDigits(text, &pos, 1, 2);
    if (!m) return std::nullopt;
    hour = *h;
    minute = *m;
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      auto s = ReadDigits(text, &pos, 1, 2);
      if (!s) return std::nullopt;
      second = *s;
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        size_t digits = 0;
        for (; pos < text.size() && IsDigit(text[pos]); ++pos, ++digits) {
          if (digits >= 9) return std::nullopt;
          if (digits < 6) micros = micros * 10 + (text[pos] - '0');
        }
        for (; digits < 6; ++digits) micros *= 10;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
  } else if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T')) {
    ++pos;
  }
  std::string_view zone = Trim(text.substr(pos));
  if (!zone.empty()) {
    if (!allow_zone) return std::nullopt;
    for (char c : zone) {
      if (!IsZoneChar(c)) return std::nullopt;
    }
  }
  // A date too far out for microseconds in 64 bits is no timestamp.
  int64_t minutes = 0;
  int64_t result = 0;
  if (__builtin_mul_overflow(*days, int64_t{24 * 60}, &minutes) ||
      __builtin_add_overflow(minutes, int64_t{hour} * 60 + minute, &minutes) ||
      __builtin_mul_overflow(minutes, int64_t{60'000'000}, &result) ||
      __builtin_add_overflow(result, int64_t{second} * 1'000'000 + micros, &result)) {
    return std::nullopt;
  }
  return result;
}

std::optional<std::string> ParseHexText(std::string_view text) {
  std::string hex = (text.size() % 2 != 0 ? "0" : "") + std::string(text);
  std::string bytes;
  bytes.reserve(hex.size() / 2);
  auto value = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < hex.size(); i += 2) {
    int high = value(hex[i]);
    int low = value(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

}  // namespace sluice::sql
