// Dates and timestamps as text in the file formats: Spark's lenient ISO 8601 parsing (used when no
// pattern is given), a subset of Spark's datetime patterns (yyyy, MM, dd, HH, mm, ss, SSS...,
// XXX, Z, 'literal', [optional]) for timestampFormat/dateFormat, and time zones by name.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

namespace sluice::formats {

/// A time zone: "UTC", a fixed offset ("+02:00", "GMT+2", "UTC-05:30") or a region
/// ("Europe/Paris"). Immutable and thread-safe once made.
class TimeZone {
 public:
  /// Fails with INVALID_TIMEZONE for a name that is none of the above.
  static arrow::Result<std::shared_ptr<const TimeZone>> Make(std::string_view name);

  /// Microseconds since the epoch (UTC) of a local date-time in this zone (earlier offset on
  /// an overlap, shifted forward over a gap, as java.time does).
  int64_t LocalToUtc(int64_t local_micros) const;
  /// Offset from UTC in seconds at the instant `utc_micros`.
  int32_t OffsetAt(int64_t utc_micros) const;
  bool is_utc() const { return fixed_offset_seconds_ == 0 && region_ == nullptr; }

 private:
  TimeZone() = default;
  int32_t fixed_offset_seconds_ = 0;
  const void* region_ = nullptr;  // arrow_vendored::date::time_zone, owned by the tz database
};

/// A date-time read from text: local fields, plus the offset when the text named one.
struct ParsedTimestamp {
  int64_t local_micros = 0;
  std::optional<int32_t> offset_seconds;
  /// A region named in the text ("2024-01-01 10:00 Europe/Paris"); empty if none.
  std::string zone_name;
};

/// Spark's DateTimeUtils.stringToTimestamp forms: [+-]yyyy[-[m]m[-[d]d]][( |T)[h]h[:[m]m
/// [:[s]s[.fraction]]]][zone], surrounding spaces allowed; zone is Z, UTC/GMT/UT with an
/// optional offset, +hh[:mm], or a region id. nullopt if the text is none of those.
std::optional<ParsedTimestamp> ParseIsoTimestamp(std::string_view text);

/// Spark's DateTimeUtils.stringToDate: [+-]yyyy[-[m]m[-[d]d]], then optionally ' ' or 'T' and
/// anything. Days since 1970-01-01, or nullopt.
std::optional<int32_t> ParseIsoDate(std::string_view text);

/// Days since 1970-01-01 of a civil date.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day);

/// A compiled Spark datetime pattern. Immutable, thread-safe.
class DatetimePattern {
 public:
  /// Fails with INVALID_DATETIME_PATTERN for letters this engine does not support.
  static arrow::Result<DatetimePattern> Compile(std::string_view pattern);

  /// Parses the whole text (nullopt if it does not match).
  std::optional<ParsedTimestamp> Parse(std::string_view text) const;
  /// Appends the text of the local date-time `local_micros` with UTC offset `offset_seconds`.
  void Format(int64_t local_micros, int32_t offset_seconds, std::string* out) const;

  struct Element {
    char letter = 0;  // 0: literal text
    int count = 0;
    std::string literal;
    int optional_depth = 0;
  };

 private:
  std::vector<Element> elements_;
};

/// Converts parsed text to UTC micros: its own offset or zone, else `zone`.
arrow::Result<int64_t> ToUtcMicros(const ParsedTimestamp& parsed, const TimeZone& zone);

/// Appends a date (days since epoch) as yyyy-MM-dd (years beyond 9999 with a '+').
void AppendIsoDate(int32_t days, std::string* out);

}  // namespace sluice::formats
