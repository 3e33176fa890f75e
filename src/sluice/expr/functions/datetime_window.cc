// Spark's time windows: window(time, windowDuration[, slideDuration[, startTime]]) and
// window_time(window). Spark does not evaluate window() as a scalar: its analyzer expands every
// row into the windows containing its time (TimeWindowing). The API layer does the same by
// exploding `__time_windows(...)`, the internal function defined here, below the projection or
// aggregation that uses the window (api/time_window_rewrite.cc). Session windows likewise:
// `__session_window(time, gap)` is each row's own session, which the API layer projects below
// the operator using session_window(...) (api/session_window_rewrite.cc).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/array/array_nested.h>
#include <arrow/util/bitmap_ops.h>

#include "sluice/expr/functions/datetime_function_support.h"
#include "sluice/expr/time_windows.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::expr {

namespace {

using namespace datetime_functions;  // NOLINT: the shared vocabulary of the date functions

// The fields of an interval text, as Spark's CalendarInterval keeps them: window durations
// refuse months and count a day as 24 hours; a session gap adds each field in turn.
struct IntervalParts {
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
};

arrow::Status CannotParseInterval(std::string_view text) {
  return SparkError("CANNOT_PARSE_INTERVAL",
                    "Unable to parse '" + std::string(text) +
                        "'. Please ensure that the value provided is in a valid format for "
                        "defining an interval. You can reference the documentation for the "
                        "correct format. If the issue persists, please double check that the "
                        "input value is not null or empty and try again.");
}

// Spark's IntervalUtils.stringToInterval for the "<number> <unit> ..." form: an optional
// `interval` keyword, then signed numbers each followed by a unit (singular or plural);
// seconds may have a fraction. Anything else is CANNOT_PARSE_INTERVAL.
arrow::Result<IntervalParts> ParseInterval(std::string_view text) {
  auto invalid = [&] { return CannotParseInterval(text); };
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  size_t i = !words.empty() && words[0] == "interval" ? 1 : 0;
  if (i >= words.size() || (words.size() - i) % 2 != 0) return invalid();
  IntervalParts parts;
  for (; i < words.size(); i += 2) {
    std::string unit = words[i + 1];
    if (unit.size() > 1 && unit.back() == 's') unit.pop_back();
    const std::string& number = words[i];
    const bool fraction_allowed = unit == "second";
    size_t pos = number[0] == '-' || number[0] == '+' ? 1 : 0;
    const bool negative = number[0] == '-';
    int64_t whole = 0;
    int64_t fraction_micros = 0;
    size_t digits = 0;
    for (; pos < number.size() && std::isdigit(static_cast<unsigned char>(number[pos])); ++pos) {
      if (__builtin_mul_overflow(whole, 10, &whole) ||
          __builtin_add_overflow(whole, number[pos] - '0', &whole)) {
        return invalid();
      }
      ++digits;
    }
    if (pos < number.size() && number[pos] == '.' && fraction_allowed) {
      int64_t scale = 100'000;
      for (++pos; pos < number.size() && std::isdigit(static_cast<unsigned char>(number[pos]));
           ++pos, ++digits) {
        if (scale == 0) return invalid();  // more than microsecond precision
        fraction_micros += (number[pos] - '0') * scale;
        scale /= 10;
      }
    }
    if (digits == 0 || pos != number.size()) return invalid();
    if (negative) {
      whole = -whole;
      fraction_micros = -fraction_micros;
    }
    int64_t unit_micros = 0;
    if (unit == "year") {
      parts.months += whole * 12;
      continue;
    } else if (unit == "month") {
      parts.months += whole;
      continue;
    } else if (unit == "week" || unit == "day") {
      if (__builtin_mul_overflow(whole, unit == "week" ? 7 : 1, &whole) ||
          __builtin_add_overflow(parts.days, whole, &parts.days)) {
        return invalid();
      }
      continue;
    } else if (unit == "hour") {
      unit_micros = int64_t{3600} * kMicrosPerSecond;
    } else if (unit == "minute") {
      unit_micros = 60 * kMicrosPerSecond;
    } else if (unit == "second") {
      unit_micros = kMicrosPerSecond;
    } else if (unit == "millisecond") {
      unit_micros = 1000;
    } else if (unit == "microsecond") {
      unit_micros = 1;
    } else {
      return invalid();
    }
    int64_t micros = 0;
    if (__builtin_mul_overflow(whole, unit_micros, &micros) ||
        __builtin_add_overflow(parts.micros, micros + fraction_micros, &parts.micros)) {
      return invalid();
    }
  }
  return parts;
}

// A duration argument of window(): an integer or long literal (microseconds) or an interval
// string literal, as Spark's TimeWindow.parseExpression accepts.
arrow::Result<int64_t> DurationArgument(const CallSite& call, size_t index) {
  const arrow::Scalar* value = ConstantArgument(call, index);
  const auto id = call.args[index]->type()->id();
  if (value == nullptr || !value->is_valid ||
      (id != Type::STRING && id != Type::INT32 && id != Type::INT64)) {
    return SparkError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                      "The duration and time inputs to window must be an integer, long or "
                      "string literal: " + call.args[index]->sql() + " in " + CallSql(call) +
                          ".");
  }
  if (id == Type::INT32) return int64_t{static_cast<const arrow::Int32Scalar&>(*value).value};
  if (id == Type::INT64) return static_cast<const arrow::Int64Scalar&>(*value).value;
  const std::string text = static_cast<const arrow::StringScalar&>(*value).ToString();
  ARROW_ASSIGN_OR_RAISE(auto parts, ParseInterval(text));
  // Spark's TimeWindow.getIntervalInMicroSeconds refuses calendar months.
  if (parts.months != 0) {
    return SparkError("INVALID_INTERVAL_FORMAT.INVALID_UNIT",
                      "Intervals greater than a month is not supported (" + text + ").");
  }
  int64_t micros = 0;
  if (__builtin_mul_overflow(parts.days, kMicrosPerDay, &micros) ||
      __builtin_add_overflow(micros, parts.micros, &micros)) {
    return CannotParseInterval(text);
  }
  return micros;
}

// The checks of Spark's TimeWindow.checkInputDataTypes, worded as Spark words them; the call is
// named with its durations in microseconds, as Spark prints it.
arrow::Status CheckWindowSpec(const CallSite& call, const TimeWindowSpec& spec) {
  const std::string sql = "\"window(" + call.args[0]->sql() + ", " + std::to_string(spec.window) +
                          ", " + std::to_string(spec.slide) + ", " + std::to_string(spec.start) +
                          ")\"";
  auto mismatch = [&](const std::string& sub_class, const std::string& reason) {
    return SparkError("DATATYPE_MISMATCH." + sub_class,
                      "Cannot resolve " + sql + " due to data type mismatch: " + reason);
  };
  auto out_of_range = [&](const char* name, int64_t value) {
    return mismatch("VALUE_OUT_OF_RANGE", std::string("The `") + name +
                                              "` must be between (0, 9223372036854775807] "
                                              "(current value = " +
                                              std::to_string(value) + "L).");
  };
  if (spec.window <= 0) return out_of_range("window_duration", spec.window);
  if (spec.slide <= 0) return out_of_range("slide_duration", spec.slide);
  if (spec.slide > spec.window) {
    return mismatch("PARAMETER_CONSTRAINT_VIOLATION",
                    "The `slide_duration`(" + std::to_string(spec.slide) +
                        "L) must be <= the `window_duration`(" + std::to_string(spec.window) +
                        "L).");
  }
  const int64_t abs_start = spec.start < 0 ? -spec.start : spec.start;
  if (abs_start >= spec.slide) {
    return mismatch("PARAMETER_CONSTRAINT_VIOLATION",
                    "The `abs(start_time)`(" + std::to_string(abs_start) +
                        "L) must be < the `slide_duration`(" + std::to_string(spec.slide) + "L).");
  }
  return arrow::Status::OK();
}

// The time column: timestamp or timestamp_ntz as is; a string, date or null is implicitly cast
// to timestamp, as Spark's AnyTimestampType input coercion does.
arrow::Result<BoundExprPtr> TimeArgument(const CallSite& call) {
  const auto id = call.args[0]->type()->id();
  if (id == Type::TIMESTAMP) return call.args[0];
  if (id == Type::STRING || id == Type::DATE32 || id == Type::NA) {
    return ArgAs(call, 0, Timestamp());
  }
  return UnexpectedInputType(call, 0,
                             "(\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\" or "
                             "\"STRUCT<start: TIMESTAMP, end: TIMESTAMP>\" or "
                             "\"STRUCT<start: TIMESTAMP_NTZ, end: TIMESTAMP_NTZ>\")");
}

// struct<start, end> of the time column's type, with nullable fields as in Spark.
std::shared_ptr<arrow::DataType> WindowStructType(const std::shared_ptr<arrow::DataType>& time) {
  return arrow::struct_({arrow::field("start", time), arrow::field("end", time)});
}

// The windows containing each time, latest start first (Spark's Expand order). A null time has
// no windows (null list, which explode drops, as Spark filters such rows out).
arrow::Result<arrow::Datum> ExpandWindows(const arrow::Datum& input, int64_t num_rows,
                                          const TimeWindowSpec& spec,
                                          const std::shared_ptr<arrow::DataType>& list_type,
                                          arrow::MemoryPool* pool) {
  const auto& value_type = static_cast<const arrow::ListType&>(*list_type).value_type();
  const auto& time_type = value_type->field(0)->type();
  auto starts = std::make_shared<arrow::TimestampBuilder>(time_type, pool);
  auto ends = std::make_shared<arrow::TimestampBuilder>(time_type, pool);
  auto structs = std::make_shared<arrow::StructBuilder>(
      value_type, pool, std::vector<std::shared_ptr<arrow::ArrayBuilder>>{starts, ends});
  arrow::ListBuilder lists(pool, structs, list_type);
  const int64_t candidates = (spec.window + spec.slide - 1) / spec.slide;
  NumericInput<arrow::TimestampType> times(input);
  const int64_t rows = input.is_scalar() ? 1 : num_rows;
  ARROW_RETURN_NOT_OK(lists.Reserve(rows));
  // A tiny slide may give a row very many windows; reserve for the usual few.
  const int64_t expected = rows * std::min<int64_t>(candidates, 16);
  ARROW_RETURN_NOT_OK(structs->Reserve(expected));
  ARROW_RETURN_NOT_OK(starts->Reserve(expected));
  ARROW_RETURN_NOT_OK(ends->Reserve(expected));
  std::vector<int64_t> window_starts;  // of one row
  for (int64_t row = 0; row < rows; ++row) {
    if (!times.IsValid(row)) {
      ARROW_RETURN_NOT_OK(lists.AppendNull());
      continue;
    }
    ARROW_RETURN_NOT_OK(lists.Append());
    window_starts.clear();
    ForEachWindowOf(times.Value(row), spec,
                    [&](int64_t window_start) { window_starts.push_back(window_start); });
    for (int64_t window_start : window_starts) {
      ARROW_RETURN_NOT_OK(structs->Append());
      ARROW_RETURN_NOT_OK(starts->Append(window_start));
      ARROW_RETURN_NOT_OK(ends->Append(window_start + spec.window));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto array, lists.Finish());
  if (input.is_scalar()) {
    ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
    return arrow::Datum(std::move(value));
  }
  return arrow::Datum(std::move(array));
}

// The durations of (time, window, slide, start), checked as Spark checks them.
arrow::Result<TimeWindowSpec> WindowDurations(const CallSite& call) {
  TimeWindowSpec spec;
  ARROW_ASSIGN_OR_RAISE(spec.window, DurationArgument(call, 1));
  ARROW_ASSIGN_OR_RAISE(spec.slide, DurationArgument(call, 2));
  ARROW_ASSIGN_OR_RAISE(spec.start, DurationArgument(call, 3));
  ARROW_RETURN_NOT_OK(CheckWindowSpec(call, spec));
  return spec;
}

// __time_windows(time, window, slide, start): the list of windows containing each time. Its
// element is nullable only for sliding windows, matching the nullability Spark gives the window
// column (a projection for tumbling windows, an Expand for sliding ones).
arrow::Result<ResolvedCall> ResolveTimeWindows(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 4, 4, "4"));
  ARROW_ASSIGN_OR_RAISE(auto time, TimeArgument(call));
  ARROW_ASSIGN_OR_RAISE(auto spec, WindowDurations(call));
  const bool tumbling = spec.window == spec.slide;
  auto list_type = arrow::list(arrow::field("element", WindowStructType(time->type()), !tumbling));
  ResolvedCall resolved;
  resolved.args = {time, call.args[1], call.args[2], call.args[3]};
  resolved.return_type = list_type;
  resolved.nullable = time->nullable();
  resolved.kernel = [spec, list_type](const std::vector<arrow::Datum>& args,
                                      const EvalContext& context,
                                      int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ExpandWindows(args[0], num_rows, spec, list_type, context.pool);
  };
  return resolved;
}

// __tumbling_window(time, window, slide, start) for slide = window: the one window containing
// each time, [t - floorMod(t - start, window), + window), computed column-wise. The API layer
// projects it after dropping rows with a null time, as Spark plans a tumbling window (a null
// time gives a null struct here).
arrow::Result<ResolvedCall> ResolveTumblingWindow(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 4, 4, "4"));
  ARROW_ASSIGN_OR_RAISE(auto time, TimeArgument(call));
  ARROW_ASSIGN_OR_RAISE(auto spec, WindowDurations(call));
  if (spec.slide != spec.window) {
    return arrow::Status::Invalid("__tumbling_window needs a slide equal to the window");
  }
  auto struct_type = WindowStructType(time->type());
  ResolvedCall resolved;
  resolved.args = {time, call.args[1], call.args[2], call.args[3]};
  resolved.return_type = struct_type;
  resolved.nullable = false;
  resolved.kernel = [spec, struct_type](const std::vector<arrow::Datum>& args,
                                        const EvalContext& context,
                                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    std::shared_ptr<arrow::Array> times;
    if (args[0].is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(times, arrow::MakeArrayFromScalar(*args[0].scalar(), num_rows,
                                                              context.pool));
    } else {
      times = args[0].make_array();
    }
    const int64_t rows = times->length();
    const auto& time_type = struct_type->field(0)->type();
    ARROW_ASSIGN_OR_RAISE(auto start_buffer,
                          arrow::AllocateBuffer(rows * sizeof(int64_t), context.pool));
    ARROW_ASSIGN_OR_RAISE(auto end_buffer,
                          arrow::AllocateBuffer(rows * sizeof(int64_t), context.pool));
    const int64_t* t = times->data()->GetValues<int64_t>(1);
    auto* starts = reinterpret_cast<int64_t*>(start_buffer->mutable_data());
    auto* ends = reinterpret_cast<int64_t*>(end_buffer->mutable_data());
    for (int64_t row = 0; row < rows; ++row) {
      // Rows with a null time hold an arbitrary value; their struct is null.
      starts[row] = t[row] - FloorMod(t[row] - spec.start, spec.window);
      ends[row] = starts[row] + spec.window;
    }
    auto start_array = arrow::MakeArray(arrow::ArrayData::Make(
        time_type, rows, {nullptr, std::move(start_buffer)}, 0));
    auto end_array = arrow::MakeArray(
        arrow::ArrayData::Make(time_type, rows, {nullptr, std::move(end_buffer)}, 0));
    std::shared_ptr<arrow::Buffer> validity;
    if (times->null_count() > 0) {
      ARROW_ASSIGN_OR_RAISE(validity,
                            arrow::internal::CopyBitmap(context.pool, times->null_bitmap_data(),
                                                        times->offset(), rows));
    }
    auto result = std::make_shared<arrow::StructArray>(
        struct_type, rows, arrow::ArrayVector{start_array, end_array}, validity,
        times->null_count());
    if (args[0].is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(auto value, result->GetScalar(0));
      return arrow::Datum(std::move(value));
    }
    return arrow::Datum(std::move(result));
  };
  return resolved;
}

// window_time(w): the last microsecond of a window, w.end - 1, of the window's time type.
arrow::Result<ResolvedCall> ResolveWindowTime(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto& type = *call.args[0]->type();
  if (type.id() != Type::STRUCT) return UnexpectedInputType(call, 0, "\"STRUCT\"");
  const auto& fields = static_cast<const arrow::StructType&>(type).fields();
  const bool window_shape = fields.size() == 2 && fields[0]->name() == "start" &&
                            fields[1]->name() == "end" &&
                            fields[0]->type()->id() == Type::TIMESTAMP &&
                            fields[1]->type()->Equals(*fields[0]->type());
  // Spark accepts only a column produced by window() (it checks a metadata marker we do not
  // carry); a struct of another shape cannot be one.
  if (!window_shape) {
    return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "The input is not a correct window column: " + CallSql(call));
  }
  auto time_type = fields[1]->type();
  ResolvedCall resolved;
  resolved.args = {call.args[0]};
  resolved.return_type = time_type;
  resolved.nullable = true;
  resolved.kernel = [time_type](const std::vector<arrow::Datum>& args, const EvalContext& context,
                                int64_t /*num_rows*/) -> arrow::Result<arrow::Datum> {
    // The end field as an array (or a one-row array for a scalar struct).
    std::shared_ptr<arrow::Array> structs;
    if (args[0].is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(structs, arrow::MakeArrayFromScalar(*args[0].scalar(), 1,
                                                                context.pool));
    } else {
      structs = args[0].make_array();
    }
    const auto& struct_array = static_cast<const arrow::StructArray&>(*structs);
    ARROW_ASSIGN_OR_RAISE(auto ends, struct_array.GetFlattenedField(1, context.pool));
    ARROW_ASSIGN_OR_RAISE(
        auto result,
        (MapUnary<arrow::TimestampType, arrow::TimestampType>(
            arrow::Datum(ends), ends->length(), time_type, context.pool,
            [](int64_t end, int64_t* out) -> arrow::Result<bool> {
              *out = end - 1;
              return true;
            })));
    if (!args[0].is_scalar()) return result;
    ARROW_ASSIGN_OR_RAISE(auto value, result.make_array()->GetScalar(0));
    return arrow::Datum(std::move(value));
  };
  return resolved;
}

// Spark's DataType.toString, which its session window gap error prints ("IntegerType",
// "DayTimeIntervalType(3,3)" has no Arrow counterpart here).
std::string ScalaTypeName(const arrow::DataType& type) {
  switch (type.id()) {
    case Type::INT8: return "ByteType";
    case Type::INT16: return "ShortType";
    case Type::INT32: return "IntegerType";
    case Type::INT64: return "LongType";
    case Type::FLOAT: return "FloatType";
    case Type::DOUBLE: return "DoubleType";
    case Type::BOOL: return "BooleanType";
    case Type::BINARY: return "BinaryType";
    case Type::DATE32: return "DateType";
    case Type::TIMESTAMP: return IsLtz(type) ? "TimestampType" : "TimestampNTZType";
    case Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(type);
      return "DecimalType(" + std::to_string(decimal.precision()) + "," +
             std::to_string(decimal.scale()) + ")";
    }
    case Type::LIST: {
      const auto& list = static_cast<const arrow::ListType&>(type);
      return "ArrayType(" + ScalaTypeName(*list.value_type()) + "," +
             (list.value_field()->nullable() ? "true" : "false") + ")";
    }
    case Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(type);
      return "MapType(" + ScalaTypeName(*map.key_type()) + "," +
             ScalaTypeName(*map.item_type()) + "," +
             (map.item_field()->nullable() ? "true" : "false") + ")";
    }
    case Type::STRUCT: {
      std::string text = "StructType(";
      for (int i = 0; i < type.num_fields(); ++i) {
        const auto& field = *type.field(i);
        if (i > 0) text += ",";
        text += "StructField(" + field.name() + "," + ScalaTypeName(*field.type()) + "," +
                (field.nullable() ? "true" : "false") + ")";
      }
      return text + ")";
    }
    default:
      return types::TypeName(type);  // strings and nulls, the valid gaps, never get here
  }
}

// What session_window(time, gap) reads its time from: a timestamp (ltz or ntz) as is, a string,
// date or null cast to timestamp (Spark's AnyTimestampType coercion), or, for a window column,
// its window_time (end - 1), as Spark's SessionWindowing rewrites it.
struct SessionTime {
  BoundExprPtr column;
  bool window_struct = false;
};

arrow::Result<SessionTime> SessionTimeArgument(const CallSite& call) {
  const auto& type = *call.args[0]->type();
  const auto id = type.id();
  if (id == Type::TIMESTAMP) return SessionTime{call.args[0], false};
  if (id == Type::STRING || id == Type::DATE32 || id == Type::NA) {
    ARROW_ASSIGN_OR_RAISE(auto cast, ArgAs(call, 0, Timestamp()));
    return SessionTime{std::move(cast), false};
  }
  if (id == Type::STRUCT && type.num_fields() == 2 && type.field(0)->name() == "start" &&
      type.field(1)->name() == "end" && type.field(0)->type()->id() == Type::TIMESTAMP &&
      type.field(1)->type()->Equals(*type.field(0)->type())) {
    return SessionTime{call.args[0], true};
  }
  // Spark names the call by its class and prints a string gap without quotes.
  const arrow::Scalar* gap = ConstantArgument(call, 1);
  std::string gap_text = call.args[1]->sql();
  if (gap != nullptr && gap->is_valid && gap->type->id() == Type::STRING) {
    gap_text = static_cast<const arrow::StringScalar&>(*gap).ToString();
  }
  const std::string sql = "sessionwindow(" + call.args[0]->sql() + ", " + gap_text + ")";
  return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    "Cannot resolve \"" + sql +
                        "\" due to data type mismatch: The first parameter requires the "
                        "(\"(TIMESTAMP OR TIMESTAMP WITHOUT TIME ZONE)\" or \"STRUCT<start: "
                        "TIMESTAMP, end: TIMESTAMP>\" or \"STRUCT<start: TIMESTAMP_NTZ, end: "
                        "TIMESTAMP_NTZ>\") type, however \"" + call.args[0]->sql() +
                        "\" has the type \"" + SqlTypeName(type) + "\".");
}

// Adds a months/days/microseconds interval to a time, as Spark's timestampAddInterval: months
// (clamped to the last day of the month) and days move the local date-time in `zone` (null
// for timestamp_ntz, whose local time is UTC), then microseconds move the instant. False on
// overflow.
bool AddInterval(int64_t micros, const IntervalParts& gap, const TimeZone* zone, int64_t* out) {
  int64_t result = micros;
  if (gap.months != 0 || gap.days != 0) {
    const int64_t offset = zone == nullptr ? 0 : int64_t{zone->OffsetAt(FloorDiv(micros,
                                                                     kMicrosPerSecond))} *
                                                     kMicrosPerSecond;
    const int64_t local = micros + offset;
    const int64_t time_of_day = FloorMod(local, kMicrosPerDay);
    int64_t days = FloorDiv(local, kMicrosPerDay);
    if (gap.months != 0) {
      const CivilDate date = CivilFromDays(days);
      const int64_t month_index = date.year * 12 + (date.month - 1) + gap.months;
      const int64_t year = FloorDiv(month_index, 12);
      const int32_t month = static_cast<int32_t>(FloorMod(month_index, 12)) + 1;
      days = DaysFromCivil(year, month, std::min(date.day, DaysInMonth(year, month)));
    }
    int64_t local_result = 0;
    if (__builtin_add_overflow(days, gap.days, &days) ||
        __builtin_mul_overflow(days, kMicrosPerDay, &local_result) ||
        __builtin_add_overflow(local_result, time_of_day, &local_result)) {
      return false;
    }
    if (zone == nullptr) {
      result = local_result;
    } else {
      const int64_t seconds = zone->LocalToUtc(FloorDiv(local_result, kMicrosPerSecond));
      result = seconds * kMicrosPerSecond + FloorMod(local_result, kMicrosPerSecond);
    }
  }
  return !__builtin_add_overflow(result, gap.micros, out);
}

// The session of every row: struct<start, end> with start = time and end = time + gap, valid
// even where a field is null (a null time, or a null or unparsable gap, which Spark's cast to
// interval turns into null), so that the filter below the session operators drops the row.
arrow::Result<arrow::Datum> ComputeSessions(const arrow::Datum& time_input,
                                            const arrow::Datum& gap_input, int64_t num_rows,
                                            bool window_struct, const TimeZone* zone,
                                            const std::shared_ptr<arrow::DataType>& struct_type,
                                            arrow::MemoryPool* pool) {
  const bool scalar = time_input.is_scalar() && gap_input.is_scalar();
  const int64_t rows = scalar ? 1 : num_rows;
  // A window column's time is its end - 1 (window_time), and null for a null window.
  arrow::Datum times = time_input;
  if (window_struct) {
    std::shared_ptr<arrow::Array> windows;
    if (time_input.is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(windows, arrow::MakeArrayFromScalar(*time_input.scalar(), 1, pool));
    } else {
      windows = time_input.make_array();
    }
    ARROW_ASSIGN_OR_RAISE(auto ends, static_cast<const arrow::StructArray&>(*windows)
                                         .GetFlattenedField(1, pool));
    times = arrow::Datum(std::move(ends));
  }
  const auto& time_type = struct_type->field(0)->type();
  NumericInput<arrow::TimestampType> time_values(times);
  const bool time_scalar = times.is_scalar() || (window_struct && time_input.is_scalar());
  StringInput gaps(gap_input);
  // A constant gap is parsed once; a gap column row by row.
  std::optional<IntervalParts> constant_gap;
  if (gap_input.is_scalar() && gaps.IsValid(0)) {
    auto parsed = ParseInterval(gaps.View(0));
    if (parsed.ok()) constant_gap = *parsed;
  }
  arrow::TimestampBuilder starts(time_type, pool);
  arrow::TimestampBuilder ends(time_type, pool);
  ARROW_RETURN_NOT_OK(starts.Reserve(rows));
  ARROW_RETURN_NOT_OK(ends.Reserve(rows));
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t time_row = time_scalar ? 0 : row;
    if (!time_values.IsValid(time_row)) {
      starts.UnsafeAppendNull();
      ends.UnsafeAppendNull();
      continue;
    }
    const int64_t start = time_values.Value(time_row) - (window_struct ? 1 : 0);
    starts.UnsafeAppend(start);
    std::optional<IntervalParts> gap = constant_gap;
    if (!gap_input.is_scalar() && gaps.IsValid(row)) {
      auto parsed = ParseInterval(gaps.View(row));
      if (parsed.ok()) gap = *parsed;
    }
    int64_t end = 0;
    if (!gap) {
      ends.UnsafeAppendNull();
    } else if (AddInterval(start, *gap, zone, &end)) {
      ends.UnsafeAppend(end);
    } else {
      return SparkError("ARITHMETIC_OVERFLOW",
                        "long overflow. If necessary set \"spark.sql.ansi.enabled\" to "
                        "\"false\" to bypass this error.");
    }
  }
  std::shared_ptr<arrow::Array> start_array;
  std::shared_ptr<arrow::Array> end_array;
  ARROW_RETURN_NOT_OK(starts.Finish(&start_array));
  ARROW_RETURN_NOT_OK(ends.Finish(&end_array));
  ARROW_ASSIGN_OR_RAISE(auto sessions,
                        arrow::StructArray::Make({start_array, end_array}, struct_type->fields()));
  if (!scalar) return arrow::Datum(std::move(sessions));
  ARROW_ASSIGN_OR_RAISE(auto value, sessions->GetScalar(0));
  return arrow::Datum(std::move(value));
}

// __session_window(time, gap): each row's own session window [time, time + gap), before
// sessions of a key merge (plan/session_window_merge.h). The API layer calls it for
// session_window(...) and filters out the rows whose session is not a positive range.
arrow::Result<ResolvedCall> ResolveSessionWindow(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_ASSIGN_OR_RAISE(auto time, SessionTimeArgument(call));
  const auto gap_id = call.args[1]->type()->id();
  if (gap_id != Type::STRING && gap_id != Type::NA) {
    return SparkError("_LEGACY_ERROR_TEMP_1040",
                      "Gap duration expression used in session window must be "
                      "CalendarIntervalType, but got " + ScalaTypeName(*call.args[1]->type()) +
                          ".");
  }
  BoundExprPtr gap = call.args[1];
  if (gap_id == Type::NA) {
    ARROW_ASSIGN_OR_RAISE(gap, ArgAs(call, 1, arrow::utf8()));
  }
  const auto& time_type = time.window_struct ? time.column->type()->field(1)->type()
                                             : time.column->type();
  // Only a time with a zone moves months and days along that zone's local time.
  ZonePtr zone;
  if (IsLtz(*time_type)) {
    ARROW_ASSIGN_OR_RAISE(zone, SessionZone(call));
  }
  auto struct_type = WindowStructType(time_type);
  ResolvedCall resolved;
  resolved.args = {time.column, gap};
  resolved.return_type = struct_type;
  resolved.nullable = false;
  const bool window_struct = time.window_struct;
  resolved.kernel = [window_struct, zone, struct_type](
                        const std::vector<arrow::Datum>& args, const EvalContext& context,
                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    return ComputeSessions(args[0], args[1], num_rows, window_struct, zone.get(), struct_type,
                           context.pool);
  };
  return resolved;
}

}  // namespace

std::optional<TimeWindowSpec> TimeWindowsOf(const BoundExpr& e) {
  if (e.kind() != BoundKind::kCall ||
      static_cast<const BoundCall&>(e).function_name() != "__time_windows") {
    return std::nullopt;
  }
  // Bound, the call's durations are the literals its resolver checked.
  CallSite call{"__time_windows", e.children()};
  auto spec = WindowDurations(call);
  if (!spec.ok()) return std::nullopt;
  return *spec;
}

void RegisterTimeWindowFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("__time_windows", ResolveTimeWindows);
  registry.RegisterScalar("__tumbling_window", ResolveTumblingWindow);
  registry.RegisterScalar("window_time", ResolveWindowTime);
  registry.RegisterScalar("__session_window", ResolveSessionWindow);
}

}  // namespace sluice::expr
