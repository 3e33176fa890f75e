// round (HALF_UP), bround (HALF_EVEN), floor and ceil with Spark's result types. Doubles round
// through their shortest decimal representation, as Spark's BigDecimal(d).setScale does, so
// round(0.125, 2) is 0.13 and round(2.5) is 3.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/math_function_groups.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

// Rounds the shortest decimal form of `x` to `scale` fractional digits (negative: tens,
// hundreds, ...), HALF_UP or HALF_EVEN; infinities and NaN pass through.
template <typename C>
C RoundDecimalRepresentation(C x, int32_t scale, bool half_even) {
  if (!std::isfinite(x) || x == 0) return x;
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), x,
                                 std::chars_format::scientific);
  if (ec != std::errc()) return x;
  std::string_view text(buffer, end - buffer);
  const bool negative = text[0] == '-';
  if (negative) text.remove_prefix(1);
  const size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  const int exponent = std::stoi(std::string(text.substr(e + 1)));
  // value = 0.<digits> * 10^point
  int64_t point = exponent + 1;
  const int64_t keep = point + scale;
  if (keep >= static_cast<int64_t>(digits.size())) return x;
  bool round_up = false;
  if (keep >= 0) {
    const char next = digits[keep];
    const bool rest_nonzero =
        digits.find_first_not_of('0', static_cast<size_t>(keep) + 1) != std::string::npos;
    if (half_even) {
      const bool previous_odd = keep > 0 && ((digits[keep - 1] - '0') % 2 == 1);
      round_up = next > '5' || (next == '5' && (rest_nonzero || previous_odd));
    } else {
      round_up = next >= '5';
    }
    digits.resize(keep);
  } else {
    digits.clear();
  }
  if (round_up) {
    if (digits.empty()) {
      // Only when keep == 0: the result is one unit of 10^-scale.
      digits = "1";
      point = 1 - scale;
    } else {
      int64_t i = static_cast<int64_t>(digits.size()) - 1;
      while (i >= 0 && digits[i] == '9') digits[i--] = '0';
      if (i < 0) {
        digits.insert(digits.begin(), '1');
        ++point;
      } else {
        ++digits[i];
      }
    }
  }
  if (digits.empty() || digits.find_first_not_of('0') == std::string::npos) return C{0};
  std::string out = std::string(negative ? "-" : "") + "0." + digits + "e" + std::to_string(point);
  if constexpr (std::is_same_v<C, float>) {
    return std::strtof(out.c_str(), nullptr);
  } else {
    return std::strtod(out.c_str(), nullptr);
  }
}

arrow::Result<int32_t> ConstantScale(const CallSite& call) {
  if (call.args.size() < 2) return 0;
  const arrow::Scalar* scale = ConstantArgument(call, 1);
  if (scale == nullptr) {
    return DataTypeMismatch(call, "NON_FOLDABLE_INPUT",
                            "the input scale should be a foldable \"INT\" expression; however, "
                            "got \"" + call.args[1]->sql() + "\".");
  }
  if (!arrow::is_integer(scale->type->id())) {
    return UnexpectedInputType(call, 1, "\"INT\"");
  }
  if (!scale->is_valid) return 0;
  auto as_int = scale->CastTo(arrow::int32());
  if (!as_int.ok()) return UnexpectedInputType(call, 1, "\"INT\"");
  return static_cast<const arrow::Int32Scalar&>(**as_int).value;
}

arrow::Status RoundOverflow() {
  return SparkError("ARITHMETIC_OVERFLOW",
                    "Overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                    "bypass this error.");
}

template <typename T>
Kernel IntegerRoundKernel(std::shared_ptr<arrow::DataType> type, int32_t scale, bool half_even,
                          bool ansi) {
  using C = typename arrow::TypeTraits<T>::CType;
  return [type, scale, half_even, ansi](const std::vector<arrow::Datum>& args,
                                        const EvalContext& context,
                                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    if (scale >= 0) return args[0];
    __int128 factor = 1;
    for (int32_t i = 0; i < -scale && factor <= (static_cast<__int128>(1) << 70); ++i) {
      factor *= 10;
    }
    arrow::Datum unused(std::make_shared<arrow::Int8Scalar>(0));
    return ApplyBinary<T, arrow::Int8Type, T>(
        args[0], unused, num_rows, type, context.pool,
        [&](C value, int8_t, C* out) {
          const __int128 a = value;
          __int128 q = a / factor;
          const __int128 r = a % factor;
          const __int128 twice = (r < 0 ? -r : r) * 2;
          const bool up = half_even ? (twice > factor || (twice == factor && (q % 2 != 0)))
                                    : twice >= factor;
          if (up) q += a < 0 ? -1 : 1;
          const __int128 result = q * factor;
          if (result < std::numeric_limits<C>::min() || result > std::numeric_limits<C>::max()) {
            if (ansi) return RowOutcome::kError;
            *out = static_cast<C>(static_cast<uint64_t>(result));
            return RowOutcome::kValue;
          }
          *out = static_cast<C>(result);
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return RoundOverflow(); });
  };
}

template <typename T>
Kernel FloatingRoundKernel(int32_t scale, bool half_even) {
  using C = typename arrow::TypeTraits<T>::CType;
  return [scale, half_even](const std::vector<arrow::Datum>& args, const EvalContext& context,
                            int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::Datum unused(std::make_shared<arrow::Int8Scalar>(0));
    return ApplyBinary<T, arrow::Int8Type, T>(
        args[0], unused, num_rows, args[0].type(), context.pool,
        [&](C value, int8_t, C* out) {
          // Spark rounds a float through BigDecimal(f.toDouble): the double's digits, not the
          // float's (round(-1.55f, 1) is -1.5 since the double is -1.5499999523162842).
          *out = static_cast<C>(
              RoundDecimalRepresentation(static_cast<double>(value), scale, half_even));
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return RoundOverflow(); });
  };
}

// A decimal operation in Arrow at one more digit of precision (so 9.99 -> 10.00 fits), then a
// cast to Spark's result type.
Kernel DecimalRoundingKernel(std::string function, std::shared_ptr<cp::FunctionOptions> options,
                             std::shared_ptr<arrow::DataType> widened,
                             std::shared_ptr<arrow::DataType> result_type, bool ansi) {
  return [function, options, widened, result_type, ansi](
             const std::vector<arrow::Datum>& args, const EvalContext&,
             int64_t) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto wide, cp::Cast(args[0], widened));
    auto rounded = cp::CallFunction(function, {wide}, options.get());
    arrow::Result<arrow::Datum> converted =
        rounded.ok() ? cp::Cast(*rounded, cp::CastOptions::Safe(result_type))
                     : arrow::Result<arrow::Datum>(rounded.status());
    if (converted.ok()) return converted;
    const auto& decimal = static_cast<const arrow::Decimal128Type&>(*result_type);
    if (!ansi) return arrow::Datum(arrow::MakeNullScalar(result_type));
    return SparkError("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                      "The value cannot be represented as Decimal(" +
                          std::to_string(decimal.precision()) + ", " +
                          std::to_string(decimal.scale()) +
                          "). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                          "this error, and return NULL instead.");
  };
}

// The type of a decimal rounded to `scale` digits (negative: tens, hundreds, ...): one more
// integral digit for the carry (9.9 -> 10), at most the input's scale (RoundBase.dataType).
std::shared_ptr<arrow::DataType> RoundedDecimalType(const arrow::Decimal128Type& decimal,
                                                    int32_t scale) {
  const int32_t p = decimal.precision(), s = decimal.scale();
  const int32_t integral = p - s + 1;
  if (scale < 0) return arrow::decimal128(std::min(std::max(integral, -scale + 1), 38), 0);
  const int32_t new_scale = std::min(s, scale);
  return arrow::decimal128(std::min(integral + new_scale, 38), new_scale);
}

bool IsAccepted(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == arrow::Type::DECIMAL128 || type.id() == arrow::Type::STRING ||
         type.id() == arrow::Type::NA;
}

ScalarResolver RoundResolver(bool half_even) {
  return [half_even](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "[1, 2]"));
    if (!IsAccepted(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"NUMERIC\"");
    ARROW_ASSIGN_OR_RAISE(const int32_t scale, ConstantScale(call));
    auto type = call.args[0]->type();
    if (type->id() == arrow::Type::STRING || type->id() == arrow::Type::NA) {
      type = arrow::float64();
    }
    const bool ansi = call.config->ansi_enabled();
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(auto value, MakeCast(call.args[0], type, CastKind::kImplicit,
                                               *call.config));
    resolved.args = {value};
    resolved.nullable = true;
    switch (type->id()) {
      case arrow::Type::INT8:
        resolved.kernel = IntegerRoundKernel<arrow::Int8Type>(type, scale, half_even, ansi);
        break;
      case arrow::Type::INT16:
        resolved.kernel = IntegerRoundKernel<arrow::Int16Type>(type, scale, half_even, ansi);
        break;
      case arrow::Type::INT32:
        resolved.kernel = IntegerRoundKernel<arrow::Int32Type>(type, scale, half_even, ansi);
        break;
      case arrow::Type::INT64:
        resolved.kernel = IntegerRoundKernel<arrow::Int64Type>(type, scale, half_even, ansi);
        break;
      case arrow::Type::FLOAT:
        resolved.kernel = FloatingRoundKernel<arrow::FloatType>(scale, half_even);
        break;
      case arrow::Type::DOUBLE:
        resolved.kernel = FloatingRoundKernel<arrow::DoubleType>(scale, half_even);
        break;
      case arrow::Type::DECIMAL128: {
        const auto& decimal = static_cast<const arrow::Decimal128Type&>(*type);
        const int32_t p = decimal.precision(), s = decimal.scale();
        type = RoundedDecimalType(decimal, scale);
        auto widened = arrow::decimal128(std::min(p + 1, 38), s);
        resolved.kernel = DecimalRoundingKernel(
            "round",
            // Spark's HALF_UP rounds ties away from zero (-2.5 -> -3), Arrow's toward +inf.
            std::make_shared<cp::RoundOptions>(
                scale, half_even ? cp::RoundMode::HALF_TO_EVEN
                                 : cp::RoundMode::HALF_TOWARDS_INFINITY),
            widened, type, ansi);
        break;
      }
      default:
        return UnexpectedInputType(call, 0, "\"NUMERIC\"");
    }
    resolved.return_type = type;
    resolved.can_fail = ansi && (arrow::is_integer(type->id()) ||
                                 type->id() == arrow::Type::DECIMAL128);
    return resolved;
  };
}

template <typename T>
Kernel FloorCeilFloatingKernel(bool floor) {
  using C = typename arrow::TypeTraits<T>::CType;
  return [floor](const std::vector<arrow::Datum>& args, const EvalContext& context,
                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::Datum unused(std::make_shared<arrow::Int8Scalar>(0));
    return ApplyBinary<T, arrow::Int8Type, arrow::Int64Type>(
        args[0], unused, num_rows, arrow::int64(), context.pool,
        [floor](C value, int8_t, int64_t* out) {
          // Java's (long) conversion: NaN is 0, out-of-range values saturate.
          const double rounded = floor ? std::floor(static_cast<double>(value))
                                       : std::ceil(static_cast<double>(value));
          if (std::isnan(rounded)) {
            *out = 0;
          } else if (rounded >= 9223372036854775807.0) {
            *out = std::numeric_limits<int64_t>::max();
          } else if (rounded <= -9223372036854775808.0) {
            *out = std::numeric_limits<int64_t>::min();
          } else {
            *out = static_cast<int64_t>(rounded);
          }
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return RoundOverflow(); });
  };
}

// floor(x, scale) / ceil(x, scale): x as a decimal (double as decimal(30,15), float as
// decimal(14,7), integers at their width, strings as decimal(38,18)) rounded down / up to
// `scale` digits, typed like round's decimal result (Spark's RoundFloor / RoundCeil).
arrow::Result<ResolvedCall> ResolveFloorCeilWithScale(const CallSite& call, bool floor) {
  const arrow::Scalar* scale_value = ConstantArgument(call, 1);
  if (scale_value == nullptr || scale_value->type->id() != arrow::Type::INT32) {
    return SparkError("NON_FOLDABLE_ARGUMENT",
                      "The function `" + call.name +
                          "` requires the parameter `scale` to be a foldable expression of the "
                          "type \"INT\", but the actual argument is a non-foldable.");
  }
  if (!scale_value->is_valid) {
    return SparkError("UNEXPECTED_NULL",
                      "The `scale` must not be null. Use `coalesce` or `nvl` to replace it with "
                      "a non-null value.");
  }
  const int32_t scale = static_cast<const arrow::Int32Scalar&>(*scale_value).value;
  const auto& input = *call.args[0]->type();
  std::shared_ptr<arrow::DataType> decimal = DecimalForIntegral(input);
  if (input.id() == arrow::Type::DOUBLE) decimal = arrow::decimal128(30, 15);
  if (input.id() == arrow::Type::FLOAT) decimal = arrow::decimal128(14, 7);
  if (input.id() == arrow::Type::STRING || input.id() == arrow::Type::NA) {
    decimal = arrow::decimal128(38, 18);
  }
  if (decimal == nullptr) return UnexpectedInputType(call, 0, "\"DECIMAL\"");
  const bool ansi = call.config->ansi_enabled();
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(auto value, MakeCast(call.args[0], decimal, CastKind::kImplicit,
                                             *call.config));
  resolved.args = {value};
  const auto& decimal_type = static_cast<const arrow::Decimal128Type&>(*decimal);
  resolved.return_type = RoundedDecimalType(decimal_type, scale);
  resolved.nullable = true;
  resolved.can_fail = ansi;
  resolved.kernel = DecimalRoundingKernel(
      "round",
      std::make_shared<cp::RoundOptions>(scale,
                                         floor ? cp::RoundMode::DOWN : cp::RoundMode::UP),
      arrow::decimal128(std::min(decimal_type.precision() + 1, 38), decimal_type.scale()),
      resolved.return_type, ansi);
  return resolved;
}

ScalarResolver FloorCeilResolver(bool floor) {
  return [floor](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "2"));
    if (call.args.size() == 2) return ResolveFloorCeilWithScale(call, floor);
    if (!IsAccepted(*call.args[0]->type())) {
      return UnexpectedInputType(call, 0, "(\"DECIMAL\" or \"DOUBLE\" or \"BIGINT\")");
    }
    auto type = call.args[0]->type();
    if (type->id() == arrow::Type::STRING || type->id() == arrow::Type::NA) {
      type = arrow::float64();
    }
    if (arrow::is_integer(type->id())) type = arrow::int64();
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(auto value, MakeCast(call.args[0], type, CastKind::kImplicit,
                                               *call.config));
    resolved.args = {value};
    resolved.nullable = value->nullable();
    switch (type->id()) {
      case arrow::Type::INT64:
        resolved.return_type = type;
        resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                             int64_t) -> arrow::Result<arrow::Datum> { return args[0]; };
        return resolved;
      case arrow::Type::FLOAT:
        resolved.return_type = arrow::int64();
        resolved.kernel = FloorCeilFloatingKernel<arrow::FloatType>(floor);
        return resolved;
      case arrow::Type::DOUBLE:
        resolved.return_type = arrow::int64();
        resolved.kernel = FloorCeilFloatingKernel<arrow::DoubleType>(floor);
        return resolved;
      default: {
        const auto& decimal = static_cast<const arrow::Decimal128Type&>(*type);
        const int32_t p = decimal.precision(), s = decimal.scale();
        resolved.return_type = arrow::decimal128(std::min(p - s + 1, 38), 0);
        resolved.can_fail = call.config->ansi_enabled();
        resolved.kernel = DecimalRoundingKernel(floor ? "floor" : "ceil", nullptr,
                                                arrow::decimal128(std::min(p + 1, 38), s),
                                                resolved.return_type,
                                                call.config->ansi_enabled());
        return resolved;
      }
    }
  };
}

}  // namespace

void RegisterRoundingFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("round", RoundResolver(false));
  registry.RegisterScalar("bround", RoundResolver(true));
  registry.RegisterScalar("floor", FloorCeilResolver(true));
  registry.RegisterScalar("ceil", FloorCeilResolver(false));
  registry.RegisterScalar("ceiling", FloorCeilResolver(false));
}

}  // namespace sluice::expr
