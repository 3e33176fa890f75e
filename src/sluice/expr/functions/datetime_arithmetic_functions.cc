// Spark's date truncation, date arithmetic, conversions to and from epoch numbers, zone shifts
// and the current time, in the session time zone.
#include "sluice/expr/functions/datetime_function_support.h"

namespace sluice::expr::datetime_functions {

namespace {

// ---------------------------------------------------------------------------------------------
// Truncation

enum class TruncLevel {
  kInvalid, kMicrosecond, kMillisecond, kSecond, kMinute, kHour, kDay, kWeek, kMonth, kQuarter,
  kYear
};

TruncLevel ParseTruncLevel(std::string_view unit, bool for_date) {
  std::string upper(unit);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "YEAR" || upper == "YYYY" || upper == "YY") return TruncLevel::kYear;
  if (upper == "QUARTER") return TruncLevel::kQuarter;
  if (upper == "MONTH" || upper == "MM" || upper == "MON") return TruncLevel::kMonth;
  if (upper == "WEEK") return TruncLevel::kWeek;
  if (for_date) return TruncLevel::kInvalid;
  if (upper == "DAY" || upper == "DD") return TruncLevel::kDay;
  if (upper == "HOUR") return TruncLevel::kHour;
  if (upper == "MINUTE") return TruncLevel::kMinute;
  if (upper == "SECOND") return TruncLevel::kSecond;
  if (upper == "MILLISECOND") return TruncLevel::kMillisecond;
  if (upper == "MICROSECOND") return TruncLevel::kMicrosecond;
  return TruncLevel::kInvalid;
}

int64_t TruncDays(int64_t days, TruncLevel level) {
  const CivilDate date = CivilFromDays(days);
  switch (level) {
    case TruncLevel::kWeek: return days - (IsoDayOfWeek(days) - 1);
    case TruncLevel::kMonth: return DaysFromCivil(date.year, date.month, 1);
    case TruncLevel::kQuarter: return DaysFromCivil(date.year, (date.month - 1) / 3 * 3 + 1, 1);
    case TruncLevel::kYear: return DaysFromCivil(date.year, 1, 1);
    default: return days;
  }
}

// Java's ZonedDateTime.ofLocal(local, zone, preferredOffset): keeps the preferred offset when
// it is valid for the local time.
int64_t LocalToUtcPreferring(const TimeZone& zone, int64_t local_seconds, int32_t preferred) {
  const int64_t candidate = local_seconds - preferred;
  if (zone.OffsetAt(candidate) == preferred) return candidate;
  return zone.LocalToUtc(local_seconds);
}

int64_t TruncTimestamp(int64_t micros, TruncLevel level, const TimeZone& zone,
                       ZoneOffsetCursor& cursor) {
  switch (level) {
    case TruncLevel::kMicrosecond: return micros;
    case TruncLevel::kMillisecond: return micros - FloorMod(micros, 1000);
    case TruncLevel::kSecond: return micros - FloorMod(micros, kMicrosPerSecond);
    default: break;
  }
  const int32_t offset = cursor.OffsetAtMicros(micros);
  const int64_t local_seconds = FloorDiv(micros, kMicrosPerSecond) + offset;
  int64_t unit = 0;
  switch (level) {
    case TruncLevel::kMinute: unit = 60; break;
    case TruncLevel::kHour: unit = 3600; break;
    case TruncLevel::kDay: unit = kSecondsPerDay; break;
    default: break;
  }
  if (unit != 0) {
    const int64_t truncated = local_seconds - FloorMod(local_seconds, unit);
    return LocalToUtcPreferring(zone, truncated, offset) * kMicrosPerSecond;
  }
  const int64_t days = TruncDays(FloorDiv(local_seconds, kSecondsPerDay), level);
  return zone.LocalToUtc(days * kSecondsPerDay) * kMicrosPerSecond;
}

arrow::Result<ResolvedCall> ResolveDateTrunc(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_RETURN_NOT_OK(RequireStringPattern(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto value, TimestampArg(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto unit_arg, ArgAs(call, 0, arrow::utf8()));
  ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
  const arrow::Scalar* constant = ConstantArgument(call, 0);
  std::optional<TruncLevel> constant_level;
  if (constant != nullptr) {
    constant_level = constant->is_valid
                         ? ParseTruncLevel(static_cast<const arrow::StringScalar*>(constant)->view(),
                                           false)
                         : TruncLevel::kInvalid;
  }
  ResolvedCall resolved;
  resolved.args = {unit_arg, value};
  resolved.return_type = Timestamp();
  resolved.kernel = [zone, constant_level](const std::vector<arrow::Datum>& args,
                                           const EvalContext& context,
                                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ZoneOffsetCursor cursor(*zone);
    if (constant_level) {
      const TruncLevel level = *constant_level;
      return MapUnary<arrow::TimestampType, arrow::TimestampType>(
          args[1], num_rows, Timestamp(), context.pool,
          [&](int64_t micros, int64_t* out) -> arrow::Result<bool> {
            if (level == TruncLevel::kInvalid) return false;
            *out = TruncTimestamp(micros, level, *zone, cursor);
            return true;
          });
    }
    StringInput units(args[0]);
    int64_t row = 0;
    return MapUnary<arrow::TimestampType, arrow::TimestampType>(
        args[1], num_rows, Timestamp(), context.pool,
        [&](int64_t micros, int64_t* out) -> arrow::Result<bool> {
          const int64_t i = row++;
          if (!units.IsValid(i)) return false;
          const TruncLevel level = ParseTruncLevel(units.View(i), false);
          if (level == TruncLevel::kInvalid) return false;
          *out = TruncTimestamp(micros, level, *zone, cursor);
          return true;
        });
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveTrunc(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto value, DateArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto unit_arg, ArgAs(call, 1, arrow::utf8()));
  ResolvedCall resolved;
  resolved.args = {value, unit_arg};
  resolved.return_type = arrow::date32();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput units(args[1]);
    const bool scalar_unit = args[1].is_scalar();
    const TruncLevel fixed = scalar_unit && units.IsValid(0)
                                 ? ParseTruncLevel(units.View(0), true)
                                 : TruncLevel::kInvalid;
    int64_t row = 0;
    return MapUnary<arrow::Date32Type, arrow::Date32Type>(
        args[0], num_rows, arrow::date32(), context.pool,
        [&](int32_t days, int32_t* out) -> arrow::Result<bool> {
          const int64_t i = row++;
          TruncLevel level = fixed;
          if (!scalar_unit) {
            if (!units.IsValid(i)) return false;
            level = ParseTruncLevel(units.View(i), true);
          }
          if (level == TruncLevel::kInvalid) return false;
          *out = static_cast<int32_t>(TruncDays(days, level));
          return true;
        });
  };
  return resolved;
}

// ---------------------------------------------------------------------------------------------
// Date arithmetic

arrow::Status DateOverflow() {
  return SparkError("DATETIME_OVERFLOW",
                    "Datetime operation overflow: the resulting date is out of the supported "
                    "range.");
}

// date_add(d, n) / date_sub(d, n)
ScalarResolver DateAddFunction(int sign) {
  return [sign](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    const auto days_type = call.args[1]->type()->id();
    if (days_type != Type::INT32 && days_type != Type::INT16 && days_type != Type::INT8 &&
        days_type != Type::NA) {
      return UnexpectedInputType(call, 1, "(\"INT\" or \"SMALLINT\" or \"TINYINT\")");
    }
    ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto days, ArgAs(call, 1, arrow::int32()));
    ResolvedCall resolved;
    resolved.args = {date, days};
    resolved.return_type = arrow::date32();
    resolved.nullable = AnyNullable(resolved.args);
    resolved.can_fail = true;
    resolved.kernel = [sign](const std::vector<arrow::Datum>& args, const EvalContext& context,
                             int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return ApplyBinary<arrow::Date32Type, arrow::Int32Type, arrow::Date32Type>(
          args[0], args[1], num_rows, arrow::date32(), context.pool,
          [sign](int32_t date, int32_t days, int32_t* out) {
            const int64_t result = int64_t{date} + sign * int64_t{days};
            if (result > std::numeric_limits<int32_t>::max() ||
                result < std::numeric_limits<int32_t>::min()) {
              return RowOutcome::kError;
            }
            *out = static_cast<int32_t>(result);
            return RowOutcome::kValue;
          },
          [](int64_t) -> arrow::Result<arrow::Datum> { return DateOverflow(); });
    };
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveDateDiff(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_ASSIGN_OR_RAISE(auto end, DateArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto start, DateArg(call, 1));
  ResolvedCall resolved;
  resolved.args = {end, start};
  resolved.return_type = arrow::int32();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ApplyBinary<arrow::Date32Type, arrow::Date32Type, arrow::Int32Type>(
        args[0], args[1], num_rows, arrow::int32(), context.pool,
        [](int32_t a, int32_t b, int32_t* out) {
          *out = a - b;
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return DateOverflow(); });
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveAddMonths(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  const auto months_type = call.args[1]->type()->id();
  if (months_type != Type::INT32 && months_type != Type::INT16 && months_type != Type::INT8 &&
      months_type != Type::NA) {
    return UnexpectedInputType(call, 1, "\"INT\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto months, ArgAs(call, 1, arrow::int32()));
  ResolvedCall resolved;
  resolved.args = {date, months};
  resolved.return_type = arrow::date32();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ApplyBinary<arrow::Date32Type, arrow::Int32Type, arrow::Date32Type>(
        args[0], args[1], num_rows, arrow::date32(), context.pool,
        [](int32_t date, int32_t months, int32_t* out) {
          const int64_t result = AddMonths(date, months);
          if (result > std::numeric_limits<int32_t>::max() ||
              result < std::numeric_limits<int32_t>::min()) {
            return RowOutcome::kError;
          }
          *out = static_cast<int32_t>(result);
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return DateOverflow(); });
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveLastDay(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
  ResolvedCall resolved;
  resolved.args = {date};
  resolved.return_type = arrow::date32();
  resolved.nullable = date->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return MapUnary<arrow::Date32Type, arrow::Date32Type>(
        args[0], num_rows, arrow::date32(), context.pool,
        [](int32_t days, int32_t* out) -> arrow::Result<bool> {
          const CivilDate date = CivilFromDays(days);
          *out = static_cast<int32_t>(
              DaysFromCivil(date.year, date.month, DaysInMonth(date.year, date.month)));
          return true;
        });
  };
  return resolved;
}

// Spark's DateTimeUtils.getDayOfWeekFromString: 1 = Monday .. 7 = Sunday, 0 if unknown.
int DayOfWeekFromString(std::string_view text) {
  std::string upper(text);
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const char* const kNames[][3] = {
      {"MO", "MON", "MONDAY"}, {"TU", "TUE", "TUESDAY"},  {"WE", "WED", "WEDNESDAY"},
      {"TH", "THU", "THURSDAY"}, {"FR", "FRI", "FRIDAY"}, {"SA", "SAT", "SATURDAY"},
      {"SU", "SUN", "SUNDAY"}};
  for (int d = 0; d < 7; ++d) {
    for (const char* name : kNames[d]) {
      if (upper == name) return d + 1;
    }
  }
  return 0;
}

arrow::Result<ResolvedCall> ResolveNextDay(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto date, DateArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto name, ArgAs(call, 1, arrow::utf8()));
  const bool ansi = call.config->ansi_enabled();
  ResolvedCall resolved;
  resolved.args = {date, name};
  resolved.return_type = arrow::date32();
  resolved.can_fail = ansi;
  resolved.kernel = [ansi](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    StringInput names(args[1]);
    int64_t row = 0;
    return MapUnary<arrow::Date32Type, arrow::Date32Type>(
        args[0], num_rows, arrow::date32(), context.pool,
        [&](int32_t days, int32_t* out) -> arrow::Result<bool> {
          const int64_t i = args[1].is_scalar() ? 0 : row;
          ++row;
          if (!names.IsValid(i)) return false;
          const int target = DayOfWeekFromString(names.View(i));
          if (target == 0) {
            if (!ansi) return false;
            return SparkError("ILLEGAL_DAY_OF_WEEK",
                              "Illegal input for day of week: " + std::string(names.View(i)) +
                                  ".");
          }
          const int current = IsoDayOfWeek(days);
          int delta = target - current;
          if (delta <= 0) delta += 7;
          *out = days + delta;
          return true;
        });
  };
  return resolved;
}

// months_between(end, start[, roundOff])
arrow::Result<ResolvedCall> ResolveMonthsBetween(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 3, "[2, 3]"));
  ARROW_ASSIGN_OR_RAISE(auto end, TimestampArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto start, TimestampArg(call, 1));
  bool round_off = true;
  if (call.args.size() == 3) {
    const arrow::Scalar* constant = ConstantArgument(call, 2);
    if (constant == nullptr || constant->type->id() != Type::BOOL) {
      return UnexpectedInputType(call, 2, "\"BOOLEAN\"");
    }
    round_off = !constant->is_valid || static_cast<const arrow::BooleanScalar*>(constant)->value;
  }
  ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
  ResolvedCall resolved;
  resolved.args = {end, start};
  resolved.return_type = arrow::float64();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [zone, round_off](const std::vector<arrow::Datum>& args,
                                      const EvalContext& context,
                                      int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ApplyBinary<arrow::TimestampType, arrow::TimestampType, arrow::DoubleType>(
        args[0], args[1], num_rows, arrow::float64(), context.pool,
        [&](int64_t a, int64_t b, double* out) {
          const int64_t local_a = a + int64_t{zone->OffsetAt(FloorDiv(a, kMicrosPerSecond))} * kMicrosPerSecond;
          const int64_t local_b = b + int64_t{zone->OffsetAt(FloorDiv(b, kMicrosPerSecond))} * kMicrosPerSecond;
          const int64_t days_a = FloorDiv(local_a, kMicrosPerDay);
          const int64_t days_b = FloorDiv(local_b, kMicrosPerDay);
          const CivilDate da = CivilFromDays(days_a), db = CivilFromDays(days_b);
          const int64_t months = (da.year - db.year) * 12 + (da.month - db.month);
          const bool last_a = da.day == DaysInMonth(da.year, da.month);
          const bool last_b = db.day == DaysInMonth(db.year, db.month);
          if (da.day == db.day || (last_a && last_b)) {
            *out = static_cast<double>(months);
            return RowOutcome::kValue;
          }
          const int64_t micros_a = local_a - days_a * kMicrosPerDay;
          const int64_t micros_b = local_b - days_b * kMicrosPerDay;
          const int64_t seconds_in_month = 31 * kSecondsPerDay;
          const double diff =
              static_cast<double>(months) +
              (static_cast<double>((da.day - db.day) * kSecondsPerDay) +
               static_cast<double>(micros_a - micros_b) / kMicrosPerSecond) /
                  static_cast<double>(seconds_in_month);
          *out = round_off ? std::round(diff * 1e8) / 1e8 : diff;
          return RowOutcome::kValue;
        },
        [](int64_t) -> arrow::Result<arrow::Datum> { return DateOverflow(); });
  };
  return resolved;
}

// ---------------------------------------------------------------------------------------------
// Epoch conversions

arrow::Status TimestampOverflow() {
  return SparkError("ARITHMETIC_OVERFLOW",
                    "long overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                    "bypass this error.");
}

// timestamp_seconds / timestamp_millis / timestamp_micros
ScalarResolver EpochToTimestamp(int64_t micros_per_unit) {
  return [micros_per_unit](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    const auto& type = *call.args[0]->type();
    const bool seconds = micros_per_unit == kMicrosPerSecond;
    ResolvedCall resolved;
    resolved.return_type = Timestamp();
    resolved.can_fail = true;
    if (seconds && (arrow::is_floating(type.id()) || type.id() == Type::DECIMAL128)) {
      if (type.id() == Type::DECIMAL128) {
        // Exact: the decimal cast to a timestamp truncates to microseconds.
        ARROW_ASSIGN_OR_RAISE(auto converted, ArgAs(call, 0, Timestamp()));
        resolved.args = {converted};
        resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                             int64_t) -> arrow::Result<arrow::Datum> { return args[0]; };
        return resolved;
      }
      ARROW_ASSIGN_OR_RAISE(auto value, ArgAs(call, 0, arrow::float64()));
      resolved.args = {value};
      resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
        return MapUnary<arrow::DoubleType, arrow::TimestampType>(
            args[0], num_rows, Timestamp(), context.pool,
            [](double value, int64_t* out) -> arrow::Result<bool> {
              if (!std::isfinite(value)) return false;
              const double micros = value * static_cast<double>(kMicrosPerSecond);
              if (!(micros < 9223372036854775807.0 && micros >= -9223372036854775808.0)) {
                return TimestampOverflow();
              }
              *out = static_cast<int64_t>(micros);
              return true;
            });
      };
      return resolved;
    }
    if (!arrow::is_integer(type.id()) && type.id() != Type::NA) {
      return UnexpectedInputType(call, 0, seconds ? "\"NUMERIC\"" : "\"INTEGRAL\"");
    }
    ARROW_ASSIGN_OR_RAISE(auto value, ArgAs(call, 0, arrow::int64()));
    resolved.args = {value};
    resolved.nullable = value->nullable();
    resolved.kernel = [micros_per_unit](const std::vector<arrow::Datum>& args,
                                        const EvalContext& context,
                                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return MapUnary<arrow::Int64Type, arrow::TimestampType>(
          args[0], num_rows, Timestamp(), context.pool,
          [micros_per_unit](int64_t value, int64_t* out) -> arrow::Result<bool> {
            if (__builtin_mul_overflow(value, micros_per_unit, out)) return TimestampOverflow();
            return true;
          });
    };
    return resolved;
  };
}

// unix_seconds / unix_millis / unix_micros
ScalarResolver TimestampToEpoch(int64_t micros_per_unit) {
  return [micros_per_unit](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    if (!IsLtz(*call.args[0]->type()) && call.args[0]->type()->id() != Type::NA) {
      return UnexpectedInputType(call, 0, "\"TIMESTAMP\"");
    }
    ARROW_ASSIGN_OR_RAISE(auto value, ArgAs(call, 0, Timestamp()));
    ResolvedCall resolved;
    resolved.args = {value};
    resolved.return_type = arrow::int64();
    resolved.nullable = value->nullable();
    resolved.kernel = [micros_per_unit](const std::vector<arrow::Datum>& args,
                                        const EvalContext& context,
                                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return MapUnary<arrow::TimestampType, arrow::Int64Type>(
          args[0], num_rows, arrow::int64(), context.pool,
          [micros_per_unit](int64_t micros, int64_t* out) -> arrow::Result<bool> {
            *out = FloorDiv(micros, micros_per_unit);
            return true;
          });
    };
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveUnixDate(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  if (call.args[0]->type()->id() != Type::DATE32 && call.args[0]->type()->id() != Type::NA) {
    return UnexpectedInputType(call, 0, "\"DATE\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto value, ArgAs(call, 0, arrow::date32()));
  ResolvedCall resolved;
  resolved.args = {value};
  resolved.return_type = arrow::int32();
  resolved.nullable = value->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                       int64_t) -> arrow::Result<arrow::Datum> {
    if (args[0].is_scalar()) {
      const auto& scalar = args[0].scalar_as<arrow::Date32Scalar>();
      return arrow::Datum(scalar.is_valid ? arrow::MakeScalar(scalar.value)
                                          : arrow::MakeNullScalar(arrow::int32()));
    }
    auto data = args[0].array()->Copy();
    data->type = arrow::int32();
    return arrow::Datum(data);
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveDateFromUnixDate(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (id != Type::INT32 && id != Type::INT16 && id != Type::INT8 && id != Type::NA) {
    return UnexpectedInputType(call, 0, "\"INT\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto value, ArgAs(call, 0, arrow::int32()));
  ResolvedCall resolved;
  resolved.args = {value};
  resolved.return_type = arrow::date32();
  resolved.nullable = value->nullable();
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                       int64_t) -> arrow::Result<arrow::Datum> {
    if (args[0].is_scalar()) {
      const auto& scalar = args[0].scalar_as<arrow::Int32Scalar>();
      return arrow::Datum(scalar.is_valid
                              ? std::static_pointer_cast<arrow::Scalar>(
                                    std::make_shared<arrow::Date32Scalar>(scalar.value))
                              : arrow::MakeNullScalar(arrow::date32()));
    }
    auto data = args[0].array()->Copy();
    data->type = arrow::date32();
    return arrow::Datum(data);
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveMakeDate(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3, 3, "3"));
  std::vector<BoundExprPtr> args;
  for (size_t i = 0; i < 3; ++i) {
    const auto id = call.args[i]->type()->id();
    if (!arrow::is_integer(id) && id != Type::NA && id != Type::STRING) {
      return UnexpectedInputType(call, i, "\"INT\"");
    }
    ARROW_ASSIGN_OR_RAISE(auto arg, ArgAs(call, i, arrow::int32()));
    args.push_back(arg);
  }
  const bool ansi = call.config->ansi_enabled();
  ResolvedCall resolved;
  resolved.args = args;
  resolved.return_type = arrow::date32();
  resolved.can_fail = ansi;
  resolved.kernel = [ansi](const std::vector<arrow::Datum>& args, const EvalContext& context,
                           int64_t num_rows) -> arrow::Result<arrow::Datum> {
    const bool scalar = args[0].is_scalar() && args[1].is_scalar() && args[2].is_scalar();
    const int64_t rows = scalar ? 1 : num_rows;
    NumericInput<arrow::Int32Type> years(args[0]), months(args[1]), days(args[2]);
    cast_internal::FixedWidthOutput<int32_t> output;
    ARROW_RETURN_NOT_OK(output.Allocate(rows, context.pool));
    for (int64_t i = 0; i < rows; ++i) {
      if (!years.IsValid(i) || !months.IsValid(i) || !days.IsValid(i)) {
        output.SetNull(i);
        continue;
      }
      const int32_t y = years.Value(i), m = months.Value(i), d = days.Value(i);
      std::string problem;
      if (y < -999999999 || y > 999999999) {
        problem = "Invalid value for Year (valid values -999999999 - 999999999): " + std::to_string(y);
      } else if (m < 1 || m > 12) {
        problem = "Invalid value for MonthOfYear (valid values 1 - 12): " + std::to_string(m);
      } else if (d < 1 || d > 31) {
        problem = "Invalid value for DayOfMonth (valid values 1 - 28/31): " + std::to_string(d);
      } else if (d > DaysInMonth(y, m)) {
        static const char* const kMonths[] = {"JANUARY", "FEBRUARY", "MARCH",     "APRIL",
                                              "MAY",     "JUNE",     "JULY",      "AUGUST",
                                              "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"};
        problem = m == 2 && d == 29 ? "Invalid date 'February 29' as '" + std::to_string(y) +
                                          "' is not a leap year"
                                    : "Invalid date '" + std::string(kMonths[m - 1]) + " " +
                                          std::to_string(d) + "'";
      }
      if (!problem.empty()) {
        if (ansi) {
          return SparkError("DATETIME_FIELD_OUT_OF_BOUNDS",
                            problem +
                                ". If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                                "bypass this error.");
        }
        output.SetNull(i);
        continue;
      }
      output.data[i] = static_cast<int32_t>(DaysFromCivil(y, m, d));
    }
    auto array = output.Finish(arrow::date32());
    if (scalar) {
      ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
      return arrow::Datum(std::move(value));
    }
    return arrow::Datum(std::move(array));
  };
  return resolved;
}

// from_utc_timestamp(ts, zone) / to_utc_timestamp(ts, zone)
ScalarResolver ShiftZone(bool from_utc) {
  return [from_utc](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
    ARROW_ASSIGN_OR_RAISE(auto value, TimestampArg(call, 0));
    ARROW_ASSIGN_OR_RAISE(auto zone_arg, ArgAs(call, 1, arrow::utf8()));
    ResolvedCall resolved;
    resolved.args = {value, zone_arg};
    resolved.return_type = Timestamp();
    resolved.kernel = [from_utc](const std::vector<arrow::Datum>& args, const EvalContext& context,
                                 int64_t num_rows) -> arrow::Result<arrow::Datum> {
      StringInput zones(args[1]);
      int64_t row = 0;
      ZonePtr cached;
      std::string cached_name;
      return MapUnary<arrow::TimestampType, arrow::TimestampType>(
          args[0], num_rows, Timestamp(), context.pool,
          [&](int64_t micros, int64_t* out) -> arrow::Result<bool> {
            const int64_t i = args[1].is_scalar() ? 0 : row;
            ++row;
            if (!zones.IsValid(i)) return false;
            if (!cached || cached_name != zones.View(i)) {
              cached_name = std::string(zones.View(i));
              auto found = TimeZone::Find(cached_name);
              if (!found.ok()) {
                return SparkError("INVALID_TIMEZONE",
                                  "The timezone: " + cached_name +
                                      " is invalid. The timezone must be either a region-based "
                                      "zone ID or a zone offset. Region IDs must have the form "
                                      "'area/city', such as 'America/Los_Angeles'. Zone offsets "
                                      "must be in the format '(+|-)HH', '(+|-)HH:mm' or "
                                      "'(+|-)HH:mm:ss', e.g '-08', '+01:00' or '-13:33:33', and "
                                      "must be in the range from -18:00 to +18:00. 'Z' and 'UTC' "
                                      "are accepted as synonyms for '+00:00'.");
              }
              cached = *found;
            }
            const int64_t seconds = FloorDiv(micros, kMicrosPerSecond);
            const int64_t fraction = micros - seconds * kMicrosPerSecond;
            if (from_utc) {
              *out = micros + int64_t{cached->OffsetAt(seconds)} * kMicrosPerSecond;
            } else {
              *out = cached->LocalToUtc(seconds) * kMicrosPerSecond + fraction;
            }
            return true;
          });
    };
    return resolved;
  };
}

// current_timestamp() / now() / current_date() / localtimestamp()
ScalarResolver CurrentTime(Type::type result) {
  return [result](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 0, 0, "0"));
    ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
    ResolvedCall resolved;
    resolved.nullable = false;
    resolved.return_type = result == Type::DATE32 ? arrow::date32()
                           : result == Type::TIMESTAMP ? Timestamp()
                                                       : types::TimestampNtzType();
    const auto type = resolved.return_type;
    resolved.kernel = [zone, result, type](const std::vector<arrow::Datum>&,
                                           const EvalContext& context,
                                           int64_t) -> arrow::Result<arrow::Datum> {
      const int64_t now = context.batch_timestamp_us;
      const int64_t local =
          now + int64_t{zone->OffsetAt(FloorDiv(now, kMicrosPerSecond))} * kMicrosPerSecond;
      if (result == Type::DATE32) {
        return arrow::Datum(std::make_shared<arrow::Date32Scalar>(
            static_cast<int32_t>(FloorDiv(local, kMicrosPerDay))));
      }
      return arrow::Datum(
          std::make_shared<arrow::TimestampScalar>(result == Type::TIMESTAMP ? now : local, type));
    };
    return resolved;
  };
}

}  // namespace

void RegisterDatetimeArithmeticFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("date_trunc", ResolveDateTrunc);
  registry.RegisterScalar("trunc", ResolveTrunc);
  registry.RegisterScalar("date_add", DateAddFunction(1));
  registry.RegisterScalar("dateadd", DateAddFunction(1));
  registry.RegisterScalar("date_sub", DateAddFunction(-1));
  registry.RegisterScalar("datediff", ResolveDateDiff);
  registry.RegisterScalar("date_diff", ResolveDateDiff);
  registry.RegisterScalar("add_months", ResolveAddMonths);
  registry.RegisterScalar("last_day", ResolveLastDay);
  registry.RegisterScalar("next_day", ResolveNextDay);
  registry.RegisterScalar("months_between", ResolveMonthsBetween);
  registry.RegisterScalar("timestamp_seconds", EpochToTimestamp(kMicrosPerSecond));
  registry.RegisterScalar("timestamp_millis", EpochToTimestamp(1000));
  registry.RegisterScalar("timestamp_micros", EpochToTimestamp(1));
  registry.RegisterScalar("unix_seconds", TimestampToEpoch(kMicrosPerSecond));
  registry.RegisterScalar("unix_millis", TimestampToEpoch(1000));
  registry.RegisterScalar("unix_micros", TimestampToEpoch(1));
  registry.RegisterScalar("unix_date", ResolveUnixDate);
  registry.RegisterScalar("date_from_unix_date", ResolveDateFromUnixDate);
  registry.RegisterScalar("make_date", ResolveMakeDate);
  registry.RegisterScalar("from_utc_timestamp", ShiftZone(true));
  registry.RegisterScalar("to_utc_timestamp", ShiftZone(false));
  registry.RegisterScalar("current_timestamp", CurrentTime(Type::TIMESTAMP));
  registry.RegisterScalar("now", CurrentTime(Type::TIMESTAMP));
  registry.RegisterScalar("current_date", CurrentTime(Type::DATE32));
  registry.RegisterScalar("curdate", CurrentTime(Type::DATE32));
  registry.RegisterScalar("localtimestamp", CurrentTime(Type::NA));
}

}  // namespace sluice::expr::datetime_functions
