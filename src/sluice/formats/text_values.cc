#include "sluice/formats/text_values.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include <arrow/type.h>

namespace sluice::formats {

std::optional<double> ParseNonNumericNumber(std::string_view text) {
  if (text == "NaN") return std::nan("");
  if (text == "Infinity" || text == "+Infinity" || text == "INF" || text == "+INF") {
    return HUGE_VAL;
  }
  if (text == "-Infinity" || text == "-INF") return -HUGE_VAL;
  return std::nullopt;
}

std::optional<arrow::Decimal128> ParseDecimalText(std::string_view text,
                                                  const arrow::DataType& decimal_type) {
  const auto& type = static_cast<const arrow::Decimal128Type&>(decimal_type);
  arrow::Decimal128 value;
  int32_t precision = 0, scale = 0;
  if (!arrow::Decimal128::FromString(text, &value, &precision, &scale).ok()) return std::nullopt;
  if (scale > type.scale()) {
    // Round half up (away from zero), as java.math.BigDecimal.setScale(s, HALF_UP).
    int32_t drop = scale - type.scale();
    arrow::Decimal128 divisor = arrow::Decimal128::GetScaleMultiplier(drop);
    auto divided = value.Divide(divisor);
    if (!divided.ok()) return std::nullopt;
    arrow::Decimal128 quotient = divided->first;
    arrow::Decimal128 twice = arrow::Decimal128::Abs(divided->second) * 2;
    if (twice >= divisor) quotient += value.IsNegative() ? -1 : 1;
    value = quotient;
  } else if (scale < type.scale()) {
    auto rescaled = value.Rescale(scale, type.scale());
    if (!rescaled.ok()) return std::nullopt;
    value = *rescaled;
  }
  if (!value.FitsInPrecision(type.precision())) return std::nullopt;
  return value;
}

namespace {

/// Java's Double/Float.toString from the shortest round-trip digits: plain notation for
/// 1e-3 <= |v| < 1e7, else d.dddE[-]n; always at least one fraction digit.
void AppendJavaStyle(const char* digits_begin, const char* digits_end, std::string* out) {
  // `digits` is std::to_chars scientific output: [-]d[.ddd]e[+-]nn
  std::string_view text(digits_begin, static_cast<size_t>(digits_end - digits_begin));
  bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (negative) out->push_back('-');
  if (exponent >= -3 && exponent < 7) {
    if (exponent >= 0) {
      size_t integer_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= integer_digits) {
        out->append(digits);
        out->append(integer_digits - digits.size(), '0');
        out->append(".0");
      } else {
        out->append(digits, 0, integer_digits);
        out->push_back('.');
        out->append(digits, integer_digits, std::string::npos);
      }
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits);
    }
    return;
  }
  out->push_back(digits[0]);
  out->push_back('.');
  if (digits.size() > 1) {
    out->append(digits, 1, std::string::npos);
  } else {
    out->push_back('0');
  }
  out->push_back('E');
  out->append(std::to_string(exponent));
}

template <typename T>
void AppendJavaFloating(T value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value > 0 ? "Infinity" : "-Infinity");
    return;
  }
  if (value == 0) {
    out->append(std::signbit(value) ? "-0.0" : "0.0");
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  AppendJavaStyle(buffer, result.ptr, out);
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

}  // namespace

void AppendJavaDouble(double value, std::string* out) { AppendJavaFloating(value, out); }
void AppendJavaFloat(float value, std::string* out) { AppendJavaFloating(value, out); }

std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  uint32_t accumulator = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == '\r') continue;
    int v = Base64Value(c);
    if (v < 0) return std::nullopt;
    accumulator = accumulator << 6 | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>(accumulator >> bits & 0xFF));
    }
  }
  return out;
}

}  // namespace sluice::formats

namespace sluice::formats {

void AppendJavaBigDecimal(const arrow::Decimal128& value, int32_t scale, std::string* out) {
  arrow::Decimal128 magnitude = arrow::Decimal128::Abs(value);
  std::string digits = magnitude.ToIntegerString();
  bool negative = value.IsNegative();
  int64_t adjusted = -static_cast<int64_t>(scale) + static_cast<int64_t>(digits.size()) - 1;
  if (negative) out->push_back('-');
  if (scale == 0) {
    out->append(digits);
    return;
  }
  if (scale > 0 && adjusted >= -6) {
    if (static_cast<int64_t>(digits.size()) > scale) {
      size_t integer = digits.size() - static_cast<size_t>(scale);
      out->append(digits, 0, integer);
      out->push_back('.');
      out->append(digits, integer, std::string::npos);
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(scale) - digits.size(), '0');
      out->append(digits);
    }
    return;
  }
  out->push_back(digits[0]);
  if (digits.size() > 1) {
    out->push_back('.');
    out->append(digits, 1, std::string::npos);
  }
  out->push_back('E');
  if (adjusted >= 0) out->push_back('+');
  out->append(std::to_string(adjusted));
}

}  // namespace sluice::formats
