// CAST to and from STRING: Spark's text form of every type, and Spark's parsers of numbers,
// booleans, decimals, dates and timestamps.
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>

#include <arrow/array/builder_binary.h>
#include <arrow/compute/api.h>
#include <arrow/visit_type_inline.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/print.h"
#include "sluice/expr/cast_format.h"
#include "sluice/expr/cast_internal.h"
#include "sluice/types/interval_types.h"

namespace sluice::expr::cast_internal {

namespace {

using Type = arrow::Type;

// Appends the text of value `index` of an array (known non-null) to `out`.
using ValueWriter = std::function<void(int64_t index, std::string* out)>;

// Builds a writer for `array`'s type; nested types print their elements recursively, nulls
// inside them as "null" ("NULL" when pretty).
arrow::Result<ValueWriter> MakeWriter(const std::shared_ptr<arrow::Array>& array,
                                      const CastSettings& settings);

arrow::Result<ValueWriter> MakeNestedWriter(const std::shared_ptr<arrow::Array>& array,
                                            const CastSettings& settings) {
  const char* null_text = settings.pretty ? "NULL" : "null";
  switch (array->type_id()) {
    case Type::LIST: {
      auto list = std::static_pointer_cast<arrow::ListArray>(array);
      auto values = list->values();
      ARROW_ASSIGN_OR_RAISE(auto element, MakeWriter(values, settings));
      return ValueWriter([list, values, element, null_text](int64_t i, std::string* out) {
        out->push_back('[');
        for (int32_t j = list->value_offset(i); j < list->value_offset(i + 1); ++j) {
          if (j > list->value_offset(i)) out->append(", ");
          if (values->IsNull(j)) {
            out->append(null_text);
          } else {
            element(j, out);
          }
        }
        out->push_back(']');
      });
    }
    case Type::MAP: {
      auto map = std::static_pointer_cast<arrow::MapArray>(array);
      auto keys = map->keys();
      auto items = map->items();
      ARROW_ASSIGN_OR_RAISE(auto key_writer, MakeWriter(keys, settings));
      ARROW_ASSIGN_OR_RAISE(auto item_writer, MakeWriter(items, settings));
      return ValueWriter([map, keys, items, key_writer, item_writer, null_text](int64_t i,
                                                                                std::string* out) {
        out->push_back('{');
        for (int32_t j = map->value_offset(i); j < map->value_offset(i + 1); ++j) {
          if (j > map->value_offset(i)) out->append(", ");
          if (keys->IsNull(j)) {
            out->append(null_text);
          } else {
            key_writer(j, out);
          }
          out->append(" -> ");
          if (items->IsNull(j)) {
            out->append(null_text);
          } else {
            item_writer(j, out);
          }
        }
        out->push_back('}');
      });
    }
    case Type::STRUCT: {
      auto st = std::static_pointer_cast<arrow::StructArray>(array);
      std::vector<std::shared_ptr<arrow::Array>> fields;
      std::vector<ValueWriter> writers;
      for (int f = 0; f < st->num_fields(); ++f) {
        fields.push_back(st->field(f));
        ARROW_ASSIGN_OR_RAISE(auto writer, MakeWriter(st->field(f), settings));
        writers.push_back(std::move(writer));
      }
      return ValueWriter([fields, writers, null_text](int64_t i, std::string* out) {
        out->push_back('{');
        for (size_t f = 0; f < fields.size(); ++f) {
          if (f > 0) out->append(", ");
          if (fields[f]->IsNull(i)) {
            out->append(null_text);
          } else {
            writers[f](i, out);
          }
        }
        out->push_back('}');
      });
    }
    default:
      return MissingCastKernel(*array->type(), arrow::StringType());
  }
}

// Spark's HEX_DISCRETE binary style, what show() prints: "[68 65 6C]", "[]" when empty.
void AppendHexBytes(std::string_view bytes, std::string* out) {
  constexpr char kDigits[] = "0123456789ABCDEF";
  out->push_back('[');
  for (size_t k = 0; k < bytes.size(); ++k) {
    if (k > 0) out->push_back(' ');
    const auto byte = static_cast<unsigned char>(bytes[k]);
    out->push_back(kDigits[byte >> 4]);
    out->push_back(kDigits[byte & 0x0F]);
  }
  out->push_back(']');
}

template <typename ArrayType, typename Fn>
ValueWriter Typed(const std::shared_ptr<arrow::Array>& array, Fn fn) {
  auto typed = std::static_pointer_cast<ArrayType>(array);
  return [typed, fn](int64_t i, std::string* out) { fn(*typed, i, out); };
}

void AppendInteger(int64_t value, std::string* out) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, static_cast<size_t>(result.ptr - buffer));
}

arrow::Result<ValueWriter> MakeWriter(const std::shared_ptr<arrow::Array>& array,
                                      const CastSettings& settings) {
  switch (array->type_id()) {
    case Type::NA:
      return ValueWriter([](int64_t, std::string* out) { out->append("null"); });
    case Type::BOOL:
      return Typed<arrow::BooleanArray>(array, [](const auto& a, int64_t i, std::string* out) {
        out->append(a.Value(i) ? "true" : "false");
      });
    case Type::INT8:
      return Typed<arrow::Int8Array>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendInteger(a.Value(i), out);
      });
    case Type::INT16:
      return Typed<arrow::Int16Array>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendInteger(a.Value(i), out);
      });
    case Type::INT32:
      return Typed<arrow::Int32Array>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendInteger(a.Value(i), out);
      });
    case Type::INT64:
      return Typed<arrow::Int64Array>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendInteger(a.Value(i), out);
      });
    case Type::FLOAT:
      return Typed<arrow::FloatArray>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendJavaFloat(a.Value(i), out);
      });
    case Type::DOUBLE:
      return Typed<arrow::DoubleArray>(array, [](const auto& a, int64_t i, std::string* out) {
        AppendJavaDouble(a.Value(i), out);
      });
    case Type::DECIMAL128: {
      const int32_t scale = static_cast<const arrow::Decimal128Type&>(*array->type()).scale();
      return Typed<arrow::Decimal128Array>(
          array, [scale](const auto& a, int64_t i, std::string* out) {
            AppendDecimal(arrow::Decimal128(a.GetValue(i)), scale, out);
          });
    }
    case Type::STRING:
      return Typed<arrow::StringArray>(array, [](const auto& a, int64_t i, std::string* out) {
        out->append(a.GetView(i));
      });
    case Type::LARGE_STRING:
      return Typed<arrow::LargeStringArray>(
          array, [](const auto& a, int64_t i, std::string* out) { out->append(a.GetView(i)); });
    case Type::BINARY:
      if (settings.pretty) {
        return Typed<arrow::BinaryArray>(array, [](const auto& a, int64_t i, std::string* out) {
          AppendHexBytes(a.GetView(i), out);
        });
      }
      return Typed<arrow::BinaryArray>(array, [](const auto& a, int64_t i, std::string* out) {
        out->append(a.GetView(i));
      });
    case Type::DATE32:
      return Typed<arrow::Date32Array>(array, [](const auto& a, int64_t i, std::string* out) {
        datetime::AppendDate(a.Value(i), out);
      });
    case Type::TIMESTAMP: {
      const bool ltz =
          !static_cast<const arrow::TimestampType&>(*array->type()).timezone().empty();
      const datetime::TimeZone* zone = settings.zone;
      if (!ltz || zone == nullptr) {
        return Typed<arrow::TimestampArray>(array, [](const auto& a, int64_t i, std::string* out) {
          datetime::AppendLocalTimestamp(a.Value(i), out);
        });
      }
      return Typed<arrow::TimestampArray>(array, [zone](const auto& a, int64_t i, std::string* out) {
        const int64_t micros = a.Value(i);
        const int64_t offset = zone->OffsetAt(datetime::FloorDiv(micros, 1000000));
        datetime::AppendLocalTimestamp(micros + offset * 1000000, out);
      });
    }
    case Type::DURATION: {
      const auto fields = types::DayTimeFieldsOf(*array->type());
      return Typed<arrow::DurationArray>(array, [fields](const auto& a, int64_t i,
                                                         std::string* out) {
        out->append(types::FormatDayTimeInterval(a.Value(i), fields));
      });
    }
    case Type::INTERVAL_MONTHS: {
      const auto fields = types::YearMonthFieldsOf(*array->type());
      return Typed<arrow::MonthIntervalArray>(array, [fields](const auto& a, int64_t i,
                                                              std::string* out) {
        out->append(types::FormatYearMonthInterval(a.Value(i), fields));
      });
    }
    default:
      return MakeNestedWriter(array, settings);
  }
}

// Accumulates a utf8 column.
class StringOutput {
 public:
  StringOutput(int64_t length, arrow::MemoryPool* pool) : builder_(pool), length_(length) {}

  arrow::Status Reserve(int64_t data_bytes) {
    ARROW_RETURN_NOT_OK(builder_.Reserve(length_));
    return builder_.ReserveData(data_bytes);
  }
  arrow::Status Append(std::string_view text) { return builder_.Append(text); }
  arrow::Status AppendNull() { return builder_.AppendNull(); }
  arrow::Result<std::shared_ptr<arrow::Array>> Finish() { return builder_.Finish(); }

 private:
  arrow::StringBuilder builder_;
  int64_t length_;
};

// Fast loops for the common flat types; everything else goes through a ValueWriter.
template <typename ArrayType, typename Fn>
arrow::Result<std::shared_ptr<arrow::Array>> FlatToString(const arrow::Array& input,
                                                          int64_t bytes_per_value,
                                                          const CastSettings& settings, Fn fn) {
  const auto& typed = static_cast<const ArrayType&>(input);
  StringOutput output(input.length(), settings.pool);
  ARROW_RETURN_NOT_OK(output.Reserve(input.length() * bytes_per_value));
  std::string text;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (typed.IsNull(i)) {
      ARROW_RETURN_NOT_OK(output.AppendNull());
      continue;
    }
    text.clear();
    fn(typed, i, &text);
    ARROW_RETURN_NOT_OK(output.Append(text));
  }
  return output.Finish();
}

// Spark's UTF8String.toLong/toInt: an optional sign and digits, and under ANSI nothing else; with
// ANSI off a '.' and further digits are allowed and dropped.
template <typename T>
bool ParseIntegral(std::string_view text, bool allow_fraction, T* out) {
  text = datetime::TrimSparkWhitespace(text);
  if (text.empty()) return false;
  size_t i = 0;
  const bool negative = text[0] == '-';
  if (text[0] == '-' || text[0] == '+') {
    if (text.size() == 1) return false;
    i = 1;
  }
  // Accumulate negatively so that the minimum value parses.
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kStop = kMin / 10;
  T result = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && allow_fraction) {
      for (size_t k = i + 1; k < text.size(); ++k) {
        if (text[k] < '0' || text[k] > '9') return false;
      }
      break;
    }
    if (c < '0' || c > '9') return false;
    const T digit = static_cast<T>(c - '0');
    if (result < kStop) return false;
    result = static_cast<T>(result * 10);
    if (result < kMin + digit) return false;
    result = static_cast<T>(result - digit);
  }
  if (!negative) {
    if (result == kMin) return false;
    result = static_cast<T>(-result);
  }
  *out = result;
  return true;
}

// Spark's string to double/float: the special names, then Java's Double.parseDouble.
template <typename T>
bool ParseFloating(std::string_view raw, T* out) {
  std::string_view text = datetime::TrimSparkWhitespace(raw);
  if (text.empty()) return false;
  std::string lower(text);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") {
    *out = std::numeric_limits<T>::infinity();
    return true;
  }
  if (lower == "-inf" || lower == "-infinity") {
    *out = -std::numeric_limits<T>::infinity();
    return true;
  }
  if (lower == "nan" || lower == "+nan" || lower == "-nan") {
    *out = std::numeric_limits<T>::quiet_NaN();
    return true;
  }
  // Java accepts a trailing type suffix (d, D, f, F) and a leading '+'.
  if (lower.back() == 'd' || lower.back() == 'f') lower.pop_back();
  std::string_view body = lower;
  bool negative = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body.empty() || body[0] == '+' || body[0] == '-') return false;
  // Java requires a digit in the mantissa and allows only [digits][.digits][e[+-]digits].
  size_t k = 0;
  bool mantissa_digit = false;
  while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) {
    ++k;
    mantissa_digit = true;
  }
  if (k < body.size() && body[k] == '.') {
    ++k;
    while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) {
      ++k;
      mantissa_digit = true;
    }
  }
  if (!mantissa_digit) return false;
  if (k < body.size() && body[k] == 'e') {
    ++k;
    if (k < body.size() && (body[k] == '+' || body[k] == '-')) ++k;
    const size_t exponent_start = k;
    while (k < body.size() && std::isdigit(static_cast<unsigned char>(body[k]))) ++k;
    if (k == exponent_start) return false;
  }
  if (k != body.size()) return false;
  T value{};
  auto result = std::from_chars(body.data(), body.data() + body.size(), value);
  if (result.ec == std::errc::result_out_of_range) {
    // from_chars reports overflow and underflow without a value; Java gives +-Infinity or +-0.
    const size_t e = body.find('e');
    const bool tiny = e != std::string_view::npos && body.find('-', e) != std::string_view::npos;
    value = tiny ? T(0) : std::numeric_limits<T>::infinity();
  } else if (result.ec != std::errc() || result.ptr != body.data() + body.size()) {
    return false;
  }
  *out = negative ? -value : value;
  return true;
}

bool ParseBoolean(std::string_view raw, bool* out) {
  std::string_view text = datetime::TrimSparkWhitespace(raw);
  if (text.size() > 5) return false;
  std::string lower(text);
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "t" || lower == "true" || lower == "y" || lower == "yes" || lower == "1") {
    *out = true;
    return true;
  }
  if (lower == "f" || lower == "false" || lower == "n" || lower == "no" || lower == "0") {
    *out = false;
    return true;
  }
  return false;
}

// Runs `parse(text, &value) -> int` (0 ok, 1 malformed, 2 out of range) over a string column.
template <typename CType, typename Parse, typename OnError>
arrow::Result<std::shared_ptr<arrow::Array>> ParseColumn(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings, Parse parse, OnError on_error) {
  const auto& strings = static_cast<const arrow::StringArray&>(input);
  FixedWidthOutput<CType> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), settings.pool));
  for (int64_t i = 0; i < input.length(); ++i) {
    if (strings.IsNull(i)) {
      output.SetNull(i);
      continue;
    }
    CType value{};
    const int outcome = parse(strings.GetView(i), &value);
    if (outcome != 0) {
      if (settings.fail_on_error) return on_error(i, outcome);
      output.SetNull(i);
      continue;
    }
    output.data[i] = value;
  }
  return output.Finish(target);
}

arrow::Result<std::shared_ptr<arrow::Array>> ParseBooleanColumn(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  const auto& strings = static_cast<const arrow::StringArray&>(input);
  arrow::BooleanBuilder builder(settings.pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(input.length()));
  for (int64_t i = 0; i < input.length(); ++i) {
    bool value = false;
    if (strings.IsNull(i)) {
      builder.UnsafeAppendNull();
    } else if (ParseBoolean(strings.GetView(i), &value)) {
      builder.UnsafeAppend(value);
    } else if (settings.fail_on_error) {
      return InvalidInput(ValueSql(input, i, settings), *input.type(), *target);
    } else {
      builder.UnsafeAppendNull();
    }
  }
  return builder.Finish();
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> CastToString(const arrow::Array& input,
                                                          const CastSettings& settings) {
  switch (input.type_id()) {
    case Type::INT32:
      return FlatToString<arrow::Int32Array>(
          input, 8, settings,
          [](const auto& a, int64_t i, std::string* out) { AppendInteger(a.Value(i), out); });
    case Type::INT64:
      return FlatToString<arrow::Int64Array>(
          input, 12, settings,
          [](const auto& a, int64_t i, std::string* out) { AppendInteger(a.Value(i), out); });
    case Type::DOUBLE:
      return FlatToString<arrow::DoubleArray>(
          input, 12, settings,
          [](const auto& a, int64_t i, std::string* out) { AppendJavaDouble(a.Value(i), out); });
    case Type::DATE32:
      return FlatToString<arrow::Date32Array>(
          input, 10, settings,
          [](const auto& a, int64_t i, std::string* out) {
            datetime::AppendDate(a.Value(i), out);
          });
    case Type::TIMESTAMP: {
      const bool ltz =
          !static_cast<const arrow::TimestampType&>(*input.type()).timezone().empty();
      if (ltz && settings.zone != nullptr) {
        datetime::ZoneOffsetCursor cursor(*settings.zone);
        return FlatToString<arrow::TimestampArray>(
            input, 19, settings, [&cursor](const auto& a, int64_t i, std::string* out) {
              const int64_t micros = a.Value(i);
              datetime::AppendLocalTimestamp(
                  micros + int64_t{cursor.OffsetAtMicros(micros)} * 1000000, out);
            });
      }
      return FlatToString<arrow::TimestampArray>(
          input, 19, settings,
          [](const auto& a, int64_t i, std::string* out) {
            datetime::AppendLocalTimestamp(a.Value(i), out);
          });
    }
    case Type::BINARY: {
      if (settings.pretty) break;  // hex, by the writer below
      // The bytes themselves, reinterpreted as UTF-8.
      auto data = input.data()->Copy();
      data->type = arrow::utf8();
      return arrow::MakeArray(data);
    }
    case Type::LARGE_STRING:
      return arrow::compute::Cast(input, arrow::utf8()).Map([](auto a) { return a; });
    default:
      break;
  }
  auto shared = arrow::MakeArray(input.data());
  ARROW_ASSIGN_OR_RAISE(auto writer, MakeWriter(shared, settings));
  StringOutput output(input.length(), settings.pool);
  ARROW_RETURN_NOT_OK(output.Reserve(input.length() * 8));
  std::string text;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      ARROW_RETURN_NOT_OK(output.AppendNull());
      continue;
    }
    text.clear();
    writer(i, &text);
    ARROW_RETURN_NOT_OK(output.Append(text));
  }
  return output.Finish();
}

// Spark's error for a string that is not an interval of the target's fields.
arrow::Status UnmatchedInterval(const arrow::Array& input, int64_t i,
                                const arrow::DataType& target) {
  return SparkError("INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE",
                    "Interval string does not match the format of " +
                        types::IntervalTypeName(target, /*upper=*/true) + ": " +
                        std::string(static_cast<const arrow::StringArray&>(input).GetView(i)) +
                        ". Write the value alone (\"10\" for INTERVAL MINUTE) or as the "
                        "interval literal of the same fields.");
}

arrow::Result<std::shared_ptr<arrow::Array>> CastFromString(
    const arrow::Array& raw_input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  std::shared_ptr<arrow::Array> converted;
  if (raw_input.type_id() == Type::LARGE_STRING) {
    ARROW_ASSIGN_OR_RAISE(converted, arrow::compute::Cast(raw_input, arrow::utf8()));
  }
  const arrow::Array& input = converted ? *converted : raw_input;
  const auto& from = *input.type();
  auto malformed = [&](int64_t i, int) {
    return InvalidInput(ValueSql(input, i, settings), from, *target);
  };
  const bool ansi = !settings.legacy;
  switch (target->id()) {
    case Type::BINARY: {
      auto data = input.data()->Copy();
      data->type = arrow::binary();
      return arrow::MakeArray(data);
    }
    case Type::BOOL:
      return ParseBooleanColumn(input, target, settings);
    case Type::DURATION: {
      const auto fields = types::DayTimeFieldsOf(*target);
      auto unmatched = [&](int64_t i, int) { return UnmatchedInterval(input, i, *target); };
      return ParseColumn<int64_t>(
          input, target, settings,
          [fields](std::string_view text, int64_t* value) {
            auto micros = types::ParseDayTimeIntervalCast(text, fields);
            if (!micros) return 1;
            *value = *micros;
            return 0;
          },
          unmatched);
    }
    case Type::INTERVAL_MONTHS: {
      const auto fields = types::YearMonthFieldsOf(*target);
      auto unmatched = [&](int64_t i, int) { return UnmatchedInterval(input, i, *target); };
      return ParseColumn<int32_t>(
          input, target, settings,
          [fields](std::string_view text, int32_t* value) {
            auto months = types::ParseYearMonthIntervalCast(text, fields);
            if (!months) return 1;
            *value = *months;
            return 0;
          },
          unmatched);
    }
    case Type::INT8:
    case Type::INT16:
    case Type::INT32: {
      const int bits = arrow::bit_width(target->id());
      const int32_t max = bits == 8 ? 127 : bits == 16 ? 32767 : std::numeric_limits<int32_t>::max();
      const int32_t min = -max - 1;
      auto parse = [ansi, min, max](std::string_view text, int32_t* value) {
        return ParseIntegral<int32_t>(text, !ansi, value) && *value >= min && *value <= max ? 0 : 1;
      };
      ARROW_ASSIGN_OR_RAISE(auto wide,
                            ParseColumn<int32_t>(input, arrow::int32(), settings, parse, malformed));
      if (bits == 32) return wide;
      return arrow::compute::Cast(*wide, target, arrow::compute::CastOptions::Unsafe(target));
    }
    case Type::INT64:
      return ParseColumn<int64_t>(
          input, target, settings,
          [ansi](std::string_view text, int64_t* value) {
            return ParseIntegral<int64_t>(text, !ansi, value) ? 0 : 1;
          },
          malformed);
    case Type::DOUBLE:
      return ParseColumn<double>(
          input, target, settings,
          [](std::string_view text, double* value) { return ParseFloating(text, value) ? 0 : 1; },
          malformed);
    case Type::FLOAT:
      return ParseColumn<float>(
          input, target, settings,
          [](std::string_view text, float* value) { return ParseFloating(text, value) ? 0 : 1; },
          malformed);
    case Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(*target);
      const int32_t precision = decimal.precision(), scale = decimal.scale();
      std::string plain;
      auto parse = [&](std::string_view text, arrow::Decimal128* value) {
        return ParseDecimal(datetime::TrimSparkWhitespace(text), precision, scale, value, &plain);
      };
      auto on_error = [&](int64_t i, int outcome) {
        if (outcome == 2) return DecimalOutOfRange(plain, precision, scale);
        return malformed(i, outcome);
      };
      return ParseColumn<arrow::Decimal128>(input, target, settings, parse, on_error);
    }
    case Type::DATE32:
      return ParseColumn<int32_t>(
          input, target, settings,
          [](std::string_view text, int32_t* value) {
            auto days = datetime::ParseDate(text);
            if (!days || *days < std::numeric_limits<int32_t>::min() ||
                *days > std::numeric_limits<int32_t>::max()) {
              return 1;
            }
            *value = static_cast<int32_t>(*days);
            return 0;
          },
          malformed);
    case Type::TIMESTAMP: {
      const bool ltz = !static_cast<const arrow::TimestampType&>(*target).timezone().empty();
      const datetime::TimeZone* zone = settings.zone;
      const int64_t now = settings.now_micros;
      if (ltz) {
        return ParseColumn<int64_t>(
            input, target, settings,
            [zone, now](std::string_view text, int64_t* value) {
              auto micros = datetime::ParseTimestamp(text, *zone, now);
              if (!micros) return 1;
              *value = *micros;
              return 0;
            },
            malformed);
      }
      return ParseColumn<int64_t>(
          input, target, settings,
          [now](std::string_view text, int64_t* value) {
            auto micros = datetime::ParseTimestampNtz(text, true, now);
            if (!micros) return 1;
            *value = *micros;
            return 0;
          },
          malformed);
    }
    default:
      return MissingCastKernel(arrow::StringType(), *target);
  }
}

}  // namespace sluice::expr::cast_internal
