// Proleptic Gregorian calendar arithmetic on day and microsecond counts since 1970-01-01, as
// Spark (java.time) computes it. Header-only and branch-light: these run once per row in the
// date/time kernels.
#pragma once

#include <cstdint>

namespace sluice::datetime {

inline constexpr int64_t kMicrosPerSecond = 1000000;
inline constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
inline constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
inline constexpr int64_t kSecondsPerDay = 86400;
inline constexpr int64_t kMicrosPerDay = kSecondsPerDay * kMicrosPerSecond;

/// Floor division and modulo (the result of FloorMod has the sign of the divisor).
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
constexpr int64_t FloorMod(int64_t a, int64_t b) { return a - FloorDiv(a, b) * b; }

/// A calendar date: year (may be <= 0 or > 9999), month 1..12, day 1..31.
struct CivilDate {
  int64_t year;
  int32_t month;
  int32_t day;
};

constexpr bool IsLeapYear(int64_t year) {
  return (year % 4 == 0) && (year % 100 != 0 || year % 400 == 0);
}

constexpr int32_t DaysInMonth(int64_t year, int32_t month) {
  constexpr int32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

/// Days since 1970-01-01 of a valid civil date (Howard Hinnant's days_from_civil).
constexpr int64_t DaysFromCivil(int64_t year, int32_t month, int32_t day) {
  year -= month <= 2;
  const int64_t era = FloorDiv(year, 400);
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

/// The civil date of a day count since 1970-01-01.
constexpr CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = FloorDiv(days, 146097);
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const int32_t day = static_cast<int32_t>(day_of_year - (153 * mp + 2) / 5 + 1);
  const int32_t month = static_cast<int32_t>(mp < 10 ? mp + 3 : mp - 9);
  return CivilDate{year_of_era + era * 400 + (month <= 2), month, day};
}

/// The day `months` months after `days` (days since the epoch), on the same day of the month
/// or the month's last day when it is shorter, as Spark's add_months and interval arithmetic.
constexpr int64_t AddMonths(int64_t days, int64_t months) {
  const CivilDate date = CivilFromDays(days);
  const int64_t total = date.year * 12 + (date.month - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  const int32_t month = static_cast<int32_t>(FloorMod(total, 12)) + 1;
  const int32_t day = date.day < DaysInMonth(year, month) ? date.day : DaysInMonth(year, month);
  return DaysFromCivil(year, month, day);
}

/// ISO day of week: 1 = Monday ... 7 = Sunday.
constexpr int32_t IsoDayOfWeek(int64_t days) {
  return static_cast<int32_t>(FloorMod(days + 3, 7)) + 1;
}

/// Day of the year, 1..366.
constexpr int32_t DayOfYear(int64_t days) {
  const CivilDate date = CivilFromDays(days);
  return static_cast<int32_t>(days - DaysFromCivil(date.year, 1, 1)) + 1;
}

/// ISO-8601 week of the week-based year (weeks start on Monday; week 1 holds the first Thursday).
constexpr int32_t IsoWeekOfYear(int64_t days) {
  // The Thursday of this date's week decides the week-based year.
  const int64_t thursday = days - IsoDayOfWeek(days) + 4;
  const CivilDate date = CivilFromDays(thursday);
  const int64_t first = DaysFromCivil(date.year, 1, 1);
  return static_cast<int32_t>((thursday - first) / 7) + 1;
}

/// The ISO week-based year of a date.
constexpr int64_t IsoWeekBasedYear(int64_t days) {
  return CivilFromDays(days - IsoDayOfWeek(days) + 4).year;
}

}  // namespace sluice::datetime
