// Spark's ANSI interval types on Arrow:
//
//   interval day [to hour|minute|second], interval hour [to ...], interval minute [to second],
//   interval second  -> duration[us], the microseconds of the interval
//   interval year [to month], interval month -> month_interval, the months of the interval
//
// The start and end fields only name the type and format its values (`INTERVAL '10' MINUTE`,
// `INTERVAL '1 02:03' DAY TO MINUTE`): the types below are Arrow's duration and month_interval
// types that also carry them, so Arrow kernels see the plain storage type. A duration[us] or
// month_interval without fields reads as DAY TO SECOND or YEAR TO MONTH.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/type.h>

namespace sluice::types {

/// The fields of a day-time interval, from the largest.
enum class DayTimeField : int8_t { kDay = 0, kHour = 1, kMinute = 2, kSecond = 3 };
/// The fields of a year-month interval, from the largest.
enum class YearMonthField : int8_t { kYear = 0, kMonth = 1 };

struct DayTimeFields {
  DayTimeField start = DayTimeField::kDay;
  DayTimeField end = DayTimeField::kSecond;
};

struct YearMonthFields {
  YearMonthField start = YearMonthField::kYear;
  YearMonthField end = YearMonthField::kMonth;
};

/// Spark's DayTimeIntervalType(start, end): duration[us] naming its fields.
class DayTimeIntervalType final : public arrow::DurationType {
 public:
  explicit DayTimeIntervalType(DayTimeFields fields)
      : arrow::DurationType(arrow::TimeUnit::MICRO), fields_(fields) {}
  DayTimeFields fields() const { return fields_; }

 private:
  DayTimeFields fields_;
};

/// Spark's YearMonthIntervalType(start, end): month_interval naming its fields.
class YearMonthIntervalType final : public arrow::MonthIntervalType {
 public:
  explicit YearMonthIntervalType(YearMonthFields fields) : fields_(fields) {}
  YearMonthFields fields() const { return fields_; }

 private:
  YearMonthFields fields_;
};

/// The shared instance of each interval type (start must not come after end).
std::shared_ptr<arrow::DataType> DayTimeInterval(DayTimeFields fields = {});
std::shared_ptr<arrow::DataType> YearMonthInterval(YearMonthFields fields = {});

/// duration[us], with or without fields.
bool IsDayTimeInterval(const arrow::DataType& type);
/// month_interval, with or without fields.
bool IsYearMonthInterval(const arrow::DataType& type);
/// The fields a day-time (year-month) interval type names; DAY TO SECOND (YEAR TO MONTH) for
/// the plain Arrow type.
DayTimeFields DayTimeFieldsOf(const arrow::DataType& type);
YearMonthFields YearMonthFieldsOf(const arrow::DataType& type);

/// The narrowest fields covering both (Spark's result of adding two intervals).
DayTimeFields Union(DayTimeFields a, DayTimeFields b);
YearMonthFields Union(YearMonthFields a, YearMonthFields b);

/// "interval minute", "interval day to second", "interval year to month": Spark's simpleString
/// and typeName; `upper` gives the SQL form, "INTERVAL MINUTE".
std::string IntervalTypeName(const arrow::DataType& type, bool upper = false);

/// The interval type a DDL name means ("INTERVAL", "INTERVAL DAY TO SECOND", "INTERVAL MONTH",
/// ...; upper case, words separated by one space), or null.
std::shared_ptr<arrow::DataType> IntervalTypeByName(std::string_view name);

/// Spark's ANSI rendering of an interval value: INTERVAL '1 02:03:04.5' DAY TO SECOND,
/// INTERVAL '10' MINUTE, INTERVAL '-1-2' YEAR TO MONTH, INTERVAL '14' MONTH.
std::string FormatDayTimeInterval(int64_t micros, DayTimeFields fields);
std::string FormatYearMonthInterval(int32_t months, YearMonthFields fields);

/// Reads the text of an interval literal of the given fields, as Spark's ANSI forms write it:
/// `[+|-]d h:m:s.f` and its parts ("1 02:03" for DAY TO MINUTE, "25:00" for HOUR TO MINUTE,
/// "1.5" for SECOND); the leading field is unbounded, the others within their range. nullopt
/// when the text does not match or overflows.
std::optional<int64_t> ParseDayTimeIntervalText(std::string_view text, DayTimeFields fields);
/// "[+|-]y-m" for YEAR TO MONTH, "[+|-]n" for YEAR or MONTH.
std::optional<int32_t> ParseYearMonthIntervalText(std::string_view text, YearMonthFields fields);

/// The text of a string cast to an interval type: the value alone in the type's form ("10" for
/// INTERVAL MINUTE), or the whole literal with the same fields ("INTERVAL '10' MINUTE"), as
/// Spark's casts read it; nullopt otherwise.
std::optional<int64_t> ParseDayTimeIntervalCast(std::string_view text, DayTimeFields fields);
std::optional<int32_t> ParseYearMonthIntervalCast(std::string_view text, YearMonthFields fields);

/// A value moved to fewer fields, as Spark's casts between interval types do: what is below the
/// target's end field is dropped (toward zero).
int64_t TruncateDayTimeInterval(int64_t micros, DayTimeFields fields);
int32_t TruncateYearMonthInterval(int32_t months, YearMonthFields fields);

}  // namespace sluice::types
