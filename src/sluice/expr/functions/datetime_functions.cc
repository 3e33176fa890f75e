// Spark's date and time functions: field extraction and formatting and parsing with datetime
// patterns, in the session time zone. Truncation, date arithmetic and epoch conversions are in
// datetime_arithmetic_functions.cc.
#include "sluice/expr/functions/datetime_function_support.h"

#include <optional>

namespace sluice::expr {

namespace {

using namespace datetime_functions;  // NOLINT: the shared vocabulary of the date functions

// ---------------------------------------------------------------------------------------------
// Field extraction

enum class DateField { kYear, kMonth, kDay, kDayOfWeek, kWeekday, kDayOfYear, kWeekOfYear, kQuarter };

int32_t ExtractDateField(DateField field, int64_t days) {
  switch (field) {
    case DateField::kYear: return static_cast<int32_t>(CivilFromDays(days).year);
    case DateField::kMonth: return CivilFromDays(days).month;
    case DateField::kDay: return CivilFromDays(days).day;
    case DateField::kDayOfWeek: return IsoDayOfWeek(days) % 7 + 1;
    case DateField::kWeekday: return IsoDayOfWeek(days) - 1;
    case DateField::kDayOfYear: return DayOfYear(days);
    case DateField::kWeekOfYear: return IsoWeekOfYear(days);
    case DateField::kQuarter: return (CivilFromDays(days).month - 1) / 3 + 1;
  }
  return 0;
}

ScalarResolver DateFieldFunction(DateField field) {
  return [field](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(auto arg, DateArg(call, 0));
    resolved.args = {arg};
    resolved.return_type = arrow::int32();
    resolved.nullable = arg->nullable();
    resolved.kernel = [field](const std::vector<arrow::Datum>& args, const EvalContext& context,
                              int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return MapUnary<arrow::Date32Type, arrow::Int32Type>(
          args[0], num_rows, arrow::int32(), context.pool,
          [field](int32_t days, int32_t* out) -> arrow::Result<bool> {
            *out = ExtractDateField(field, days);
            return true;
          });
    };
    return resolved;
  };
}

enum class TimeField { kHour, kMinute, kSecond };

ScalarResolver TimeFieldFunction(TimeField field) {
  return [field](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    ResolvedCall resolved;
    BoundExprPtr arg = call.args[0];
    if (!(arg->type()->id() == Type::TIMESTAMP)) {
      ARROW_ASSIGN_OR_RAISE(arg, TimestampArg(call, 0));
    }
    ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
    const bool ltz = IsLtz(*arg->type());
    resolved.args = {arg};
    resolved.return_type = arrow::int32();
    resolved.nullable = arg->nullable();
    resolved.kernel = [field, zone, ltz](const std::vector<arrow::Datum>& args,
                                         const EvalContext& context,
                                         int64_t num_rows) -> arrow::Result<arrow::Datum> {
      ZoneOffsetCursor cursor(*zone);
      return MapUnary<arrow::TimestampType, arrow::Int32Type>(
          args[0], num_rows, arrow::int32(), context.pool,
          [&](int64_t micros, int32_t* out) -> arrow::Result<bool> {
            const int64_t local =
                ltz ? micros + int64_t{cursor.OffsetAtMicros(micros)} * kMicrosPerSecond : micros;
            const int64_t seconds = FloorMod(FloorDiv(local, kMicrosPerSecond), kSecondsPerDay);
            *out = static_cast<int32_t>(field == TimeField::kHour     ? seconds / 3600
                                        : field == TimeField::kMinute ? seconds / 60 % 60
                                                                      : seconds % 60);
            return true;
          });
    };
    return resolved;
  };
}

// ---------------------------------------------------------------------------------------------
// Patterns

// The pattern of argument `index`: compiled once when it is a literal, else nullptr (compiled per
// distinct value at run time).
arrow::Result<std::shared_ptr<const DateTimePattern>> ConstantPattern(const CallSite& call,
                                                                     size_t index) {
  if (index >= call.args.size()) {
    ARROW_ASSIGN_OR_RAISE(auto pattern, DateTimePattern::Compile(kDefaultPattern));
    return std::make_shared<const DateTimePattern>(std::move(pattern));
  }
  const arrow::Scalar* constant = ConstantArgument(call, index);
  if (constant == nullptr || !constant->is_valid || constant->type->id() != Type::STRING) {
    return nullptr;
  }
  ARROW_ASSIGN_OR_RAISE(
      auto pattern,
      DateTimePattern::Compile(static_cast<const arrow::StringScalar*>(constant)->view()));
  return std::make_shared<const DateTimePattern>(std::move(pattern));
}

// Yields the pattern for row i: the constant one, or the row's own (cached while it repeats).
class PatternSource {
 public:
  PatternSource(std::shared_ptr<const DateTimePattern> constant, const arrow::Datum* column)
      : constant_(std::move(constant)) {
    if (!constant_ && column != nullptr) strings_.emplace(*column);
  }
  // nullptr when the row's pattern is null.
  arrow::Result<const DateTimePattern*> At(int64_t i) {
    if (constant_) return constant_.get();
    if (!strings_ || !strings_->IsValid(i)) return nullptr;
    std::string_view text = strings_->View(i);
    if (!cached_ || cached_->pattern() != text) {
      ARROW_ASSIGN_OR_RAISE(auto pattern, DateTimePattern::Compile(text));
      cached_ = std::make_shared<DateTimePattern>(std::move(pattern));
    }
    return cached_.get();
  }

 private:
  std::shared_ptr<const DateTimePattern> constant_;
  std::optional<StringInput> strings_;
  std::shared_ptr<DateTimePattern> cached_;
};

arrow::Status CannotParse(const std::string& message) {
  return SparkError("CANNOT_PARSE_TIMESTAMP",
                    message +
                        ". Use `try_to_timestamp` to tolerate invalid input string and return "
                        "NULL instead.");
}

// Formats instants (microseconds, UTC) or wall-clock values with a pattern, in `zone`.
arrow::Result<arrow::Datum> FormatColumn(const arrow::Datum& values, const arrow::Datum* patterns,
                                         std::shared_ptr<const DateTimePattern> constant,
                                         const TimeZone& zone, bool ltz, int64_t num_rows,
                                         arrow::MemoryPool* pool) {
  const bool scalar = values.is_scalar() && (patterns == nullptr || patterns->is_scalar());
  const int64_t rows = scalar ? 1 : num_rows;
  NumericInput<arrow::TimestampType> in(values);
  // With a constant pattern without zone facts, a row in the same unit of wall-clock time
  // (DateTimePattern::unit_micros: the same day, for a date) as the row before prints the same
  // text, which is kept: event times come in order, so most rows are such.
  const int64_t unit_micros =
      constant != nullptr && !constant->uses_zone() ? constant->unit_micros() : 1;
  PatternSource source(std::move(constant), patterns);
  // Room for ten bytes a row (a date) to start with; StringOutput copies the short texts
  // without a call to memcpy (q17's date_format was a seventh of its aggregation's thread).
  StringOutput out(rows, rows * 10, pool);
  ZoneOffsetCursor cursor(zone);
  std::string text;
  std::optional<int64_t> text_unit;  // the unit `text` was formatted for
  for (int64_t i = 0; i < rows; ++i) {
    ARROW_ASSIGN_OR_RAISE(const DateTimePattern* pattern, source.At(i));
    if (!in.IsValid(i) || pattern == nullptr) {
      out.AppendNullRow();
      continue;
    }
    const int64_t micros = in.Value(i);
    ZoneFacts facts;
    facts.id = zone.id();
    int64_t local = micros;
    if (ltz) {
      facts.offset_seconds = cursor.OffsetAtMicros(micros);
      local = micros + int64_t{facts.offset_seconds} * kMicrosPerSecond;
      if (pattern->uses_zone()) facts.abbreviation = zone.AbbreviationAt(FloorDiv(micros, kMicrosPerSecond));
    }
    const int64_t unit = FloorDiv(local, unit_micros);
    if (unit_micros == 1 || unit != text_unit) {
      text.clear();
      pattern->Format(local, facts, &text);
      text_unit = unit;
    }
    out.AppendRow(text);
  }
  ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
  auto array = arrow::MakeArray(std::move(data));
  if (scalar) {
    ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
    return arrow::Datum(std::move(value));
  }
  return arrow::Datum(std::move(array));
}

// What a parse with a pattern produces.
enum class ParseResult { kTimestamp, kDate, kUnixSeconds };

// Parses strings with a pattern into instants in `zone` (or the zone the text names).
arrow::Result<arrow::Datum> ParseColumn(const arrow::Datum& values, const arrow::Datum* patterns,
                                        std::shared_ptr<const DateTimePattern> constant,
                                        const TimeZone& zone, ParseResult result,
                                        bool fail_on_error, int64_t num_rows,
                                        arrow::MemoryPool* pool) {
  const bool scalar = values.is_scalar() && (patterns == nullptr || patterns->is_scalar());
  const int64_t rows = scalar ? 1 : num_rows;
  StringInput in(values);
  PatternSource source(std::move(constant), patterns);
  std::shared_ptr<arrow::DataType> type = result == ParseResult::kTimestamp ? Timestamp()
                                          : result == ParseResult::kDate    ? arrow::date32()
                                                                            : arrow::int64();
  cast_internal::FixedWidthOutput<int64_t> wide;
  ARROW_RETURN_NOT_OK(wide.Allocate(rows, pool));
  ParsedDateTime parsed;
  std::string error;
  for (int64_t i = 0; i < rows; ++i) {
    ARROW_ASSIGN_OR_RAISE(const DateTimePattern* pattern, source.At(i));
    if (!in.IsValid(i) || pattern == nullptr) {
      wide.SetNull(i);
      continue;
    }
    if (!pattern->Parse(in.View(i), &parsed, &error)) {
      if (fail_on_error) return CannotParse(error);
      wide.SetNull(i);
      continue;
    }
    const int64_t local_seconds = FloorDiv(parsed.local_micros, kMicrosPerSecond);
    const int64_t fraction = parsed.local_micros - local_seconds * kMicrosPerSecond;
    int64_t utc_seconds;
    if (parsed.has_offset) {
      utc_seconds = local_seconds - parsed.offset_seconds;
    } else if (parsed.zone) {
      utc_seconds = parsed.zone->LocalToUtc(local_seconds);
    } else {
      utc_seconds = zone.LocalToUtc(local_seconds);
    }
    switch (result) {
      case ParseResult::kTimestamp:
        wide.data[i] = utc_seconds * kMicrosPerSecond + fraction;
        break;
      case ParseResult::kUnixSeconds:
        wide.data[i] = utc_seconds;
        break;
      case ParseResult::kDate:
        wide.data[i] = FloorDiv(utc_seconds + zone.OffsetAt(utc_seconds), kSecondsPerDay);
        break;
    }
  }
  std::shared_ptr<arrow::Array> array = wide.Finish(
      result == ParseResult::kDate ? std::static_pointer_cast<arrow::DataType>(arrow::int64())
                                   : type);
  if (result == ParseResult::kDate) {
    cast_internal::FixedWidthOutput<int32_t> narrow;
    ARROW_RETURN_NOT_OK(narrow.Allocate(rows, pool));
    const int64_t* data = wide.data;
    for (int64_t i = 0; i < rows; ++i) {
      if (array->IsNull(i)) {
        narrow.SetNull(i);
      } else {
        narrow.data[i] = static_cast<int32_t>(data[i]);
      }
    }
    array = narrow.Finish(type);
  }
  if (scalar) {
    ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
    return arrow::Datum(std::move(value));
  }
  return arrow::Datum(std::move(array));
}


arrow::Result<ResolvedCall> ResolveDateFormat(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto value, TimestampArg(call, 0));
  ARROW_ASSIGN_OR_RAISE(auto pattern_arg, ArgAs(call, 1, arrow::utf8()));
  ARROW_ASSIGN_OR_RAISE(auto constant, ConstantPattern(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
  ResolvedCall resolved;
  resolved.args = {value, pattern_arg};
  resolved.return_type = arrow::utf8();
  resolved.kernel = [constant, zone](const std::vector<arrow::Datum>& args,
                                     const EvalContext& context,
                                     int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return FormatColumn(args[0], &args[1], constant, *zone, true, num_rows, context.pool);
  };
  return resolved;
}

// from_unixtime(seconds[, pattern])
arrow::Result<ResolvedCall> ResolveFromUnixtime(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "[1, 2]"));
  if (call.args.size() == 2) ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
  const auto& type = *call.args[0]->type();
  if (!arrow::is_integer(type.id()) && type.id() != Type::NA && type.id() != Type::STRING &&
      !arrow::is_floating(type.id()) && type.id() != Type::DECIMAL128) {
    return UnexpectedInputType(call, 0, "\"BIGINT\"");
  }
  ARROW_ASSIGN_OR_RAISE(auto seconds, ArgAs(call, 0, arrow::int64()));
  ARROW_ASSIGN_OR_RAISE(auto constant, ConstantPattern(call, 1));
  ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
  ResolvedCall resolved;
  resolved.args = {seconds};
  if (call.args.size() == 2) {
    ARROW_ASSIGN_OR_RAISE(auto pattern_arg, ArgAs(call, 1, arrow::utf8()));
    resolved.args.push_back(pattern_arg);
  }
  resolved.return_type = arrow::utf8();
  resolved.kernel = [constant, zone](const std::vector<arrow::Datum>& args,
                                     const EvalContext& context,
                                     int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(
        auto micros,
        (MapUnary<arrow::Int64Type, arrow::TimestampType>(
            args[0], num_rows, Timestamp(), context.pool,
            [](int64_t seconds, int64_t* out) -> arrow::Result<bool> {
              if (seconds > std::numeric_limits<int64_t>::max() / kMicrosPerSecond ||
                  seconds < std::numeric_limits<int64_t>::min() / kMicrosPerSecond) {
                return false;
              }
              *out = seconds * kMicrosPerSecond;
              return true;
            })));
    return FormatColumn(micros, args.size() > 1 ? &args[1] : nullptr, constant, *zone, true,
                        num_rows, context.pool);
  };
  return resolved;
}

// to_timestamp / to_date / unix_timestamp / to_unix_timestamp and their try_ forms.
ScalarResolver ParseFunction(ParseResult result, bool is_try) {
  return [result, is_try](CallSite call) -> arrow::Result<ResolvedCall> {
    const size_t min_args = result == ParseResult::kUnixSeconds && call.name == "unix_timestamp" ? 0 : 1;
    ARROW_RETURN_NOT_OK(CheckArgCount(call, min_args, 2, min_args == 0 ? "[0, 1, 2]" : "[1, 2]"));
    const bool fail_on_error = call.config->ansi_enabled() && !is_try;
    ResolvedCall resolved;
    resolved.can_fail = fail_on_error;
    ARROW_ASSIGN_OR_RAISE(auto zone, SessionZone(call));
    if (call.args.empty()) {
      // unix_timestamp(): the query's current time.
      resolved.return_type = arrow::int64();
      resolved.nullable = false;
      resolved.can_fail = false;
      resolved.kernel = [](const std::vector<arrow::Datum>&, const EvalContext& context,
                           int64_t) -> arrow::Result<arrow::Datum> {
        return arrow::Datum(std::make_shared<arrow::Int64Scalar>(
            FloorDiv(context.batch_timestamp_us, kMicrosPerSecond)));
      };
      return resolved;
    }
    if (call.args.size() == 2) ARROW_RETURN_NOT_OK(RequireStringPattern(call, 1));
    const auto& input_type = *call.args[0]->type();
    const auto target = result == ParseResult::kDate ? arrow::date32() : Timestamp();
    const bool is_string = input_type.id() == Type::STRING;
    const bool uses_pattern = is_string && (call.args.size() == 2 ||
                                            result == ParseResult::kUnixSeconds);
    if (!uses_pattern) {
      // Without a pattern (or from dates and timestamps): a cast, failing as casts do.
      if (input_type.id() != Type::STRING && input_type.id() != Type::DATE32 &&
          input_type.id() != Type::TIMESTAMP && input_type.id() != Type::NA) {
        return UnexpectedInputType(call, 0, "(\"STRING\" or \"DATE\" or \"TIMESTAMP\")");
      }
      // unix_timestamp reads a timestamp_ntz as if it were in UTC, as Spark does.
      const bool keep_ntz = result == ParseResult::kUnixSeconds &&
                            input_type.id() == Type::TIMESTAMP && !IsLtz(input_type);
      BoundExprPtr converted = call.args[0];
      if (!keep_ntz) {
        ARROW_ASSIGN_OR_RAISE(
            converted, MakeCast(call.args[0], target,
                                is_try ? CastKind::kTry : CastKind::kImplicit, *call.config));
      }
      resolved.args = {converted};
      if (call.args.size() == 2) resolved.args.push_back(call.args[1]);
      resolved.return_type = result == ParseResult::kUnixSeconds ? arrow::int64() : target;
      resolved.nullable = true;
      resolved.can_fail = converted->can_fail();
      if (result == ParseResult::kUnixSeconds) {
        resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext& context,
                             int64_t num_rows) -> arrow::Result<arrow::Datum> {
          return MapUnary<arrow::TimestampType, arrow::Int64Type>(
              args[0], num_rows, arrow::int64(), context.pool,
              [](int64_t micros, int64_t* out) -> arrow::Result<bool> {
                // Spark divides with truncation here (unlike CAST AS BIGINT, which floors).
                *out = micros / kMicrosPerSecond;
                return true;
              });
        };
      } else {
        resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                             int64_t) -> arrow::Result<arrow::Datum> { return args[0]; };
      }
      return resolved;
    }
    ARROW_ASSIGN_OR_RAISE(auto constant, ConstantPattern(call, 1));
    resolved.args = {call.args[0]};
    if (call.args.size() == 2) {
      ARROW_ASSIGN_OR_RAISE(auto pattern_arg, ArgAs(call, 1, arrow::utf8()));
      resolved.args.push_back(pattern_arg);
    }
    resolved.return_type = result == ParseResult::kUnixSeconds ? arrow::int64() : target;
    resolved.kernel = [constant, zone, result, fail_on_error](
                          const std::vector<arrow::Datum>& args, const EvalContext& context,
                          int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return ParseColumn(args[0], args.size() > 1 ? &args[1] : nullptr, constant, *zone, result,
                         fail_on_error, num_rows, context.pool);
    };
    return resolved;
  };
}

}  // namespace

void RegisterDatetimeFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("year", DateFieldFunction(DateField::kYear));
  registry.RegisterScalar("month", DateFieldFunction(DateField::kMonth));
  registry.RegisterScalar("dayofmonth", DateFieldFunction(DateField::kDay));
  registry.RegisterScalar("day", DateFieldFunction(DateField::kDay));
  registry.RegisterScalar("dayofweek", DateFieldFunction(DateField::kDayOfWeek));
  registry.RegisterScalar("weekday", DateFieldFunction(DateField::kWeekday));
  registry.RegisterScalar("dayofyear", DateFieldFunction(DateField::kDayOfYear));
  registry.RegisterScalar("weekofyear", DateFieldFunction(DateField::kWeekOfYear));
  registry.RegisterScalar("quarter", DateFieldFunction(DateField::kQuarter));
  registry.RegisterScalar("hour", TimeFieldFunction(TimeField::kHour));
  registry.RegisterScalar("minute", TimeFieldFunction(TimeField::kMinute));
  registry.RegisterScalar("second", TimeFieldFunction(TimeField::kSecond));
  registry.RegisterScalar("date_format", ResolveDateFormat);
  registry.RegisterScalar("from_unixtime", ResolveFromUnixtime);
  registry.RegisterScalar("to_timestamp", ParseFunction(ParseResult::kTimestamp, false));
  registry.RegisterScalar("try_to_timestamp", ParseFunction(ParseResult::kTimestamp, true));
  registry.RegisterScalar("to_date", ParseFunction(ParseResult::kDate, false));
  registry.RegisterScalar("unix_timestamp", ParseFunction(ParseResult::kUnixSeconds, false));
  registry.RegisterScalar("to_unix_timestamp", ParseFunction(ParseResult::kUnixSeconds, false));
  datetime_functions::RegisterDatetimeArithmeticFunctions(registry);
}

}  // namespace sluice::expr
