// CAST: which casts Spark allows, the bound cast expression, and the dispatch of an array cast to
// the family that implements it (cast_string.cc, cast_numeric.cc, cast_datetime.cc).
#include "sluice/expr/cast.h"

#include <cctype>
#include <cmath>

#include <arrow/array/util.h>
#include <arrow/compute/api.h>
#include <arrow/type.h>
#include <arrow/util/bitmap_ops.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/print.h"
#include "sluice/expr/cast_format.h"
#include "sluice/expr/cast_internal.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::expr {

namespace {

using cast_internal::CastSettings;
using Type = arrow::Type;

bool IsNumericType(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == Type::DECIMAL128;
}

bool IsTimestampLtz(const arrow::DataType& type) {
  return type.id() == Type::TIMESTAMP &&
         !static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

bool IsTimestampNtz(const arrow::DataType& type) {
  return type.id() == Type::TIMESTAMP &&
         static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

bool IsStringType(const arrow::DataType& type) {
  return type.id() == Type::STRING || type.id() == Type::LARGE_STRING;
}

// Spark's Cast.canAnsiCast (and canTryCast), ignoring nullability.
bool CanAnsiCast(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to) || from.id() == Type::NA) return true;
  if (IsStringType(to)) return true;
  const bool numeric_to = IsNumericType(to);
  if (IsStringType(from)) {
    return to.id() == Type::BINARY || to.id() == Type::BOOL || numeric_to ||
           to.id() == Type::DATE32 || to.id() == Type::TIMESTAMP ||
           types::IsDayTimeInterval(to) || types::IsYearMonthInterval(to);
  }
  if (IsNumericType(from)) {
    return numeric_to || to.id() == Type::BOOL || IsTimestampLtz(to);
  }
  if (from.id() == Type::BOOL) return numeric_to;
  if (from.id() == Type::DATE32) return to.id() == Type::TIMESTAMP;
  if (IsTimestampLtz(from)) return IsTimestampNtz(to) || to.id() == Type::DATE32 || numeric_to;
  if (IsTimestampNtz(from)) return IsTimestampLtz(to) || to.id() == Type::DATE32;
  if (from.id() == Type::LIST && to.id() == Type::LIST) {
    return CanAnsiCast(*from.field(0)->type(), *to.field(0)->type());
  }
  if (from.id() == Type::MAP && to.id() == Type::MAP) {
    const auto& a = static_cast<const arrow::MapType&>(from);
    const auto& b = static_cast<const arrow::MapType&>(to);
    return CanAnsiCast(*a.key_type(), *b.key_type()) &&
           CanAnsiCast(*a.item_type(), *b.item_type());
  }
  if (from.id() == Type::STRUCT && to.id() == Type::STRUCT) {
    if (from.num_fields() != to.num_fields()) return false;
    for (int i = 0; i < from.num_fields(); ++i) {
      if (!CanAnsiCast(*from.field(i)->type(), *to.field(i)->type())) return false;
    }
    return true;
  }
  return false;
}

// Casts Spark allows only with ANSI mode off (Cast.canCast beyond canAnsiCast).
bool CanLegacyCast(const arrow::DataType& from, const arrow::DataType& to) {
  if (arrow::is_integer(from.id()) && to.id() == Type::BINARY) return true;
  if (from.id() == Type::BOOL && IsTimestampLtz(to)) return true;
  if ((from.id() == Type::DATE32 || from.id() == Type::TIMESTAMP) && to.id() == Type::BOOL) {
    return true;
  }
  if (from.id() == Type::DATE32 && IsNumericType(to)) return true;
  if (IsNumericType(from) && to.id() == Type::DATE32) return true;
  if (from.id() == Type::LIST && to.id() == Type::LIST) {
    return CanLegacyCast(*from.field(0)->type(), *to.field(0)->type()) ||
           CanAnsiCast(*from.field(0)->type(), *to.field(0)->type());
  }
  return false;
}

arrow::Status CastNotAllowed(const BoundExpr& child, const arrow::DataType& to, bool ansi) {
  const auto& from = *child.type();
  const std::string from_name = "\"" + cast_internal::TypeSql(from) + "\"";
  const std::string to_name = "\"" + cast_internal::TypeSql(to) + "\"";
  const std::string prefix = "Cannot resolve \"CAST(" + child.sql() + " AS " +
                             cast_internal::TypeSql(to) +
                             ")\" due to data type mismatch: cannot cast " + from_name + " to " +
                             to_name;
  auto with_functions = [&](std::string_view functions) {
    return SparkError("DATATYPE_MISMATCH.CAST_WITH_FUNC_SUGGESTION",
                      prefix + ". To convert values from " + from_name + " to " + to_name +
                          ", you can use the functions " + std::string(functions) + " instead.");
  };
  if (IsNumericType(from) && to.id() == Type::TIMESTAMP && IsTimestampLtz(to)) {
    return with_functions("`TIMESTAMP_SECONDS`, `TIMESTAMP_MILLIS`, `TIMESTAMP_MICROS`");
  }
  if (IsTimestampLtz(from) && IsNumericType(to)) {
    return with_functions("`UNIX_SECONDS`, `UNIX_MILLIS`, `UNIX_MICROS`");
  }
  if (IsNumericType(from) && to.id() == Type::DATE32) {
    return with_functions("`DATE_FROM_UNIX_DATE`");
  }
  if (from.id() == Type::DATE32 && IsNumericType(to)) return with_functions("`UNIX_DATE`");
  if (ansi && CanLegacyCast(from, to)) {
    return SparkError("DATATYPE_MISMATCH.CAST_WITH_CONF_SUGGESTION",
                      prefix + " with ANSI mode on. If you have to cast " + from_name + " to " +
                          to_name +
                          ", you can set \"spark.sql.ansi.enabled\" as \"false\".");
  }
  return SparkError("DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", prefix + ".");
}

// True when a cast never fails and never makes a null out of a non-null value.
bool AlwaysSucceeds(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to) || from.id() == Type::NA) return true;
  if (IsStringType(to)) return true;
  if (from.id() == Type::BOOL) return to.id() != Type::DECIMAL128;
  if (arrow::is_integer(from.id()) && arrow::is_integer(to.id())) {
    return arrow::bit_width(to.id()) >= arrow::bit_width(from.id());
  }
  if (arrow::is_integer(from.id()) && arrow::is_floating(to.id())) return true;
  if (from.id() == Type::FLOAT && to.id() == Type::DOUBLE) return true;
  if (from.id() == Type::DOUBLE && to.id() == Type::FLOAT) return true;
  if (IsNumericType(from) && to.id() == Type::BOOL) return true;
  if (from.id() == Type::DATE32 || from.id() == Type::TIMESTAMP) {
    return to.id() == Type::TIMESTAMP || to.id() == Type::DATE32 || to.id() == Type::INT64 ||
           arrow::is_floating(to.id());
  }
  if (from.id() == Type::STRING && to.id() == Type::BINARY) return true;
  if (to.id() == Type::DECIMAL128) {
    // Spark's DecimalType.isWiderThan: as many digits before the point and after it (a long
    // counts as decimal(20,0), an int as (10,0)), so that nothing rounds or overflows.
    const auto& target = static_cast<const arrow::Decimal128Type&>(to);
    int32_t whole_digits = -1, scale = 0;
    switch (from.id()) {
      case Type::INT8: whole_digits = 3; break;
      case Type::INT16: whole_digits = 5; break;
      case Type::INT32: whole_digits = 10; break;
      case Type::INT64: whole_digits = 20; break;
      case Type::DECIMAL128: {
        const auto& source = static_cast<const arrow::Decimal128Type&>(from);
        whole_digits = source.precision() - source.scale();
        scale = source.scale();
        break;
      }
      default: return false;
    }
    return target.precision() - target.scale() >= whole_digits && target.scale() >= scale;
  }
  return false;
}

// Rebuilds list offsets so they start at zero, for a child cast over exactly the used range.
arrow::Result<std::shared_ptr<arrow::Buffer>> RebasedOffsets(const arrow::ListArray& list,
                                                            arrow::MemoryPool* pool) {
  const int64_t n = list.length();
  ARROW_ASSIGN_OR_RAISE(auto buffer, arrow::AllocateBuffer((n + 1) * sizeof(int32_t), pool));
  auto* out = reinterpret_cast<int32_t*>(buffer->mutable_data());
  const int32_t* in = list.raw_value_offsets();
  for (int64_t i = 0; i <= n; ++i) out[i] = in[i] - in[0];
  return std::shared_ptr<arrow::Buffer>(std::move(buffer));
}

std::shared_ptr<arrow::Buffer> CopyValidity(const arrow::Array& array, arrow::MemoryPool* pool) {
  if (array.null_count() == 0) return nullptr;
  if (array.offset() == 0) return array.null_bitmap();
  auto copied = arrow::internal::CopyBitmap(pool, array.null_bitmap_data(), array.offset(),
                                            array.length());
  return copied.ok() ? *copied : nullptr;
}

}  // namespace

bool CanCast(const arrow::DataType& from, const arrow::DataType& to) {
  return CanAnsiCast(from, to);
}

namespace cast_internal {

std::string TypeSql(const arrow::DataType& type) {
  if (type.id() == Type::STRUCT) {
    std::string name = "STRUCT<";
    for (int i = 0; i < type.num_fields(); ++i) {
      const auto& field = type.field(i);
      if (i > 0) name += ", ";
      name += types::QuoteIfNeeded(field->name()) + ": " + TypeSql(*field->type());
      if (!field->nullable()) name += " NOT NULL";
    }
    return name + ">";
  }
  if (type.id() == Type::LIST) return "ARRAY<" + TypeSql(*type.field(0)->type()) + ">";
  if (type.id() == Type::MAP) {
    const auto& map = static_cast<const arrow::MapType&>(type);
    return "MAP<" + TypeSql(*map.key_type()) + ", " + TypeSql(*map.item_type()) + ">";
  }
  std::string name = types::SimpleString(type);
  for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

std::string ValueSql(const arrow::Array& array, int64_t index, const CastSettings& settings) {
  if (array.IsNull(index)) return "NULL";
  std::string out;
  switch (array.type_id()) {
    case Type::STRING: {
      out = "'";
      for (char c : static_cast<const arrow::StringArray&>(array).GetView(index)) {
        if (c == '\\' || c == '\'') out.push_back('\\');
        out.push_back(c);
      }
      return out + "'";
    }
    case Type::INT8:
      return std::to_string(static_cast<const arrow::Int8Array&>(array).Value(index)) + "Y";
    case Type::INT16:
      return std::to_string(static_cast<const arrow::Int16Array&>(array).Value(index)) + "S";
    case Type::INT32:
      return std::to_string(static_cast<const arrow::Int32Array&>(array).Value(index));
    case Type::INT64:
      return std::to_string(static_cast<const arrow::Int64Array&>(array).Value(index)) + "L";
    case Type::FLOAT:
      AppendJavaFloat(static_cast<const arrow::FloatArray&>(array).Value(index), &out);
      return out;
    case Type::DOUBLE: {
      const double value = static_cast<const arrow::DoubleArray&>(array).Value(index);
      AppendJavaDouble(value, &out);
      if (std::isfinite(value)) out.push_back('D');
      return out;
    }
    case Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Array&>(array);
      AppendDecimal(arrow::Decimal128(decimal.GetValue(index)),
                    static_cast<const arrow::Decimal128Type&>(*array.type()).scale(), &out);
      return out + "BD";
    }
    case Type::BOOL:
      return static_cast<const arrow::BooleanArray&>(array).Value(index) ? "true" : "false";
    case Type::DATE32:
      datetime::AppendDate(static_cast<const arrow::Date32Array&>(array).Value(index), &out);
      return "DATE '" + out + "'";
    case Type::TIMESTAMP: {
      int64_t micros = static_cast<const arrow::TimestampArray&>(array).Value(index);
      const bool ltz = IsTimestampLtz(*array.type());
      if (ltz && settings.zone != nullptr) {
        micros += int64_t{settings.zone->OffsetAt(datetime::FloorDiv(micros, 1000000))} * 1000000;
      }
      datetime::AppendLocalTimestamp(micros, &out);
      return (ltz ? "TIMESTAMP '" : "TIMESTAMP_NTZ '") + out + "'";
    }
    default: {
      auto scalar = array.GetScalar(index);
      return scalar.ok() ? (*scalar)->ToString() : "?";
    }
  }
}

arrow::Status InvalidInput(std::string_view value_sql, const arrow::DataType& from,
                           const arrow::DataType& to) {
  return SparkError("CAST_INVALID_INPUT",
                    "The value " + std::string(value_sql) + " of the type \"" + TypeSql(from) +
                        "\" cannot be cast to \"" + TypeSql(to) +
                        "\" because it is malformed. Correct the value as per the syntax, or "
                        "change its target type. Use `try_cast` to tolerate malformed input and "
                        "return NULL instead.");
}

arrow::Status Overflow(std::string_view value_sql, const arrow::DataType& from,
                       const arrow::DataType& to) {
  return SparkError("CAST_OVERFLOW", "The value " + std::string(value_sql) + " of the type \"" +
                                         TypeSql(from) + "\" cannot be cast to \"" + TypeSql(to) +
                                         "\" due to an overflow. Use `try_cast` to tolerate "
                                         "overflow and return NULL instead.");
}

arrow::Status DecimalOutOfRange(std::string_view value_text, int32_t precision, int32_t scale) {
  return SparkError("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                    " " + std::string(value_text) + " cannot be represented as Decimal(" +
                        std::to_string(precision) + ", " + std::to_string(scale) +
                        "). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                        "this error, and return NULL instead.");
}

arrow::Status MissingCastKernel(const arrow::DataType& from, const arrow::DataType& to) {
  return SparkError("INTERNAL_ERROR", "No CAST kernel from \"" + TypeSql(from) + "\" to \"" +
                                          TypeSql(to) + "\" although the cast was admitted.");
}

bool RescaleDecimal(const arrow::Decimal128& value, int32_t scale, int32_t precision,
                    int32_t new_scale, arrow::Decimal128* out) {
  arrow::Decimal128 result = value;
  if (new_scale > scale) {
    const int32_t diff = new_scale - scale;
    if (diff > 38) return value == 0 ? (*out = 0, true) : false;
    const arrow::Decimal128 bound = arrow::Decimal128::GetScaleMultiplier(38 - diff);
    if (arrow::Decimal128::Abs(value) >= bound) return false;
    result = value * arrow::Decimal128::GetScaleMultiplier(diff);
  } else if (new_scale < scale) {
    const int32_t diff = scale - new_scale;
    if (diff > 38) {
      result = 0;
    } else {
      const arrow::Decimal128 divisor = arrow::Decimal128::GetScaleMultiplier(diff);
      arrow::Decimal128 quotient, remainder;
      if (!DivideDecimal(arrow::Decimal128::Abs(value), divisor, &quotient, &remainder)) {
        return false;
      }
      if (remainder * 2 >= divisor) quotient += 1;
      result = value.IsNegative() ? -quotient : quotient;
    }
  }
  if (precision < 38 && arrow::Decimal128::Abs(result) >= arrow::Decimal128::GetScaleMultiplier(precision)) {
    return false;
  }
  *out = result;
  return true;
}

int ParseDecimal(std::string_view text, int32_t precision, int32_t scale, arrow::Decimal128* out,
                 std::string* plain) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  std::string digits;
  int64_t fraction_digits = 0;
  bool seen_point = false, any_digit = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      any_digit = true;
      if (!(digits.empty() && c == '0')) digits.push_back(c);
      if (seen_point) ++fraction_digits;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return 1;
  int64_t exponent = 0;
  if (i < text.size()) {
    if (text[i] != 'e' && text[i] != 'E') return 1;
    ++i;
    bool exponent_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exponent_negative = text[i++] == '-';
    if (i == text.size()) return 1;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return 1;
      if (exponent < 1000000000) exponent = exponent * 10 + (text[i] - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }
  // value = digits * 10^(-value_scale)
  const int64_t value_scale = fraction_digits - exponent;
  auto make_plain = [&]() {
    std::string d = digits.empty() ? "0" : digits;
    std::string result = negative && !digits.empty() ? "-" : "";
    if (value_scale <= 0) {
      result += d;
      if (!digits.empty()) result.append(static_cast<size_t>(std::min<int64_t>(-value_scale, 400)), '0');
    } else {
      if (static_cast<int64_t>(d.size()) <= value_scale) {
        d.insert(0, static_cast<size_t>(value_scale + 1 - static_cast<int64_t>(d.size())), '0');
      }
      const size_t point = d.size() - static_cast<size_t>(value_scale);
      result += d.substr(0, point) + "." + d.substr(point);
    }
    return result;
  };
  std::string kept = digits;
  if (value_scale > scale) {
    // Drop digits, rounding HALF_UP on the first dropped one.
    const int64_t drop = value_scale - scale;
    bool round_up = false;
    if (drop > static_cast<int64_t>(kept.size())) {
      kept.clear();
    } else {
      round_up = kept[kept.size() - static_cast<size_t>(drop)] >= '5';
      kept.resize(kept.size() - static_cast<size_t>(drop));
    }
    if (round_up) {
      int64_t k = static_cast<int64_t>(kept.size()) - 1;
      while (k >= 0 && kept[k] == '9') kept[k--] = '0';
      if (k < 0) {
        kept.insert(kept.begin(), '1');
      } else {
        ++kept[k];
      }
    }
  } else if (!kept.empty()) {
    const int64_t append = scale - value_scale;
    if (append + static_cast<int64_t>(kept.size()) > precision) {
      *plain = make_plain();
      return 2;
    }
    kept.append(static_cast<size_t>(append), '0');
  }
  while (!kept.empty() && kept[0] == '0') kept.erase(kept.begin());
  if (static_cast<int64_t>(kept.size()) > precision) {
    *plain = make_plain();
    return 2;
  }
  arrow::Decimal128 value = 0;
  for (char c : kept) value = value * 10 + (c - '0');
  *out = negative ? -value : value;
  return 0;
}

bool ChangesIntervalFields(const arrow::DataType& from, const arrow::DataType& to) {
  if (types::IsDayTimeInterval(from) && types::IsDayTimeInterval(to)) {
    const auto a = types::DayTimeFieldsOf(from);
    const auto b = types::DayTimeFieldsOf(to);
    return a.start != b.start || a.end != b.end;
  }
  if (types::IsYearMonthInterval(from) && types::IsYearMonthInterval(to)) {
    const auto a = types::YearMonthFieldsOf(from);
    const auto b = types::YearMonthFieldsOf(to);
    return a.start != b.start || a.end != b.end;
  }
  return false;
}

// Between two interval types of one family: the value without what is below the target's end
// field, typed as the target.
arrow::Result<std::shared_ptr<arrow::Array>> CastInterval(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  auto data = input.data()->Copy();
  if (types::IsDayTimeInterval(*target)) {
    const auto fields = types::DayTimeFieldsOf(*target);
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(input.length() * 8, settings.pool));
    auto* out = reinterpret_cast<int64_t*>(values->mutable_data());
    const auto* in = input.data()->GetValues<int64_t>(1);
    for (int64_t i = 0; i < input.length(); ++i) out[i] = types::TruncateDayTimeInterval(in[i], fields);
    data->buffers[1] = std::move(values);
  } else {
    const auto fields = types::YearMonthFieldsOf(*target);
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(input.length() * 4, settings.pool));
    auto* out = reinterpret_cast<int32_t*>(values->mutable_data());
    const auto* in = input.data()->GetValues<int32_t>(1);
    for (int64_t i = 0; i < input.length(); ++i) {
      out[i] = types::TruncateYearMonthInterval(in[i], fields);
    }
    data->buffers[1] = std::move(values);
  }
  data->offset = 0;
  if (input.offset() != 0 && data->buffers[0] != nullptr) {
    ARROW_ASSIGN_OR_RAISE(data->buffers[0],
                          arrow::internal::CopyBitmap(settings.pool, data->buffers[0]->data(),
                                                      input.offset(), input.length()));
  }
  data->type = target;
  return arrow::MakeArray(std::move(data));
}

arrow::Result<std::shared_ptr<arrow::Array>> CastArray(const std::shared_ptr<arrow::Array>& input,
                                                       const std::shared_ptr<arrow::DataType>& target,
                                                       const CastSettings& settings) {
  const auto& from = *input->type();
  if (ChangesIntervalFields(from, *target)) return CastInterval(*input, target, settings);
  if (from.Equals(*target)) return input;
  if (from.id() == Type::NA) return arrow::MakeArrayOfNull(target, input->length(), settings.pool);
  if (IsStringType(*target)) return CastToString(*input, settings);
  if (IsStringType(from)) return CastFromString(*input, target, settings);
  const bool numeric_like_from = IsNumericType(from) || from.id() == Type::BOOL;
  const bool numeric_like_to = IsNumericType(*target) || target->id() == Type::BOOL;
  if (numeric_like_from && numeric_like_to) return CastNumeric(*input, target, settings);
  if (from.id() == Type::DATE32 || from.id() == Type::TIMESTAMP ||
      target->id() == Type::DATE32 || target->id() == Type::TIMESTAMP) {
    return CastDatetime(*input, target, settings);
  }
  if (from.id() == Type::LIST && target->id() == Type::LIST) {
    const auto& list = static_cast<const arrow::ListArray&>(*input);
    const int32_t begin = list.value_offset(0);
    const int32_t end = list.value_offset(list.length());
    ARROW_ASSIGN_OR_RAISE(auto values, CastArray(list.values()->Slice(begin, end - begin),
                                                 target->field(0)->type(), settings));
    ARROW_ASSIGN_OR_RAISE(auto offsets, RebasedOffsets(list, settings.pool));
    return std::make_shared<arrow::ListArray>(target, list.length(), offsets, values,
                                              CopyValidity(list, settings.pool),
                                              list.null_count());
  }
  if (from.id() == Type::MAP && target->id() == Type::MAP) {
    const auto& map = static_cast<const arrow::MapArray&>(*input);
    const auto& map_type = static_cast<const arrow::MapType&>(*target);
    const int32_t begin = map.value_offset(0);
    const int32_t end = map.value_offset(map.length());
    ARROW_ASSIGN_OR_RAISE(auto keys, CastArray(map.keys()->Slice(begin, end - begin),
                                               map_type.key_type(), settings));
    ARROW_ASSIGN_OR_RAISE(auto items, CastArray(map.items()->Slice(begin, end - begin),
                                                map_type.item_type(), settings));
    ARROW_ASSIGN_OR_RAISE(auto offsets, RebasedOffsets(map, settings.pool));
    return std::make_shared<arrow::MapArray>(target, map.length(), offsets, keys, items,
                                             CopyValidity(map, settings.pool), map.null_count());
  }
  if (from.id() == Type::STRUCT && target->id() == Type::STRUCT) {
    const auto& st = static_cast<const arrow::StructArray&>(*input);
    std::vector<std::shared_ptr<arrow::Array>> fields;
    for (int i = 0; i < target->num_fields(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto field, st.GetFlattenedField(i, settings.pool));
      ARROW_ASSIGN_OR_RAISE(auto converted,
                            CastArray(field, target->field(i)->type(), settings));
      fields.push_back(std::move(converted));
    }
    return std::make_shared<arrow::StructArray>(target, st.length(), fields,
                                                CopyValidity(st, settings.pool), st.null_count());
  }
  if (arrow::is_integer(from.id()) && target->id() == Type::BINARY) {
    // Legacy (ANSI off): the big-endian bytes of the integer.
    arrow::BinaryBuilder builder(settings.pool);
    const int width = arrow::bit_width(from.id()) / 8;
    for (int64_t i = 0; i < input->length(); ++i) {
      if (input->IsNull(i)) {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto scalar, input->GetScalar(i));
      ARROW_ASSIGN_OR_RAISE(auto as_long, scalar->CastTo(arrow::int64()));
      const int64_t value = static_cast<const arrow::Int64Scalar&>(*as_long).value;
      char bytes[8];
      for (int b = 0; b < width; ++b) {
        bytes[b] = static_cast<char>((static_cast<uint64_t>(value) >> (8 * (width - 1 - b))) & 0xff);
      }
      ARROW_RETURN_NOT_OK(builder.Append(bytes, width));
    }
    return builder.Finish();
  }
  return arrow::MakeArrayOfNull(target, input->length(), settings.pool);
}

}  // namespace cast_internal

arrow::Result<BoundExprPtr> MakeCast(BoundExprPtr child, std::shared_ptr<arrow::DataType> target,
                                     CastKind kind, const SessionConfig& config) {
  if (child->type()->Equals(*target) && !cast_internal::ChangesIntervalFields(*child->type(),
                                                                               *target)) {
    return child;
  }
  const bool ansi = config.ansi_enabled();
  const auto& from = *child->type();
  const bool allowed = CanAnsiCast(from, *target) || (!ansi && CanLegacyCast(from, *target));
  if (!allowed) return CastNotAllowed(*child, *target, ansi && kind != CastKind::kTry);
  ARROW_ASSIGN_OR_RAISE(auto zone, datetime::TimeZone::Find(config.session_time_zone()));
  const bool pretty = kind == CastKind::kPretty;
  if (pretty && target->id() != arrow::Type::STRING) {
    return arrow::Status::Invalid("show() renders values as strings only, not as ",
                                  target->ToString());
  }
  const bool fail_on_error = kind != CastKind::kTry && !pretty && ansi;
  const std::string target_name = cast_internal::TypeSql(*target);
  std::string sql = kind == CastKind::kImplicit || pretty
                        ? child->sql()
                        : std::string(kind == CastKind::kTry ? "TRY_CAST(" : "CAST(") +
                              child->sql() + " AS " + target_name + ")";
  const bool legacy = !ansi && kind != CastKind::kTry;
  Kernel kernel = [target, fail_on_error, legacy, pretty, zone](
                      const std::vector<arrow::Datum>& args, const EvalContext& context,
                      int64_t) -> arrow::Result<arrow::Datum> {
    CastSettings settings;
    settings.fail_on_error = fail_on_error;
    settings.legacy = legacy;
    settings.pretty = pretty;
    settings.zone = zone.get();
    settings.now_micros = context.batch_timestamp_us;
    settings.pool = context.pool;
    const arrow::Datum& input = args[0];
    if (input.is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(auto array,
                            arrow::MakeArrayFromScalar(*input.scalar(), 1, context.pool));
      ARROW_ASSIGN_OR_RAISE(auto result, cast_internal::CastArray(array, target, settings));
      ARROW_ASSIGN_OR_RAISE(auto scalar, result->GetScalar(0));
      return arrow::Datum(std::move(scalar));
    }
    ARROW_ASSIGN_OR_RAISE(auto result, cast_internal::CastArray(input.make_array(), target,
                                                                settings));
    return arrow::Datum(std::move(result));
  };
  const bool nullable =
      kind == CastKind::kTry || child->nullable() ||
      (!fail_on_error && !AlwaysSucceeds(from, *target));
  const bool can_fail = fail_on_error && !AlwaysSucceeds(from, *target);
  // Spark's ToPrettyString is an expression of its own, and computes other strings.
  return std::make_shared<BoundCall>(pretty ? "to_pretty_string" : "cast",
                                     std::vector<BoundExprPtr>{std::move(child)},
                                     std::move(target), nullable, can_fail, std::move(kernel),
                                     std::move(sql));
}

}  // namespace sluice::expr
