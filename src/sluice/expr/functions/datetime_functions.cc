// Spark's date and time functions: field extraction, formatting and parsing with datetime
// patterns, truncation, date arithmetic and conversions to and from epoch numbers, all in the
// session time zone.
#include <cmath>
#include <limits>
#include <optional>

#include <arrow/array/builder_binary.h>
#include <arrow/array/util.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/pattern.h"
#include "sluice/datetime/zone.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/cast_internal.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

using namespace datetime;  // NOLINT: the calendar vocabulary of this file
using Type = arrow::Type;
using ZonePtr = std::shared_ptr<const TimeZone>;

constexpr std::string_view kDefaultPattern = "yyyy-MM-dd HH:mm:ss";

std::shared_ptr<arrow::DataType> Timestamp() { return types::TimestampLtzType(); }

bool IsLtz(const arrow::DataType& type) {
  return type.id() == Type::TIMESTAMP &&
         !static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

arrow::Result<BoundExprPtr> ArgAs(const CallSite& call, size_t index,
                                  const std::shared_ptr<arrow::DataType>& type) {
  return MakeCast(call.args[index], type, CastKind::kImplicit, *call.config);
}

arrow::Result<ZonePtr> SessionZone(const CallSite& call) {
  return TimeZone::Find(call.config->session_time_zone());
}

// Requires argument `index` to be one of the types a date function takes (date, timestamps,
// string, null) and returns it cast to a date.
arrow::Result<BoundExprPtr> DateArg(const CallSite& call, size_t index) {
  const auto& type = *call.args[index]->type();
  if (type.id() != Type::DATE32 && type.id() != Type::TIMESTAMP && type.id() != Type::STRING &&
      type.id() != Type::NA) {
    return UnexpectedInputType(call, index, "\"DATE\"");
  }
  return ArgAs(call, index, arrow::date32());
}

// Argument `index` as a timestamp (ltz), from a date, string or timestamp_ntz.
arrow::Result<BoundExprPtr> TimestampArg(const CallSite& call, size_t index) {
  const auto& type = *call.args[index]->type();
  if (type.id() != Type::DATE32 && type.id() != Type::TIMESTAMP && type.id() != Type::STRING &&
      type.id() != Type::NA) {
    return UnexpectedInputType(call, index, "\"TIMESTAMP\"");
  }
  return ArgAs(call, index, Timestamp());
}

// Applies `fn(in, &out) -> bool` (false: null) to every non-null value of a fixed-width input.
template <typename InT, typename OutT, typename Fn>
arrow::Result<arrow::Datum> MapUnary(const arrow::Datum& input, int64_t num_rows,
                                     const std::shared_ptr<arrow::DataType>& out_type,
                                     arrow::MemoryPool* pool, Fn&& fn) {
  using OutC = typename arrow::TypeTraits<OutT>::CType;
  const bool scalar = input.is_scalar();
  const int64_t rows = scalar ? 1 : num_rows;
  NumericInput<InT> in(input);
  cast_internal::FixedWidthOutput<OutC> output;
  ARROW_RETURN_NOT_OK(output.Allocate(rows, pool));
  for (int64_t i = 0; i < rows; ++i) {
    if (!in.IsValid(i)) {
      output.SetNull(i);
      continue;
    }
    OutC value{};
    ARROW_ASSIGN_OR_RAISE(bool valid, fn(in.Value(i), &value));
    if (valid) {
      output.data[i] = value;
    } else {
      output.SetNull(i);
    }
  }
  auto array = output.Finish(out_type);
  if (scalar) {
    ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
    return arrow::Datum(std::move(value));
  }
  return arrow::Datum(std::move(array));
}

// Reads a string argument that is an array or a scalar.
class StringInput {
 public:
  explicit StringInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      const auto& scalar = *datum.scalar();
      valid_ = scalar.is_valid;
      if (valid_) value_ = static_cast<const arrow::StringScalar&>(scalar).view();
    } else {
      array_ = std::static_pointer_cast<arrow::StringArray>(datum.make_array());
    }
  }
  bool IsValid(int64_t i) const { return array_ ? array_->IsValid(i) : valid_; }
  std::string_view Value(int64_t i) const { return array_ ? array_->GetView(i) : value_; }

 private:
  std::shared_ptr<arrow::StringArray> array_;
  bool valid_ = false;
  std::string_view value_;
};

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
    std::string_view text = strings_->Value(i);
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
  PatternSource source(std::move(constant), patterns);
  arrow::StringBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(rows));
  ZoneOffsetCursor cursor(zone);
  std::string text;
  for (int64_t i = 0; i < rows; ++i) {
    ARROW_ASSIGN_OR_RAISE(const DateTimePattern* pattern, source.At(i));
    if (!in.IsValid(i) || pattern == nullptr) {
      ARROW_RETURN_NOT_OK(builder.AppendNull());
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
    text.clear();
    pattern->Format(local, facts, &text);
    ARROW_RETURN_NOT_OK(builder.Append(text));
  }
  ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
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
    if (!pattern->Parse(in.Value(i), &parsed, &error)) {
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

arrow::Status RequireStringPattern(const CallSite& call, size_t index) {
  const auto id = call.args[index]->type()->id();
  if (id != Type::STRING && id != Type::NA) return UnexpectedInputType(call, index, "\"STRING\"");
  return arrow::Status::OK();
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
          const TruncLevel level = ParseTruncLevel(units.Value(i), false);
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
                                 ? ParseTruncLevel(units.Value(0), true)
                                 : TruncLevel::kInvalid;
    int64_t row = 0;
    return MapUnary<arrow::Date32Type, arrow::Date32Type>(
        args[0], num_rows, arrow::date32(), context.pool,
        [&](int32_t days, int32_t* out) -> arrow::Result<bool> {
          const int64_t i = row++;
          TruncLevel level = fixed;
          if (!scalar_unit) {
            if (!units.IsValid(i)) return false;
            level = ParseTruncLevel(units.Value(i), true);
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

int64_t AddMonths(int64_t days, int64_t months) {
  const CivilDate date = CivilFromDays(days);
  const int64_t total = date.year * 12 + (date.month - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  const int32_t month = static_cast<int32_t>(FloorMod(total, 12)) + 1;
  const int32_t day = std::min(date.day, DaysInMonth(year, month));
  return DaysFromCivil(year, month, day);
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
          const int target = DayOfWeekFromString(names.Value(i));
          if (target == 0) {
            if (!ansi) return false;
            return SparkError("ILLEGAL_DAY_OF_WEEK",
                              "Illegal input for day of week: " + std::string(names.Value(i)) +
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
            if (!cached || cached_name != zones.Value(i)) {
              cached_name = std::string(zones.Value(i));
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

}  // namespace sluice::expr
