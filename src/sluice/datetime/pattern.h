// Spark's datetime patterns (a subset of Java's DateTimeFormatter letters, as Spark 3+ documents
// them): compiled once, then used to format and parse values row by row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/datetime/zone.h"

namespace sluice::datetime {

struct ParseState;

/// The zone facts a formatted value may print: offset, id and abbreviation.
struct ZoneFacts {
  int32_t offset_seconds = 0;
  std::string_view id;
  std::string_view abbreviation;
};

/// The result of parsing a text: a wall-clock time and, if the text held one, its zone.
struct ParsedDateTime {
  /// Microseconds since 1970-01-01T00:00 on the wall clock.
  int64_t local_micros = 0;
  /// Set when the text held an offset ("+01:00", "Z").
  bool has_offset = false;
  int32_t offset_seconds = 0;
  /// Set when the text held a region id ("America/Los_Angeles").
  std::shared_ptr<const TimeZone> zone;

  /// The instant (microseconds since the epoch) the text stands for: the wall-clock time read
  /// at the text's own offset or zone, else in `default_zone`.
  int64_t ToUtcMicros(const TimeZone& default_zone) const;
};

/// The zone facts of `zone` at the instant `utc_micros` (the views point into `zone`).
ZoneFacts ZoneFactsAt(const TimeZone& zone, int64_t utc_micros);

/// A compiled pattern such as "yyyy-MM-dd HH:mm:ss". Immutable; thread-safe.
class DateTimePattern {
 public:
  /// Compiles `pattern`. Letters Spark rejects fail with Spark's error: week-based letters
  /// (Y, w, u, e, c) are INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN,
  /// unknown ones "Unknown pattern letter".
  static arrow::Result<DateTimePattern> Compile(std::string_view pattern);

  /// Appends the wall-clock time `local_micros` formatted by the pattern.
  void Format(int64_t local_micros, const ZoneFacts& zone, std::string* out) const;

  /// Parses `text`, which must match the whole pattern. On failure returns false and sets
  /// `error` to java.time's message ("Text '...' could not be parsed at index 2").
  bool Parse(std::string_view text, ParsedDateTime* out, std::string* error) const;

  /// True when the pattern prints zone facts (z, V, X, x, Z, O).
  bool uses_zone() const { return uses_zone_; }
  /// The finest unit of wall-clock time the pattern prints, in microseconds: a day for date
  /// fields alone, an hour, a minute, a second, or 1 with fractions of a second. Wall-clock
  /// times in the same unit (the same floor of local_micros divided by it) format alike, zone
  /// facts aside.
  int64_t unit_micros() const { return unit_micros_; }
  const std::string& pattern() const { return pattern_; }

 private:
  struct Item {
    char letter = 0;  // 0: literal text
    int count = 0;
    std::string literal;
    int optional_depth = 0;
  };
  bool ParseItems(std::string_view text, size_t first, size_t last, size_t* pos,
                  ParseState* state, std::string* error) const;
  std::vector<Item> items_;
  std::string pattern_;
  bool uses_zone_ = false;
  int64_t unit_micros_ = int64_t{86400} * 1000000;
};

}  // namespace sluice::datetime
