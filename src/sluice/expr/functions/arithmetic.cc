// Spark's arithmetic operators: + - * / % div and unary minus, with ANSI overflow and
// division-by-zero errors, and Spark's decimal result types.
#include <cmath>
#include <limits>
#include <optional>

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/type.h>
#include <arrow/visit_type_inline.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/decimal_int128.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/interval_arithmetic.h"
#include "sluice/expr/functions/math_function_groups.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

enum class Operator { kAdd, kSubtract, kMultiply, kDivide, kRemainder, kIntegralDivide, kPmod };

const char* OperatorSymbol(Operator op) {
  switch (op) {
    case Operator::kAdd: return "+";
    case Operator::kSubtract: return "-";
    case Operator::kMultiply: return "*";
    case Operator::kDivide: return "/";
    case Operator::kRemainder: return "%";
    case Operator::kIntegralDivide: return "div";
    case Operator::kPmod: return "pmod";
  }
  return "?";
}

const char* TryFunctionName(Operator op) {
  switch (op) {
    case Operator::kAdd: return "try_add";
    case Operator::kSubtract: return "try_subtract";
    case Operator::kMultiply: return "try_multiply";
    default: return "try_divide";
  }
}

arrow::Status OverflowError(const arrow::DataType& type, std::string_view hint_function) {
  const std::string what = type.id() == arrow::Type::INT64   ? "long"
                           : type.id() == arrow::Type::INT32 ? "integer"
                           : type.id() == arrow::Type::INT16 ? "short"
                                                             : "byte";
  std::string hint = hint_function.empty()
                         ? ""
                         : " Use '" + std::string(hint_function) +
                               "' to tolerate overflow and return NULL instead.";
  return SparkError("ARITHMETIC_OVERFLOW",
                    what + " overflow." + hint +
                        " If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                        "this error.");
}

arrow::Status DivideByZeroError() {
  return SparkError("DIVIDE_BY_ZERO",
                    "Division by zero. Use `try_divide` to tolerate divisor being 0 and return "
                    "NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                    "bypass this error.");
}

// `value` is the rounded result Spark could not fit, when known.
arrow::Status DecimalOutOfRange(const arrow::DataType& type, const std::string& value = "") {
  const auto& decimal = static_cast<const arrow::DecimalType&>(type);
  return SparkError("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                    (value.empty() ? std::string("The value") : value) +
                        " cannot be represented as Decimal(" +
                        std::to_string(decimal.precision()) + ", " +
                        std::to_string(decimal.scale()) +
                        "). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass "
                        "this error, and return NULL instead.");
}

bool IsNumericType(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == arrow::Type::DECIMAL128;
}

// The operand type both sides are cast to; strings take part as Spark's ANSI coercion says.
arrow::Result<std::shared_ptr<arrow::DataType>> OperandType(const CallSite& call) {
  for (size_t i = 0; i < 2; ++i) {
    const auto& type = *call.args[i]->type();
    if (!IsNumericType(type) && type.id() != arrow::Type::NA && type.id() != arrow::Type::STRING) {
      return UnexpectedInputType(call, i, "\"NUMERIC\"");
    }
  }
  auto common = NumericCommonType({call.args[0]->type(), call.args[1]->type()});
  if (common == nullptr || common->id() == arrow::Type::STRING) {
    // A string meeting a string or null is read as a double, as Spark does for arithmetic.
    if (common == nullptr ||
        (call.args[0]->type()->id() != arrow::Type::DECIMAL128 &&
         call.args[1]->type()->id() != arrow::Type::DECIMAL128)) {
      common = arrow::float64();
    }
  }
  if (common->id() == arrow::Type::NA) common = arrow::float64();
  return common;
}

// Spark's result type of a decimal operation (DecimalPrecision rules, bounded to 38 digits).
std::shared_ptr<arrow::DataType> DecimalResultType(Operator op, const arrow::Decimal128Type& a,
                                                   const arrow::Decimal128Type& b) {
  const int32_t p1 = a.precision(), s1 = a.scale(), p2 = b.precision(), s2 = b.scale();
  switch (op) {
    case Operator::kAdd:
    case Operator::kSubtract: {
      const int32_t scale = std::max(s1, s2);
      return BoundedDecimal(std::max(p1 - s1, p2 - s2) + scale + 1, scale);
    }
    case Operator::kMultiply:
      return BoundedDecimal(p1 + p2 + 1, s1 + s2);
    case Operator::kDivide: {
      const int32_t scale = std::max(6, s1 + p2 + 1);
      return BoundedDecimal(p1 - s1 + s2 + scale, scale);
    }
    case Operator::kRemainder:
    case Operator::kPmod: {
      const int32_t scale = std::max(s1, s2);
      return BoundedDecimal(std::min(p1 - s1, p2 - s2) + scale, scale);
    }
    case Operator::kIntegralDivide:
      return arrow::int64();
  }
  return nullptr;
}

// Whether every result of `op` on decimals of types `a` and `b` fits its type as it is: a sum,
// difference or product whose exact digits number at most 38 is neither rounded nor overflows,
// so it cannot fail, and AND, OR and CASE need not keep it from the rows they leave out.
bool DecimalResultAlwaysFits(Operator op, const arrow::Decimal128Type& a,
                             const arrow::Decimal128Type& b) {
  const int32_t p1 = a.precision(), s1 = a.scale(), p2 = b.precision(), s2 = b.scale();
  constexpr int32_t kMax = arrow::Decimal128Type::kMaxPrecision;
  switch (op) {
    case Operator::kAdd:
    case Operator::kSubtract:
      return std::max(p1 - s1, p2 - s2) + std::max(s1, s2) + 1 <= kMax;
    case Operator::kMultiply:
      return p1 + p2 + 1 <= kMax;
    default:
      return false;  // a division fails on a zero divisor
  }
}

// Runs an Arrow arithmetic function, turning its overflow and division errors into Spark's.
arrow::Result<arrow::Datum> CallArrowArithmetic(const std::string& name,
                                                const std::vector<arrow::Datum>& args,
                                                const arrow::DataType& type, Operator op) {
  auto result = cp::CallFunction(name, args);
  if (result.ok()) return result;
  const std::string& message = result.status().message();
  if (message.find("overflow") != std::string::npos) {
    return OverflowError(type, TryFunctionName(op));
  }
  if (message.find("divide by zero") != std::string::npos) return DivideByZeroError();
  return result.status();
}

// A decimal value widened to 256 bits, so exact sums, products and scaled-up dividends of
// 38-digit operands cannot overflow before rounding to the result type.
arrow::Decimal256 Widen(const arrow::Decimal128& value) {
  return arrow::Decimal256(arrow::BasicDecimal256(value));
}

// Drops `digits` fractional digits rounding half away from zero (Java's ROUND_HALF_UP).
arrow::Decimal256 RoundHalfUp(const arrow::Decimal256& value, int32_t digits) {
  if (digits <= 0) return value;
  return value.ReduceScaleBy(digits, /*round=*/true);
}

// The low 128 bits of a value known to fit in 38 digits.
arrow::Decimal128 Narrow(const arrow::Decimal256& value) {
  const auto words = value.little_endian_array();
  return arrow::Decimal128(static_cast<int64_t>(words[1]), words[0]);
}

// Spark's + - * / on decimals: the exact result (a quotient to the result scale plus a rounding
// remainder), rounded HALF_UP to the result scale; a result beyond the result precision raises
// NUMERIC_VALUE_OUT_OF_RANGE under ANSI and is null otherwise, a zero divisor raises
// DIVIDE_BY_ZERO (null without ANSI).
Kernel DecimalKernel(Operator op, std::shared_ptr<arrow::DataType> result_type, bool ansi) {
  return [op, result_type, ansi](const std::vector<arrow::Datum>& args,
                                 const EvalContext& context,
                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
    const int32_t s1 = static_cast<const arrow::Decimal128Type&>(*args[0].type()).scale();
    const int32_t s2 = static_cast<const arrow::Decimal128Type&>(*args[1].type()).scale();
    const auto& out_decimal = static_cast<const arrow::Decimal128Type&>(*result_type);
    const int32_t precision = out_decimal.precision(), scale = out_decimal.scale();
    const int32_t common = std::max(s1, s2);
    // Digits the dividend is scaled up by so the integer quotient has the result scale.
    const int32_t shift = scale + s2 - s1;
    bool zero_divisor = false;
    std::optional<arrow::Decimal256> out_of_range;
    // Without rounding (the result keeps every digit of the exact sum, difference or product,
    // which is so whenever the result type did not hit 38 digits), a result computed in 128
    // bits without overflow and within the result's precision is the one the wide path gives.
    const bool additive = op == Operator::kAdd || op == Operator::kSubtract;
    const bool narrow = (additive && common == scale) ||
                        (op == Operator::kMultiply && s1 + s2 == scale);
    const Int128 limit = PowerOfTen(precision);
    const Int128 left_factor = PowerOfTen(common - s1), right_factor = PowerOfTen(common - s2);
    auto compute_narrow = [&](const arrow::Decimal128& left, const arrow::Decimal128& right,
                              Int128* out) {
      Int128 a = ToInt128(left), b = ToInt128(right);
      if (op == Operator::kMultiply) {
        // Factors of 64 bits (prices, rates) multiply in one instruction and cannot overflow
        // 128; others are checked.
        const auto a64 = static_cast<int64_t>(a), b64 = static_cast<int64_t>(b);
        if (a64 == a && b64 == b) {
          *out = static_cast<Int128>(a64) * b64;
        } else if (__builtin_mul_overflow(a, b, out)) {
          return false;
        }
      } else {
        if (__builtin_mul_overflow(a, left_factor, &a) ||
            __builtin_mul_overflow(b, right_factor, &b)) {
          return false;
        }
        if (op == Operator::kAdd ? __builtin_add_overflow(a, b, out)
                                 : __builtin_sub_overflow(a, b, out)) {
          return false;
        }
      }
      return *out < limit && *out > -limit;
    };
    if (narrow) {
      ARROW_ASSIGN_OR_RAISE(
          auto every_row,
          (ApplyBinaryIfEveryRowFits<arrow::Decimal128Type, arrow::Decimal128Type,
                                     arrow::Decimal128Type>(
              args[0], args[1], num_rows, result_type, context.pool,
              [&](const arrow::Decimal128& left, const arrow::Decimal128& right,
                  arrow::Decimal128* out) {
                Int128 exact = 0;
                const bool fits = compute_narrow(left, right, &exact);
                *out = ToDecimal128(exact);
                return fits;
              })));
      if (every_row) return *std::move(every_row);
    }
    auto compute = [&](const arrow::Decimal128& left, const arrow::Decimal128& right,
                       arrow::Decimal128* out) -> RowOutcome {
      if (Int128 exact; narrow && compute_narrow(left, right, &exact)) {
        *out = ToDecimal128(exact);
        return RowOutcome::kValue;
      }
      // Otherwise (rounding, division, or a result out of range): exactly, in 256 bits.
      arrow::Decimal256 a = Widen(left), b = Widen(right), result;
      switch (op) {
        case Operator::kAdd:
        case Operator::kSubtract: {
          a = a.IncreaseScaleBy(common - s1);
          b = b.IncreaseScaleBy(common - s2);
          result = RoundHalfUp(op == Operator::kAdd ? a + b : a + (-b), common - scale);
          break;
        }
        case Operator::kMultiply:
          result = RoundHalfUp(a * b, s1 + s2 - scale);
          break;
        default: {
          if (b == arrow::Decimal256(0)) {
            zero_divisor = true;
            return ansi ? RowOutcome::kError : RowOutcome::kNull;
          }
          // A dividend too large to scale up gives a quotient beyond 38 digits anyway.
          if (shift > 76 || !a.FitsInPrecision(76 - shift)) {
            return ansi ? RowOutcome::kError : RowOutcome::kNull;
          }
          const arrow::Decimal256 dividend = a.IncreaseScaleBy(shift);
          arrow::BasicDecimal256 quotient, remainder;
          if (static_cast<const arrow::BasicDecimal256&>(dividend).Divide(b, &quotient,
                                                                         &remainder) !=
              arrow::DecimalStatus::kSuccess) {
            return ansi ? RowOutcome::kError : RowOutcome::kNull;
          }
          const arrow::Decimal256 twice = arrow::Decimal256::Abs(remainder) +
                                          arrow::Decimal256::Abs(remainder);
          if (!(twice < arrow::Decimal256::Abs(b))) {
            const bool negative = a.IsNegative() != b.IsNegative();
            quotient += arrow::Decimal256(negative ? -1 : 1);
          }
          result = quotient;
          break;
        }
      }
      if (!result.FitsInPrecision(precision)) {
        out_of_range = result;
        return ansi ? RowOutcome::kError : RowOutcome::kNull;
      }
      *out = Narrow(result);
      return RowOutcome::kValue;
    };
    return ApplyBinary<arrow::Decimal128Type, arrow::Decimal128Type, arrow::Decimal128Type>(
        args[0], args[1], num_rows, result_type, context.pool, compute,
        [&](int64_t) -> arrow::Result<arrow::Datum> {
          if (zero_divisor) return DivideByZeroError();
          return DecimalOutOfRange(*result_type,
                                   out_of_range ? out_of_range->ToString(scale) : "");
        });
  };
}

// Decimal %, pmod and div: both operands at their common scale, then the exact truncated
// quotient (div, a bigint), the remainder with the dividend's sign (%) or the remainder made
// non-negative for a positive divisor (pmod).
Kernel DecimalRemainderKernel(Operator op, std::shared_ptr<arrow::DataType> result_type,
                              bool ansi) {
  return [op, result_type, ansi](const std::vector<arrow::Datum>& args,
                                 const EvalContext& context,
                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
    const auto& left_type = static_cast<const arrow::Decimal128Type&>(*args[0].type());
    const auto& right_type = static_cast<const arrow::Decimal128Type&>(*args[1].type());
    const int32_t scale = std::max(left_type.scale(), right_type.scale());
    std::shared_ptr<arrow::Array> arrays[2];
    for (int k = 0; k < 2; ++k) {
      if (args[k].is_array()) {
        arrays[k] = args[k].make_array();
      } else {
        ARROW_ASSIGN_OR_RAISE(arrays[k], arrow::MakeArrayFromScalar(*args[k].scalar(), num_rows,
                                                                    context.pool));
      }
    }
    const auto& left = static_cast<const arrow::Decimal128Array&>(*arrays[0]);
    const auto& right = static_cast<const arrow::Decimal128Array&>(*arrays[1]);
    std::unique_ptr<arrow::ArrayBuilder> builder;
    ARROW_RETURN_NOT_OK(arrow::MakeBuilder(context.pool, result_type, &builder));
    for (int64_t i = 0; i < num_rows; ++i) {
      if (left.IsNull(i) || right.IsNull(i)) {
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      auto a = arrow::Decimal128(left.GetValue(i)).Rescale(left_type.scale(), scale);
      auto b = arrow::Decimal128(right.GetValue(i)).Rescale(right_type.scale(), scale);
      if (!a.ok() || !b.ok()) {
        if (ansi) return DecimalOutOfRange(*result_type);
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      if (*b == arrow::Decimal128(0)) {
        if (ansi) return DivideByZeroError();
        ARROW_RETURN_NOT_OK(builder->AppendNull());
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto divided, a->Divide(*b));
      if (op == Operator::kIntegralDivide) {
        const auto& quotient = divided.first;
        if (quotient.high_bits() != (static_cast<int64_t>(quotient.low_bits()) < 0 ? -1 : 0)) {
          if (ansi) return OverflowError(arrow::Int64Type(), "");
          ARROW_RETURN_NOT_OK(builder->AppendNull());
          continue;
        }
        ARROW_RETURN_NOT_OK(static_cast<arrow::Int64Builder*>(builder.get())
                                ->Append(static_cast<int64_t>(quotient.low_bits())));
      } else {
        const auto& out_type = static_cast<const arrow::Decimal128Type&>(*result_type);
        arrow::Decimal128 rest = divided.second;
        if (op == Operator::kPmod && rest.IsNegative()) {
          // pmod: (r + n) % n for a negative remainder r.
          const arrow::Decimal256 n = Widen(*b);
          rest = Narrow(arrow::Decimal256((Widen(rest) + n) % n));
        }
        auto remainder = rest.Rescale(scale, out_type.scale());
        if (!remainder.ok() || !remainder->FitsInPrecision(out_type.precision())) {
          if (ansi) return DecimalOutOfRange(*result_type);
          ARROW_RETURN_NOT_OK(builder->AppendNull());
          continue;
        }
        ARROW_RETURN_NOT_OK(
            static_cast<arrow::Decimal128Builder*>(builder.get())->Append(*remainder));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto out, builder->Finish());
    return arrow::Datum(out);
  };
}

// + - * on tinyint and smallint: computed in int as Java does, then checked against the type's
// range (BINARY_ARITHMETIC_OVERFLOW naming both operands under ANSI, wrap-around otherwise).
template <typename T>
Kernel SmallIntegerKernel(Operator op, bool ansi) {
  using C = typename arrow::TypeTraits<T>::CType;
  return [op, ansi](const std::vector<arrow::Datum>& args, const EvalContext& context,
                    int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto compute = [op](C a, C b) -> int32_t {
      return op == Operator::kAdd        ? int32_t{a} + int32_t{b}
             : op == Operator::kSubtract ? int32_t{a} - int32_t{b}
                                         : int32_t{a} * int32_t{b};
    };
    return ApplyBinary<T, T, T>(
        args[0], args[1], num_rows, arrow::TypeTraits<T>::type_singleton(), context.pool,
        [&](C a, C b, C* out) {
          const int32_t result = compute(a, b);
          if (ansi && (result < std::numeric_limits<C>::min() ||
                       result > std::numeric_limits<C>::max())) {
            return RowOutcome::kError;
          }
          *out = static_cast<C>(result);
          return RowOutcome::kValue;
        },
        [&](int64_t row) -> arrow::Result<arrow::Datum> {
          NumericInput<T> left(args[0]), right(args[1]);
          // Spark prints both operands as smallint literals (127S) for tinyint too.
          return SparkError("BINARY_ARITHMETIC_OVERFLOW",
                            std::to_string(left.Value(row)) + "S " + OperatorSymbol(op) + " " +
                                std::to_string(right.Value(row)) + "S caused overflow. Use `" +
                                TryFunctionName(op) +
                                "` to ignore overflow problem and return NULL.");
        });
  };
}

template <typename T>
Kernel DivisionKernel(Operator op, std::shared_ptr<arrow::DataType> type, bool ansi) {
  using C = typename arrow::TypeTraits<T>::CType;
  return [op, type, ansi](const std::vector<arrow::Datum>& args, const EvalContext& context,
                          int64_t num_rows) -> arrow::Result<arrow::Datum> {
    auto on_error = [&](int64_t) -> arrow::Result<arrow::Datum> {
      if (op == Operator::kIntegralDivide && ansi) {
        // The only failure besides a zero divisor: MIN div -1.
        NumericInput<T> divisor(args[1]);
        for (int64_t i = 0; i < num_rows; ++i) {
          if (divisor.IsValid(i) && divisor.Value(i) == 0) return DivideByZeroError();
        }
        return OverflowError(*type, "");
      }
      return DivideByZeroError();
    };
    auto divide = [op, ansi](C a, C b, C* out) -> RowOutcome {
      if (b == 0) return ansi ? RowOutcome::kError : RowOutcome::kNull;
      if constexpr (std::is_integral_v<C>) {
        if (a == std::numeric_limits<C>::min() && b == -1) {
          if (op != Operator::kIntegralDivide) {
            *out = 0;
            return RowOutcome::kValue;
          }
          if (!ansi) {
            *out = a;  // Java's wrap-around.
            return RowOutcome::kValue;
          }
          return RowOutcome::kError;
        }
        if (op == Operator::kIntegralDivide) {
          *out = a / b;
        } else {
          C r = static_cast<C>(a % b);
          if (op == Operator::kPmod && r < 0) {
            // Java adds in int for byte and short and wraps around for int and long.
            using Wide = std::conditional_t<(sizeof(C) < 4), int32_t, C>;
            using Unsigned = std::make_unsigned_t<Wide>;
            const Wide sum = static_cast<Wide>(static_cast<Unsigned>(static_cast<Wide>(r)) +
                                               static_cast<Unsigned>(static_cast<Wide>(b)));
            r = static_cast<C>(sum % static_cast<Wide>(b));
          }
          *out = r;
        }
      } else {
        if (op == Operator::kDivide) {
          *out = a / b;
        } else {
          C r = std::fmod(a, b);
          if (op == Operator::kPmod && r < 0) r = std::fmod(r + b, b);
          *out = r;
        }
      }
      return RowOutcome::kValue;
    };
    return ApplyBinary<T, T, T>(args[0], args[1], num_rows, type, context.pool, divide,
                                on_error);
  };
}

Kernel NumericDivisionKernel(Operator op, const std::shared_ptr<arrow::DataType>& type,
                             bool ansi) {
  switch (type->id()) {
    case arrow::Type::INT8: return DivisionKernel<arrow::Int8Type>(op, type, ansi);
    case arrow::Type::INT16: return DivisionKernel<arrow::Int16Type>(op, type, ansi);
    case arrow::Type::INT32: return DivisionKernel<arrow::Int32Type>(op, type, ansi);
    case arrow::Type::INT64: return DivisionKernel<arrow::Int64Type>(op, type, ansi);
    case arrow::Type::FLOAT: return DivisionKernel<arrow::FloatType>(op, type, ansi);
    default: return DivisionKernel<arrow::DoubleType>(op, type, ansi);
  }
}

// date + n, n + date and date - n are Spark's date_add / date_sub, and named so.
std::optional<arrow::Result<ResolvedCall>> DateArithmetic(Operator op, const CallSite& call) {
  if (op != Operator::kAdd && op != Operator::kSubtract) return std::nullopt;
  const auto left = call.args[0]->type()->id(), right = call.args[1]->type()->id();
  const bool left_date = left == arrow::Type::DATE32, right_date = right == arrow::Type::DATE32;
  if (left_date == right_date) return std::nullopt;
  if (right_date && op == Operator::kSubtract) return std::nullopt;
  std::vector<BoundExprPtr> args = call.args;
  if (right_date) std::swap(args[0], args[1]);
  const std::string function = op == Operator::kAdd ? "date_add" : "date_sub";
  const ScalarResolver* resolver = FunctionRegistry::Builtins().FindScalar(function);
  if (resolver == nullptr) return std::nullopt;
  auto resolved = (*resolver)(CallSite{function, args, call.config});
  if (resolved.ok()) {
    resolved->sql = function + "(" + args[0]->sql() + ", " + args[1]->sql() + ")";
  }
  return resolved;
}

// Arithmetic with intervals, and differences of dates and timestamps (interval_arithmetic.h).
std::optional<arrow::Result<ResolvedCall>> IntervalArithmetic(Operator op, const CallSite& call) {
  switch (op) {
    case Operator::kAdd: return ResolveIntervalArithmetic(IntervalOperator::kAdd, call);
    case Operator::kSubtract: return ResolveIntervalArithmetic(IntervalOperator::kSubtract, call);
    case Operator::kMultiply: return ResolveIntervalArithmetic(IntervalOperator::kMultiply, call);
    case Operator::kDivide: return ResolveIntervalArithmetic(IntervalOperator::kDivide, call);
    default: return std::nullopt;
  }
}

ScalarResolver BinaryArithmetic(Operator op) {
  return [op](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    if (auto interval_call = IntervalArithmetic(op, call)) return *std::move(interval_call);
    if (auto date_call = DateArithmetic(op, call)) return *std::move(date_call);
    ARROW_ASSIGN_OR_RAISE(auto operand_type, OperandType(call));
    const bool ansi = call.config->ansi_enabled();
    ResolvedCall resolved;
    if (op == Operator::kDivide && operand_type->id() != arrow::Type::DECIMAL128) {
      operand_type = arrow::float64();
    }
    if (op == Operator::kIntegralDivide && operand_type->id() != arrow::Type::DECIMAL128) {
      operand_type = arrow::int64();
    }
    if (operand_type->id() == arrow::Type::DECIMAL128) {
      std::vector<BoundExprPtr> args;
      // A cast that may fail at run time makes the operand nullable, as Spark's Cast says.
      bool nullable = !ansi;
      for (size_t i = 0; i < 2; ++i) {
        const auto& arg = call.args[i];
        const auto& other = call.args[1 - i];
        auto decimal = DecimalForIntegral(*arg->type());
        const arrow::Scalar* literal = ConstantArgument(call, i);
        if (literal != nullptr && decimal != nullptr && arrow::is_integer(arg->type()->id()) &&
            other->type()->id() == arrow::Type::DECIMAL128) {
          // An integral literal meeting a decimal takes only the digits it needs.
          if (auto minimal = DecimalForIntegralLiteral(*literal)) {
            decimal = minimal;
            nullable |= arg->type()->id() != arrow::Type::INT8;
          }
        }
        ARROW_ASSIGN_OR_RAISE(auto converted,
                              MakeCast(arg, decimal ? decimal : operand_type, CastKind::kImplicit,
                                       *call.config));
        nullable |= converted->nullable();
        args.push_back(std::move(converted));
      }
      const auto& left = static_cast<const arrow::Decimal128Type&>(*args[0]->type());
      const auto& right = static_cast<const arrow::Decimal128Type&>(*args[1]->type());
      resolved.return_type = DecimalResultType(op, left, right);
      resolved.can_fail = ansi && !DecimalResultAlwaysFits(op, left, right);
      resolved.args = std::move(args);
      if (op == Operator::kIntegralDivide || op == Operator::kRemainder ||
          op == Operator::kPmod) {
        // Exact decimal quotient, then truncation (div) or a - b * trunc(a / b) (%, pmod).
        resolved.nullable = true;
        resolved.kernel = DecimalRemainderKernel(op, resolved.return_type, ansi);
        return resolved;
      }
      resolved.nullable = nullable || op == Operator::kDivide;
      resolved.kernel = DecimalKernel(op, resolved.return_type, ansi);
      return resolved;
    }
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, operand_type));
    resolved.return_type = operand_type;
    const bool integral = arrow::is_integer(operand_type->id());
    switch (op) {
      case Operator::kAdd:
      case Operator::kSubtract:
      case Operator::kMultiply: {
        std::string name = op == Operator::kAdd        ? "add"
                           : op == Operator::kSubtract ? "subtract"
                                                       : "multiply";
        if (integral && ansi) name += "_checked";
        resolved.can_fail = integral && ansi;
        resolved.nullable = AnyNullable(resolved.args);
        if (operand_type->id() == arrow::Type::INT8) {
          resolved.kernel = SmallIntegerKernel<arrow::Int8Type>(op, ansi);
          return resolved;
        }
        if (operand_type->id() == arrow::Type::INT16) {
          resolved.kernel = SmallIntegerKernel<arrow::Int16Type>(op, ansi);
          return resolved;
        }
        resolved.kernel = [name, operand_type, op](const std::vector<arrow::Datum>& args,
                                                   const EvalContext&,
                                                   int64_t) -> arrow::Result<arrow::Datum> {
          return CallArrowArithmetic(name, args, *operand_type, op);
        };
        return resolved;
      }
      case Operator::kDivide:
      case Operator::kRemainder:
      case Operator::kIntegralDivide:
      case Operator::kPmod:
        resolved.can_fail = ansi;
        resolved.kernel = NumericDivisionKernel(op, operand_type, ansi);
        return resolved;
    }
    return arrow::Status::Invalid("unreachable");
  };
}

// try_add, try_subtract, try_multiply, try_divide: the operator under ANSI rules, with null
// where it would fail (overflow, division by zero) whatever the session's ANSI setting.
ScalarResolver TryArithmetic(Operator op, std::string name) {
  return [op, name](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    SessionConfig ansi = *call.config;
    ARROW_RETURN_NOT_OK(ansi.Set("spark.sql.ansi.enabled", "true"));
    ARROW_ASSIGN_OR_RAISE(auto resolved,
                          BinaryArithmetic(op)(CallSite{call.name, call.args, &ansi}));
    Kernel strict = std::move(resolved.kernel);
    const auto type = resolved.return_type;
    resolved.kernel = [strict, type](const std::vector<arrow::Datum>& args,
                                     const EvalContext& context,
                                     int64_t num_rows) -> arrow::Result<arrow::Datum> {
      auto all = strict(args, context, num_rows);
      if (all.ok()) return all;
      // Some row fails: each row on its own, null where it fails (failures are rare).
      std::unique_ptr<arrow::ArrayBuilder> builder;
      ARROW_RETURN_NOT_OK(arrow::MakeBuilder(context.pool, type, &builder));
      ARROW_RETURN_NOT_OK(builder->Reserve(num_rows));
      for (int64_t i = 0; i < num_rows; ++i) {
        std::vector<arrow::Datum> row;
        for (const auto& arg : args) {
          row.push_back(arg.is_array() ? arrow::Datum(arg.make_array()->Slice(i, 1)) : arg);
        }
        auto value = strict(row, context, 1);
        if (!value.ok()) {
          ARROW_RETURN_NOT_OK(builder->AppendNull());
        } else if (value->is_scalar()) {
          ARROW_RETURN_NOT_OK(builder->AppendScalar(*value->scalar()));
        } else {
          ARROW_RETURN_NOT_OK(builder->AppendArraySlice(arrow::ArraySpan(*value->array()), 0, 1));
        }
      }
      ARROW_ASSIGN_OR_RAISE(auto result, builder->Finish());
      return arrow::Datum(std::move(result));
    };
    resolved.nullable = true;
    resolved.can_fail = false;
    resolved.sql = name + "(" + call.args[0]->sql() + ", " + call.args[1]->sql() + ")";
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveNegative(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  if (auto interval = ResolveIntervalNegation(call)) return *std::move(interval);
  auto type = call.args[0]->type();
  if (type->id() == arrow::Type::STRING || type->id() == arrow::Type::NA) type = arrow::float64();
  if (!IsNumericType(*type)) return UnexpectedInputType(call, 0, "\"NUMERIC\"");
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
  resolved.return_type = type;
  resolved.nullable = AnyNullable(resolved.args);
  const bool checked = arrow::is_integer(type->id()) && call.config->ansi_enabled();
  resolved.can_fail = checked;
  resolved.kernel = [checked, type](const std::vector<arrow::Datum>& args, const EvalContext&,
                                    int64_t) -> arrow::Result<arrow::Datum> {
    auto result = cp::CallFunction(checked ? "negate_checked" : "negate", args);
    if (!result.ok() && checked) return OverflowError(*type, "");
    return result;
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolvePositive(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  if (!IsNumericType(*call.args[0]->type())) return UnexpectedInputType(call, 0, "\"NUMERIC\"");
  ResolvedCall resolved;
  resolved.args = call.args;
  resolved.return_type = call.args[0]->type();
  resolved.nullable = call.args[0]->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                       int64_t) -> arrow::Result<arrow::Datum> { return args[0]; };
  return resolved;
}

}  // namespace

void RegisterArithmeticFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("+", BinaryArithmetic(Operator::kAdd));
  registry.RegisterScalar("-", BinaryArithmetic(Operator::kSubtract));
  registry.RegisterScalar("*", BinaryArithmetic(Operator::kMultiply));
  registry.RegisterScalar("/", BinaryArithmetic(Operator::kDivide));
  registry.RegisterScalar("%", BinaryArithmetic(Operator::kRemainder));
  registry.RegisterScalar("mod", BinaryArithmetic(Operator::kRemainder));
  registry.RegisterScalar("div", BinaryArithmetic(Operator::kIntegralDivide));
  registry.RegisterScalar("pmod", BinaryArithmetic(Operator::kPmod));
  registry.RegisterScalar("try_add", TryArithmetic(Operator::kAdd, "try_add"));
  registry.RegisterScalar("try_subtract", TryArithmetic(Operator::kSubtract, "try_subtract"));
  registry.RegisterScalar("try_multiply", TryArithmetic(Operator::kMultiply, "try_multiply"));
  registry.RegisterScalar("try_divide", TryArithmetic(Operator::kDivide, "try_divide"));
  registry.RegisterScalar("negative", ResolveNegative);
  registry.RegisterScalar("positive", ResolvePositive);
}

}  // namespace sluice::expr
