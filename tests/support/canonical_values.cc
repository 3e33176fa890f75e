#include "support/canonical_values.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>

#include <arrow/type.h>
#include <arrow/util/decimal.h>

namespace sluice::testing {

namespace {

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Civil date from days since 1970-01-01 (proleptic Gregorian).
void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  days += 719468;
  const int64_t era = FloorDiv(days, 146097);
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = static_cast<int64_t>(yoe) + era * 400 + (*month <= 2);
}

std::string DateText(int64_t days) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  char buffer[32];
  if (year >= 0 && year <= 9999) {
    std::snprintf(buffer, sizeof(buffer), "%04" PRId64 "-%02u-%02u", year, month, day);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%+05" PRId64 "-%02u-%02u", year, month, day);
  }
  return buffer;
}

std::string TimestampText(int64_t micros, bool utc) {
  const int64_t days = FloorDiv(micros, 86400000000LL);
  const int64_t in_day = micros - days * 86400000000LL;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "T%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%06" PRId64 "%s",
                in_day / int64_t{3600000000}, in_day / int64_t{60000000} % 60,
                in_day / int64_t{1000000} % 60, in_day % int64_t{1000000}, utc ? "Z" : "");
  return DateText(days) + buffer;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (unsigned char c : bytes) {
    text.push_back(kDigits[c >> 4]);
    text.push_back(kDigits[c & 15]);
  }
  return text;
}

// An unscaled integer's digits with `scale` fraction digits, never in exponent form: "1.50".
std::string PlainDecimal(std::string digits, int32_t scale) {
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (scale > 0) {
    if (static_cast<int32_t>(digits.size()) <= scale) {
      digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    }
    const size_t point = digits.size() - static_cast<size_t>(scale);
    digits = digits.substr(0, point) + '.' + digits.substr(point);
  }
  return (negative ? "-" : "") + digits;
}

// The scalar text form of a value whose canonical form is a JSON string.
bool StringForm(const arrow::Array& array, int64_t row, std::string* text) {
  switch (array.type_id()) {
    case arrow::Type::STRING:
      *text = std::string(static_cast<const arrow::StringArray&>(array).GetView(row));
      return true;
    case arrow::Type::BINARY:
      *text = Hex(static_cast<const arrow::BinaryArray&>(array).GetView(row));
      return true;
    case arrow::Type::DECIMAL128: {
      const auto& type = static_cast<const arrow::Decimal128Type&>(*array.type());
      arrow::Decimal128 value(static_cast<const arrow::Decimal128Array&>(array).GetValue(row));
      *text = PlainDecimal(value.ToIntegerString(), type.scale());
      return true;
    }
    case arrow::Type::DATE32:
      *text = DateText(static_cast<const arrow::Date32Array&>(array).Value(row));
      return true;
    case arrow::Type::TIMESTAMP: {
      const auto& type = static_cast<const arrow::TimestampType&>(*array.type());
      *text = TimestampText(static_cast<const arrow::TimestampArray&>(array).Value(row),
                            !type.timezone().empty());
      return true;
    }
    default:
      return false;
  }
}

bool FloatingValue(const arrow::Array& array, int64_t row, double* value) {
  if (array.type_id() == arrow::Type::DOUBLE) {
    *value = static_cast<const arrow::DoubleArray&>(array).Value(row);
    return true;
  }
  if (array.type_id() == arrow::Type::FLOAT) {
    *value = static_cast<const arrow::FloatArray&>(array).Value(row);
    return true;
  }
  return false;
}

bool IntegerValue(const arrow::Array& array, int64_t row, int64_t* value) {
  switch (array.type_id()) {
    case arrow::Type::INT8: *value = static_cast<const arrow::Int8Array&>(array).Value(row); return true;
    case arrow::Type::INT16: *value = static_cast<const arrow::Int16Array&>(array).Value(row); return true;
    case arrow::Type::INT32: *value = static_cast<const arrow::Int32Array&>(array).Value(row); return true;
    case arrow::Type::INT64: *value = static_cast<const arrow::Int64Array&>(array).Value(row); return true;
    // A day-time interval is its microseconds (PySpark collects a timedelta).
    case arrow::Type::DURATION: *value = static_cast<const arrow::DurationArray&>(array).Value(row); return true;
    default: return false;
  }
}

bool Fail(std::string* why, const std::string& message) {
  if (why) *why = message;
  return false;
}

bool CloseEnough(double actual, double expected) {
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected)) return actual == expected;
  if (actual == expected) return true;
  const double scale = std::max(std::fabs(actual), std::fabs(expected));
  return std::fabs(actual - expected) <= 1e-12 * scale || std::fabs(actual - expected) < 1e-300;
}

}  // namespace

bool MatchesCanonical(const arrow::Array& array, int64_t row, simdjson::dom::element expected,
                      std::string* why) {
  const bool expected_null = expected.is_null();
  if (array.IsNull(row) || array.type_id() == arrow::Type::NA) {
    return expected_null || Fail(why, "expected " + std::string(simdjson::minify(expected)) +
                                          ", got null");
  }
  if (expected_null) return Fail(why, "expected null, got " + CanonicalText(array, row));
  const std::string actual_text = CanonicalText(array, row);
  auto mismatch = [&] {
    return Fail(why, "expected " + std::string(simdjson::minify(expected)) + ", got " +
                         actual_text);
  };
  if (array.type_id() == arrow::Type::BOOL) {
    bool value;
    if (expected.get(value) != simdjson::SUCCESS) return mismatch();
    return value == static_cast<const arrow::BooleanArray&>(array).Value(row) || mismatch();
  }
  int64_t integer;
  if (IntegerValue(array, row, &integer)) {
    int64_t value;
    if (expected.get(value) != simdjson::SUCCESS) return mismatch();
    return value == integer || mismatch();
  }
  double floating;
  if (FloatingValue(array, row, &floating)) {
    double value;
    std::string_view special;
    if (expected.get(special) == simdjson::SUCCESS) {
      value = special == "NaN" ? std::nan("") : special == "Infinity" ? HUGE_VAL : -HUGE_VAL;
    } else if (expected.get(value) != simdjson::SUCCESS) {
      int64_t whole;
      if (expected.get(whole) != simdjson::SUCCESS) return mismatch();
      value = static_cast<double>(whole);
    }
    return CloseEnough(floating, value) || mismatch();
  }
  std::string text;
  if (StringForm(array, row, &text)) {
    std::string_view value;
    if (expected.get(value) != simdjson::SUCCESS) return mismatch();
    return value == text || mismatch();
  }
  simdjson::dom::array items;
  if (expected.get(items) != simdjson::SUCCESS) return mismatch();
  switch (array.type_id()) {
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      const auto values = list.values();
      const int64_t offset = list.value_offset(row);
      if (static_cast<int64_t>(items.size()) != list.value_length(row)) return mismatch();
      int64_t i = 0;
      for (auto item : items) {
        if (!MatchesCanonical(*values, offset + i++, item, nullptr)) return mismatch();
      }
      return true;
    }
    case arrow::Type::STRUCT: {
      const auto& structs = static_cast<const arrow::StructArray&>(array);
      if (static_cast<int>(items.size()) != structs.num_fields()) return mismatch();
      int i = 0;
      for (auto item : items) {
        if (!MatchesCanonical(*structs.field(i++), row, item, nullptr)) return mismatch();
      }
      return true;
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapArray&>(array);
      const int64_t offset = map.value_offset(row);
      if (static_cast<int64_t>(items.size()) != map.value_length(row)) return mismatch();
      int64_t i = 0;
      for (auto item : items) {
        simdjson::dom::array pair;
        if (item.get(pair) != simdjson::SUCCESS || pair.size() != 2) return mismatch();
        if (!MatchesCanonical(*map.keys(), offset + i, pair.at(0).value(), nullptr) ||
            !MatchesCanonical(*map.items(), offset + i, pair.at(1).value(), nullptr)) {
          return mismatch();
        }
        ++i;
      }
      return true;
    }
    default:
      return Fail(why, "no canonical form for type " + array.type()->ToString());
  }
}

std::string CanonicalText(const arrow::Array& array, int64_t row) {
  if (array.IsNull(row) || array.type_id() == arrow::Type::NA) return "null";
  if (array.type_id() == arrow::Type::BOOL) {
    return static_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false";
  }
  int64_t integer;
  if (IntegerValue(array, row, &integer)) return std::to_string(integer);
  double floating;
  if (FloatingValue(array, row, &floating)) {
    if (std::isnan(floating)) return "\"NaN\"";
    if (std::isinf(floating)) return floating > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    char buffer[40];
    std::snprintf(buffer, sizeof(buffer), "%.17g", floating);
    return buffer;
  }
  std::string text;
  if (StringForm(array, row, &text)) return "\"" + text + "\"";
  std::string out = "[";
  switch (array.type_id()) {
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      for (int64_t i = 0; i < list.value_length(row); ++i) {
        out += (i ? ", " : "") + CanonicalText(*list.values(), list.value_offset(row) + i);
      }
      break;
    }
    case arrow::Type::STRUCT: {
      const auto& structs = static_cast<const arrow::StructArray&>(array);
      for (int i = 0; i < structs.num_fields(); ++i) {
        out += (i ? ", " : "") + CanonicalText(*structs.field(i), row);
      }
      break;
    }
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapArray&>(array);
      for (int64_t i = 0; i < map.value_length(row); ++i) {
        const int64_t at = map.value_offset(row) + i;
        out += std::string(i ? ", " : "") + "[" + CanonicalText(*map.keys(), at) + ", " +
               CanonicalText(*map.items(), at) + "]";
      }
      break;
    }
    default:
      return "<" + array.type()->ToString() + ">";
  }
  return out + "]";
}

}  // namespace sluice::testing
