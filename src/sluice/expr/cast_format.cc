#include "sluice/expr/cast_format.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace sluice::expr {

namespace {

// Lays out shortest round-trip digits the way Java's Double.toString and Float.toString do:
// plain notation for 1e-3 <= |v| < 1e7, computerized scientific notation otherwise, always with a
// digit after the point.
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
  // buffer holds "[-]d[.ddd]e[+-]xx".
  std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  const bool negative = text[0] == '-';
  if (negative) text.remove_prefix(1);
  const size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (negative) out->push_back('-');
  const int length = static_cast<int>(digits.size());
  if (exponent >= -3 && exponent < 7) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits);
    } else if (length <= exponent + 1) {
      out->append(digits);
      out->append(static_cast<size_t>(exponent + 1 - length), '0');
      out->append(".0");
    } else {
      out->append(digits, 0, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      out->append(digits, static_cast<size_t>(exponent + 1));
    }
    return;
  }
  out->push_back(digits[0]);
  out->push_back('.');
  if (length == 1) {
    out->push_back('0');
  } else {
    out->append(digits, 1);
  }
  out->push_back('E');
  out->append(std::to_string(exponent));
}

}  // namespace

void AppendJavaDouble(double value, std::string* out) { AppendJavaFloating(value, out); }

void AppendJavaFloat(float value, std::string* out) { AppendJavaFloating(value, out); }

void AppendDecimal(const arrow::Decimal128& value, int32_t scale, std::string* out) {
  std::string digits = arrow::Decimal128(arrow::Decimal128::Abs(value)).ToIntegerString();
  if (value.IsNegative() && value != 0) out->push_back('-');
  if (scale <= 0) {
    out->append(digits);
    return;
  }
  if (static_cast<int32_t>(digits.size()) <= scale) {
    digits.insert(0, static_cast<size_t>(scale + 1 - static_cast<int32_t>(digits.size())), '0');
  }
  const size_t point = digits.size() - static_cast<size_t>(scale);
  out->append(digits, 0, point);
  out->push_back('.');
  out->append(digits, point);
}

}  // namespace sluice::expr
