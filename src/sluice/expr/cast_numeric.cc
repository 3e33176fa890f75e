// CAST between numbers and booleans: integral narrowing and fractional truncation with ANSI
// overflow checks (or Java's wrap-around with ANSI off), decimal rounding HALF_UP.
#include <charconv>
#include <cmath>
#include <limits>

#include <arrow/array/builder_primitive.h>

#include "sluice/expr/cast_format.h"
#include "sluice/expr/cast_internal.h"
#include "sluice/expr/functions/decimal_int128.h"

namespace sluice::expr::cast_internal {

namespace {

using Type = arrow::Type;

// A numeric or boolean input value, read in the widest form of its family.
enum class Family { kIntegral, kFloating, kDecimal, kBoolean };

Family FamilyOf(const arrow::DataType& type) {
  if (arrow::is_integer(type.id())) return Family::kIntegral;
  if (arrow::is_floating(type.id())) return Family::kFloating;
  if (type.id() == Type::DECIMAL128) return Family::kDecimal;
  return Family::kBoolean;
}

int64_t IntegralAt(const arrow::Array& array, int64_t i) {
  const auto& data = *array.data();
  switch (array.type_id()) {
    case Type::INT8: return data.GetValues<int8_t>(1)[i];
    case Type::INT16: return data.GetValues<int16_t>(1)[i];
    case Type::INT32: return data.GetValues<int32_t>(1)[i];
    default: return data.GetValues<int64_t>(1)[i];
  }
}

/// The digits of the widest value of an integral type.
int IntegralDigits(Type::type id) {
  switch (id) {
    case Type::INT8: return 3;
    case Type::INT16: return 5;
    case Type::INT32: return 10;
    default: return 19;
  }
}

double FloatingAt(const arrow::Array& array, int64_t i) {
  if (array.type_id() == Type::FLOAT) return array.data()->GetValues<float>(1)[i];
  return array.data()->GetValues<double>(1)[i];
}

arrow::Decimal128 DecimalAt(const arrow::Array& array, int64_t i) {
  return arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(array).GetValue(i));
}

int32_t ScaleOf(const arrow::DataType& type) {
  return static_cast<const arrow::DecimalType&>(type).scale();
}
int32_t PrecisionOf(const arrow::DataType& type) {
  return static_cast<const arrow::DecimalType&>(type).precision();
}

// Java's (long) conversion of a double: truncation, saturation, NaN -> 0.
int64_t JavaDoubleToLong(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

// Java's (int) conversion of a double.
int32_t JavaDoubleToInt(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (value <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(value);
}

// The decimal value of a double, as Spark takes it: from Java's Double.toString digits.
// Returns ParseDecimal's outcome.
int DoubleToDecimal(double value, int32_t precision, int32_t scale, arrow::Decimal128* out,
                    std::string* plain) {
  std::string text;
  AppendJavaDouble(value, &text);
  return ParseDecimal(text, precision, scale, out, plain);
}

double DecimalToDouble(const arrow::Decimal128& value, int32_t scale) {
  std::string text;
  AppendDecimal(value, scale, &text);
  double result = 0;
  std::from_chars(text.data(), text.data() + text.size(), result);
  return result;
}

// Decimal truncated toward zero to an integer; false when it does not fit in int64.
bool DecimalToLong(const arrow::Decimal128& value, int32_t scale, int64_t* out) {
  arrow::Decimal128 truncated = value;
  if (scale > 0) {
    arrow::Decimal128 remainder;
    if (!DivideDecimal(value, arrow::Decimal128::GetScaleMultiplier(scale), &truncated,
                       &remainder)) {
      return false;
    }
  }
  if (truncated > arrow::Decimal128(std::numeric_limits<int64_t>::max()) ||
      truncated < arrow::Decimal128(std::numeric_limits<int64_t>::min())) {
    return false;
  }
  *out = static_cast<int64_t>(truncated.low_bits());
  return true;
}

template <typename OutC>
arrow::Result<std::shared_ptr<arrow::Array>> ToIntegral(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  const Family family = FamilyOf(*input.type());
  constexpr int64_t kMax = std::numeric_limits<OutC>::max();
  constexpr int64_t kMin = std::numeric_limits<OutC>::min();
  FixedWidthOutput<OutC> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), settings.pool));
  const int32_t scale = family == Family::kDecimal ? ScaleOf(*input.type()) : 0;
  const auto* bits = input.type_id() == Type::BOOL
                         ? static_cast<const arrow::BooleanArray&>(input).values()->data()
                         : nullptr;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      output.SetNull(i);
      continue;
    }
    int64_t value = 0;
    bool fits = true;
    switch (family) {
      case Family::kIntegral:
        value = IntegralAt(input, i);
        fits = value >= kMin && value <= kMax;
        break;
      case Family::kBoolean:
        value = arrow::bit_util::GetBit(bits, input.offset() + i) ? 1 : 0;
        break;
      case Family::kFloating: {
        const double d = FloatingAt(input, i);
        // Spark's check: floor(d) <= MAX && ceil(d) >= MIN, compared in double.
        fits = std::floor(d) <= static_cast<double>(kMax) &&
               std::ceil(d) >= static_cast<double>(kMin);
        if (settings.legacy) {
          value = sizeof(OutC) == 8 ? JavaDoubleToLong(d) : JavaDoubleToInt(d);
        } else {
          value = fits ? JavaDoubleToLong(d) : 0;
        }
        break;
      }
      case Family::kDecimal:
        fits = DecimalToLong(DecimalAt(input, i), scale, &value) && value >= kMin && value <= kMax;
        break;
    }
    if (!fits) {
      if (settings.fail_on_error) return Overflow(ValueSql(input, i, settings), *input.type(), *target);
      if (!settings.legacy || family == Family::kDecimal) {
        output.SetNull(i);
        continue;
      }
    }
    output.data[i] = static_cast<OutC>(value);  // wraps as Java's narrowing does
  }
  return output.Finish(target);
}

template <typename OutC>
arrow::Result<std::shared_ptr<arrow::Array>> ToFloating(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  const Family family = FamilyOf(*input.type());
  FixedWidthOutput<OutC> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), settings.pool));
  const int32_t scale = family == Family::kDecimal ? ScaleOf(*input.type()) : 0;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      output.SetNull(i);
      continue;
    }
    switch (family) {
      case Family::kIntegral:
        output.data[i] = static_cast<OutC>(IntegralAt(input, i));
        break;
      case Family::kFloating:
        output.data[i] = static_cast<OutC>(FloatingAt(input, i));
        break;
      case Family::kBoolean:
        output.data[i] = static_cast<const arrow::BooleanArray&>(input).Value(i) ? 1 : 0;
        break;
      case Family::kDecimal: {
        const double d = DecimalToDouble(DecimalAt(input, i), scale);
        if constexpr (std::is_same_v<OutC, float>) {
          // Decimal to float rounds once, from the exact value.
          std::string text;
          AppendDecimal(DecimalAt(input, i), scale, &text);
          float f = 0;
          std::from_chars(text.data(), text.data() + text.size(), f);
          output.data[i] = f;
        } else {
          output.data[i] = d;
        }
        break;
      }
    }
  }
  return output.Finish(target);
}

/// Integers as decimals of `target`, which holds every value of their type (a bigint as
/// decimal(20,0), as in 0.908 * price): scaled in native 128 bits, with no check of each row.
arrow::Result<std::shared_ptr<arrow::Array>> WideEnoughDecimals(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    arrow::MemoryPool* pool) {
  FixedWidthOutput<arrow::Decimal128> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), pool));
  const Int128 multiplier = PowerOfTen(ScaleOf(*target));
  auto scale = [&](const auto* values) {
    if (input.null_count() == 0 && multiplier == 1) {
      // The usual case (a column of a query's arithmetic): a widening a row.
      for (int64_t i = 0; i < input.length(); ++i) {
        output.data[i] = ToDecimal128(static_cast<Int128>(values[i]));
      }
      return;
    }
    for (int64_t i = 0; i < input.length(); ++i) {
      if (input.IsNull(i)) {
        output.SetNull(i);
        continue;
      }
      output.data[i] = ToDecimal128(static_cast<Int128>(values[i]) * multiplier);
    }
  };
  const arrow::ArrayData& data = *input.data();
  switch (input.type_id()) {
    case Type::INT8: scale(data.GetValues<int8_t>(1)); break;
    case Type::INT16: scale(data.GetValues<int16_t>(1)); break;
    case Type::INT32: scale(data.GetValues<int32_t>(1)); break;
    default: scale(data.GetValues<int64_t>(1)); break;
  }
  return output.Finish(target);
}

arrow::Result<std::shared_ptr<arrow::Array>> ToDecimal(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  const Family family = FamilyOf(*input.type());
  const int32_t precision = PrecisionOf(*target), scale = ScaleOf(*target);
  if (family == Family::kIntegral && scale >= 0 &&
      IntegralDigits(input.type_id()) + scale <= precision) {
    return WideEnoughDecimals(input, target, settings.pool);
  }
  FixedWidthOutput<arrow::Decimal128> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), settings.pool));
  const int32_t input_scale = family == Family::kDecimal ? ScaleOf(*input.type()) : 0;
  std::string plain;
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      output.SetNull(i);
      continue;
    }
    arrow::Decimal128 value;
    bool fits = true;
    switch (family) {
      case Family::kIntegral: {
        const int64_t v = IntegralAt(input, i);
        fits = RescaleDecimal(arrow::Decimal128(v), 0, precision, scale, &value);
        if (!fits) plain = std::to_string(v);
        break;
      }
      case Family::kBoolean:
        fits = RescaleDecimal(
            arrow::Decimal128(static_cast<const arrow::BooleanArray&>(input).Value(i) ? 1 : 0), 0,
            precision, scale, &value);
        // assign, not = "1": GCC 12 inlines that into a false -Wstringop-overflow here.
        if (!fits) plain.assign(1, '1');
        break;
      case Family::kFloating: {
        const double d = FloatingAt(input, i);
        if (!std::isfinite(d)) {
          // Spark turns NaN and infinities into null, even under ANSI.
          output.SetNull(i);
          continue;
        }
        const int outcome = DoubleToDecimal(d, precision, scale, &value, &plain);
        fits = outcome == 0;
        break;
      }
      case Family::kDecimal: {
        const arrow::Decimal128 v = DecimalAt(input, i);
        fits = RescaleDecimal(v, input_scale, precision, scale, &value);
        if (!fits) {
          plain.clear();
          AppendDecimal(v, input_scale, &plain);
        }
        break;
      }
    }
    if (!fits) {
      if (settings.fail_on_error) return DecimalOutOfRange(plain, precision, scale);
      output.SetNull(i);
      continue;
    }
    output.data[i] = value;
  }
  return output.Finish(target);
}

arrow::Result<std::shared_ptr<arrow::Array>> ToBoolean(const arrow::Array& input,
                                                       const CastSettings& settings) {
  const Family family = FamilyOf(*input.type());
  arrow::BooleanBuilder builder(settings.pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(input.length()));
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      builder.UnsafeAppendNull();
      continue;
    }
    bool value = false;
    switch (family) {
      case Family::kIntegral: value = IntegralAt(input, i) != 0; break;
      case Family::kFloating: value = FloatingAt(input, i) != 0; break;
      case Family::kDecimal: value = DecimalAt(input, i) != 0; break;
      case Family::kBoolean: value = static_cast<const arrow::BooleanArray&>(input).Value(i); break;
    }
    builder.UnsafeAppend(value);
  }
  return builder.Finish();
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> CastNumeric(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  switch (target->id()) {
    case Type::INT8: return ToIntegral<int8_t>(input, target, settings);
    case Type::INT16: return ToIntegral<int16_t>(input, target, settings);
    case Type::INT32: return ToIntegral<int32_t>(input, target, settings);
    case Type::INT64: return ToIntegral<int64_t>(input, target, settings);
    case Type::FLOAT: return ToFloating<float>(input, target, settings);
    case Type::DOUBLE: return ToFloating<double>(input, target, settings);
    case Type::DECIMAL128: return ToDecimal(input, target, settings);
    case Type::BOOL: return ToBoolean(input, settings);
    default:
      return MissingCastKernel(*input.type(), *target);
  }
}

}  // namespace sluice::expr::cast_internal
