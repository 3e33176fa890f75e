#include "sluice/expr/functions/interval_arithmetic.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/zone.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

using Type = arrow::Type;
using types::DayTimeFields;
using types::YearMonthFields;

bool IsDayTime(const BoundExpr& e) { return types::IsDayTimeInterval(*e.type()); }
bool IsYearMonth(const BoundExpr& e) { return types::IsYearMonthInterval(*e.type()); }
bool IsInterval(const BoundExpr& e) { return IsDayTime(e) || IsYearMonth(e); }
bool IsTimestampArg(const BoundExpr& e) { return e.type()->id() == Type::TIMESTAMP; }
bool IsDateArg(const BoundExpr& e) { return e.type()->id() == Type::DATE32; }
bool IsNumberArg(const BoundExpr& e) {
  return types::IsNumeric(*e.type()) || e.type()->id() == Type::NA;
}

arrow::Status Overflow() {
  return SparkError("ARITHMETIC_OVERFLOW",
                    "long overflow. Use 'try_add' to tolerate overflow and return NULL "
                    "instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                    "bypass this error.");
}

arrow::Status IncompatibleTypes(const CallSite& call) {
  return DataTypeMismatch(
      call, "BINARY_OP_DIFF_TYPES",
      std::string("the left and right operands of the binary operator have incompatible "
                  "types (\"") +
          SqlTypeName(*call.args[0]->type()) + "\" and \"" + SqlTypeName(*call.args[1]->type()) +
          "\")");
}

template <typename T>
bool Fits(__int128 value) {
  return value >= std::numeric_limits<T>::min() && value <= std::numeric_limits<T>::max();
}

// Adds (or subtracts) two fixed-width values of the same storage, failing on overflow.
template <typename LeftT, typename RightT, typename OutT>
Kernel CheckedSum(std::shared_ptr<arrow::DataType> type, int sign) {
  using OutC = typename arrow::TypeTraits<OutT>::CType;
  return [type, sign](const std::vector<arrow::Datum>& args, const EvalContext& context,
                      int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ApplyBinary<LeftT, RightT, OutT>(
        args[0], args[1], num_rows, type, context.pool,
        [sign](auto a, auto b, OutC* out) {
          const __int128 sum = static_cast<__int128>(a) + sign * static_cast<__int128>(b);
          if (!Fits<OutC>(sum)) return RowOutcome::kError;
          *out = static_cast<OutC>(sum);
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return Overflow(); });
  };
}

ResolvedCall Resolved(std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> type,
                  Kernel kernel, std::string sql = {}) {
  ResolvedCall resolved;
  resolved.nullable = AnyNullable(args);
  resolved.args = std::move(args);
  resolved.return_type = std::move(type);
  resolved.can_fail = true;
  resolved.kernel = std::move(kernel);
  resolved.sql = std::move(sql);
  return resolved;
}

// Spark names datetime-plus-interval calls without parentheses: `ts + INTERVAL '1' DAY`.
std::string InfixSql(const BoundExpr& left, const char* symbol, const BoundExpr& right) {
  return left.sql() + " " + symbol + " " + right.sql();
}

// A timestamp moved by `months` on the calendar of `zone` (the time of day kept, the day clamped
// to the month's end), as Spark's timestampAddMonths; nullopt on overflow.
std::optional<int64_t> TimestampAddMonths(int64_t micros, int64_t months,
                                          const datetime::TimeZone* zone) {
  const int64_t seconds = datetime::FloorDiv(micros, datetime::kMicrosPerSecond);
  const int64_t fraction = micros - seconds * datetime::kMicrosPerSecond;
  const int64_t offset = zone == nullptr ? 0 : zone->OffsetAt(seconds);
  const int64_t local = seconds + offset;
  const int64_t days = datetime::FloorDiv(local, datetime::kSecondsPerDay);
  const int64_t time_of_day = local - days * datetime::kSecondsPerDay;
  const int64_t moved_days = datetime::AddMonths(days, months);
  const __int128 moved_local =
      static_cast<__int128>(moved_days) * datetime::kSecondsPerDay + time_of_day;
  if (!Fits<int64_t>(moved_local)) return std::nullopt;
  const int64_t utc = zone == nullptr ? static_cast<int64_t>(moved_local)
                                      : zone->LocalToUtc(static_cast<int64_t>(moved_local));
  const __int128 result = static_cast<__int128>(utc) * datetime::kMicrosPerSecond + fraction;
  if (!Fits<int64_t>(result)) return std::nullopt;
  return static_cast<int64_t>(result);
}

// timestamp or date +/- year-month interval.
arrow::Result<ResolvedCall> AddYearMonth(const CallSite& call, BoundExprPtr datetime_arg,
                                         BoundExprPtr interval, int sign, const char* symbol) {
  const std::string sql = InfixSql(*datetime_arg, symbol, *interval);
  if (IsDateArg(*datetime_arg)) {
    return Resolved({datetime_arg, interval}, arrow::date32(),
                [sign](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
                  return ApplyBinary<arrow::Date32Type, arrow::MonthIntervalType,
                                     arrow::Date32Type>(
                      args[0], args[1], num_rows, arrow::date32(), context.pool,
                      [sign](int32_t date, int32_t months, int32_t* out) {
                        const int64_t moved = datetime::AddMonths(date, sign * int64_t{months});
                        if (!Fits<int32_t>(moved)) return RowOutcome::kError;
                        *out = static_cast<int32_t>(moved);
                        return RowOutcome::kValue;
                      },
                      [](int64_t) -> arrow::Result<arrow::Datum> { return Overflow(); });
                },
                sql);
  }
  std::shared_ptr<const datetime::TimeZone> zone;
  const auto type = datetime_arg->type();
  if (!static_cast<const arrow::TimestampType&>(*type).timezone().empty()) {
    ARROW_ASSIGN_OR_RAISE(zone, datetime::TimeZone::Find(call.config->session_time_zone()));
  }
  return Resolved({datetime_arg, interval}, type,
              [sign, zone, type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
                return ApplyBinary<arrow::TimestampType, arrow::MonthIntervalType,
                                   arrow::TimestampType>(
                    args[0], args[1], num_rows, type, context.pool,
                    [sign, &zone](int64_t micros, int32_t months, int64_t* out) {
                      auto moved = TimestampAddMonths(micros, sign * int64_t{months}, zone.get());
                      if (!moved) return RowOutcome::kError;
                      *out = *moved;
                      return RowOutcome::kValue;
                    },
                    [](int64_t) -> arrow::Result<arrow::Datum> { return Overflow(); });
              },
              sql);
}

// timestamp or date +/- day-time interval.
arrow::Result<ResolvedCall> AddDayTime(const CallSite& call, BoundExprPtr datetime_arg,
                                       BoundExprPtr interval, int sign, const char* symbol) {
  if (IsDateArg(*datetime_arg)) {
    const auto fields = types::DayTimeFieldsOf(*interval->type());
    if (fields.end == types::DayTimeField::kDay) {
      // Whole days keep a date: Spark's date_add(d, extractansiintervaldays(i)).
      std::string days = "extractansiintervaldays(" + interval->sql() + ")";
      if (sign < 0) days = "(- " + days + ")";
      return Resolved({datetime_arg, interval}, arrow::date32(),
                  [sign](const std::vector<arrow::Datum>& args, const EvalContext& context,
                         int64_t num_rows) -> arrow::Result<arrow::Datum> {
                    return ApplyBinary<arrow::Date32Type, arrow::DurationType,
                                       arrow::Date32Type>(
                        args[0], args[1], num_rows, arrow::date32(), context.pool,
                        [sign](int32_t date, int64_t micros, int32_t* out) {
                          const __int128 moved =
                              static_cast<__int128>(date) +
                              sign * static_cast<__int128>(micros / datetime::kMicrosPerDay);
                          if (!Fits<int32_t>(moved)) return RowOutcome::kError;
                          *out = static_cast<int32_t>(moved);
                          return RowOutcome::kValue;
                        },
                        [](int64_t) -> arrow::Result<arrow::Datum> { return Overflow(); });
                  },
                  "date_add(" + datetime_arg->sql() + ", " + days + ")");
    }
    // A time of day makes the date a timestamp at midnight in the session time zone.
    const std::string sql = InfixSql(*datetime_arg, symbol, *interval);
    ARROW_ASSIGN_OR_RAISE(datetime_arg, MakeCast(datetime_arg, types::TimestampLtzType(),
                                                 CastKind::kImplicit, *call.config));
    auto resolved = AddDayTime(call, datetime_arg, interval, sign, symbol);
    if (resolved.ok()) resolved->sql = sql;
    return resolved;
  }
  const auto type = datetime_arg->type();
  auto kernel = sign > 0 ? CheckedSum<arrow::TimestampType, arrow::DurationType,
                                      arrow::TimestampType>(type, 1)
                         : CheckedSum<arrow::TimestampType, arrow::DurationType,
                                      arrow::TimestampType>(type, -1);
  return Resolved({datetime_arg, interval}, type, std::move(kernel),
              InfixSql(*datetime_arg, symbol, *interval));
}

// Scales an interval by a number, rounding half up as Spark's Multiply/Divide*Interval.
template <typename IntervalT>
arrow::Result<ResolvedCall> Scale(const CallSite& call, BoundExprPtr interval,
                                  BoundExprPtr factor, bool divide,
                                  std::shared_ptr<arrow::DataType> type) {
  using C = typename arrow::TypeTraits<IntervalT>::CType;
  const bool integral = arrow::is_integer(factor->type()->id()) || factor->type()->id() == Type::NA;
  const std::string sql =
      "(" + interval->sql() + (divide ? " / " : " * ") + factor->sql() + ")";
  auto on_error = [divide](int64_t) -> arrow::Result<arrow::Datum> {
    if (divide) {
      return SparkError("INTERVAL_DIVIDED_BY_ZERO",
                        "Division by zero. Use `try_divide` to tolerate divisor being 0 and "
                        "return NULL instead.");
    }
    return Overflow();
  };
  if (integral) {
    ARROW_ASSIGN_OR_RAISE(factor,
                          MakeCast(factor, arrow::int64(), CastKind::kImplicit, *call.config));
    return Resolved({interval, factor}, type,
                [divide, type, on_error](const std::vector<arrow::Datum>& args,
                                         const EvalContext& context,
                                         int64_t num_rows) -> arrow::Result<arrow::Datum> {
                  return ApplyBinary<IntervalT, arrow::Int64Type, IntervalT>(
                      args[0], args[1], num_rows, type, context.pool,
                      [divide](C value, int64_t n, C* out) {
                        __int128 result;
                        if (divide) {
                          if (n == 0) return RowOutcome::kError;
                          const __int128 quotient = value / n;
                          const __int128 remainder = value % n;
                          // Half up: away from zero when the remainder is at least half.
                          result = quotient;
                          const __int128 magnitude = n < 0 ? -static_cast<__int128>(n) : n;
                          if (2 * (remainder < 0 ? -remainder : remainder) >= magnitude) {
                            result += ((value < 0) != (n < 0)) ? -1 : 1;
                          }
                        } else {
                          result = static_cast<__int128>(value) * n;
                        }
                        if (!Fits<C>(result)) return RowOutcome::kError;
                        *out = static_cast<C>(result);
                        return RowOutcome::kValue;
                      },
                      on_error);
                },
                sql);
  }
  ARROW_ASSIGN_OR_RAISE(factor,
                        MakeCast(factor, arrow::float64(), CastKind::kImplicit, *call.config));
  return Resolved({interval, factor}, type,
              [divide, type, on_error](const std::vector<arrow::Datum>& args,
                                       const EvalContext& context,
                                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
                return ApplyBinary<IntervalT, arrow::DoubleType, IntervalT>(
                    args[0], args[1], num_rows, type, context.pool,
                    [divide](C value, double n, C* out) {
                      if (divide && n == 0) return RowOutcome::kError;
                      const long double exact = divide ? static_cast<long double>(value) / n
                                                       : static_cast<long double>(value) * n;
                      // Half up: round() rounds halves away from zero.
                      const long double rounded = std::round(exact);
                      if (!std::isfinite(static_cast<double>(rounded)) ||
                          rounded > static_cast<long double>(std::numeric_limits<C>::max()) ||
                          rounded < static_cast<long double>(std::numeric_limits<C>::min())) {
                        return RowOutcome::kError;
                      }
                      *out = static_cast<C>(rounded);
                      return RowOutcome::kValue;
                    },
                    on_error);
              },
              sql);
}

}  // namespace

std::optional<arrow::Result<ResolvedCall>> ResolveIntervalArithmetic(IntervalOperator op,
                                                                     const CallSite& call) {
  if (call.args.size() != 2) return std::nullopt;
  const auto& left = call.args[0];
  const auto& right = call.args[1];
  const bool add = op == IntervalOperator::kAdd;
  const int sign = op == IntervalOperator::kSubtract ? -1 : 1;
  const char* symbol = add ? "+" : "-";
  switch (op) {
    case IntervalOperator::kAdd:
    case IntervalOperator::kSubtract: {
      if (IsDayTime(*left) && IsDayTime(*right)) {
        auto type = types::DayTimeInterval(types::Union(types::DayTimeFieldsOf(*left->type()),
                                                        types::DayTimeFieldsOf(*right->type())));
        return Resolved({left, right}, type,
                    CheckedSum<arrow::DurationType, arrow::DurationType, arrow::DurationType>(
                        type, sign));
      }
      if (IsYearMonth(*left) && IsYearMonth(*right)) {
        auto type = types::YearMonthInterval(types::Union(
            types::YearMonthFieldsOf(*left->type()), types::YearMonthFieldsOf(*right->type())));
        return Resolved({left, right}, type,
                    CheckedSum<arrow::MonthIntervalType, arrow::MonthIntervalType,
                               arrow::MonthIntervalType>(type, sign));
      }
      const bool left_datetime = IsTimestampArg(*left) || IsDateArg(*left);
      const bool right_datetime = IsTimestampArg(*right) || IsDateArg(*right);
      if (left_datetime && IsYearMonth(*right)) return AddYearMonth(call, left, right, sign, symbol);
      if (left_datetime && IsDayTime(*right)) return AddDayTime(call, left, right, sign, symbol);
      if (add && right_datetime && IsYearMonth(*left)) {
        return AddYearMonth(call, right, left, 1, symbol);
      }
      if (add && right_datetime && IsDayTime(*left)) return AddDayTime(call, right, left, 1, symbol);
      if (!add && IsDateArg(*left) && IsDateArg(*right)) {
        // Whole days between two dates: an interval day.
        auto type = types::DayTimeInterval({types::DayTimeField::kDay, types::DayTimeField::kDay});
        return Resolved({left, right}, type,
                    [type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
                      return ApplyBinary<arrow::Date32Type, arrow::Date32Type,
                                         arrow::DurationType>(
                          args[0], args[1], num_rows, type, context.pool,
                          [](int32_t a, int32_t b, int64_t* out) {
                            *out = (int64_t{a} - b) * datetime::kMicrosPerDay;
                            return RowOutcome::kValue;
                          },
                          [](int64_t) -> arrow::Result<arrow::Datum> { return Overflow(); });
                    });
      }
      if (!add && left_datetime && right_datetime) {
        // The time between two instants (dates at midnight in the session time zone).
        const auto common = IsTimestampArg(*left) && IsTimestampArg(*right) &&
                                    *left->type() == *right->type()
                                ? left->type()
                                : types::TimestampLtzType();
        ARROW_ASSIGN_OR_RAISE(auto a, MakeCast(left, common, CastKind::kImplicit, *call.config));
        ARROW_ASSIGN_OR_RAISE(auto b, MakeCast(right, common, CastKind::kImplicit, *call.config));
        auto type = types::DayTimeInterval();
        return Resolved({a, b}, type,
                    CheckedSum<arrow::TimestampType, arrow::TimestampType, arrow::DurationType>(
                        type, -1));
      }
      if (IsInterval(*left) || IsInterval(*right)) {
        // Spark reads the call as a datetime plus the (day-time) interval and names what is
        // not a datetime.
        const bool interval_right = IsDayTime(*right) || !IsDayTime(*left);
        const auto& datetime_arg = interval_right ? left : right;
        const auto& interval = interval_right ? right : left;
        return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                          "Cannot resolve \"" + InfixSql(*datetime_arg, symbol, *interval) +
                              "\" due to data type mismatch: The first parameter requires the "
                              "\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\" type, however \"" +
                              datetime_arg->sql() + "\" has the type \"" +
                              SqlTypeName(*datetime_arg->type()) + "\".");
      }
      return std::nullopt;
    }
    case IntervalOperator::kMultiply:
    case IntervalOperator::kDivide: {
      const bool divide = op == IntervalOperator::kDivide;
      BoundExprPtr interval = left;
      BoundExprPtr factor = right;
      if (!divide && IsInterval(*right) && IsNumberArg(*left)) std::swap(interval, factor);
      if (!IsInterval(*interval) && !IsInterval(*factor)) return std::nullopt;
      if (!IsInterval(*interval) || !IsNumberArg(*factor)) {
        return IncompatibleTypes(call);
      }
      if (IsDayTime(*interval)) {
        return Scale<arrow::DurationType>(call, interval, factor, divide,
                                          types::DayTimeInterval());
      }
      return Scale<arrow::MonthIntervalType>(call, interval, factor, divide,
                                             types::YearMonthInterval());
    }
  }
  return std::nullopt;
}

std::optional<arrow::Result<ResolvedCall>> ResolveIntervalNegation(const CallSite& call) {
  if (call.args.size() != 1 || !IsInterval(*call.args[0])) return std::nullopt;
  const auto& arg = call.args[0];
  const auto type = arg->type();
  ResolvedCall resolved;
  resolved.args = {arg};
  resolved.return_type = type;
  resolved.nullable = arg->nullable();
  resolved.can_fail = true;
  const bool day_time = IsDayTime(*arg);
  resolved.kernel = [day_time, type](const std::vector<arrow::Datum>& args,
                                     const EvalContext& context,
                                     int64_t num_rows) -> arrow::Result<arrow::Datum> {
    // 0 - x, checked: the most negative value has no negation.
    const arrow::Datum zero =
        day_time ? arrow::Datum(std::make_shared<arrow::DurationScalar>(0, type))
                 : arrow::Datum(std::make_shared<arrow::MonthIntervalScalar>(0, type));
    if (day_time) {
      return CheckedSum<arrow::DurationType, arrow::DurationType, arrow::DurationType>(type, -1)(
          {zero, args[0]}, context, num_rows);
    }
    return CheckedSum<arrow::MonthIntervalType, arrow::MonthIntervalType,
                      arrow::MonthIntervalType>(type, -1)({zero, args[0]}, context, num_rows);
  };
  return resolved;
}

}  // namespace sluice::expr
