// Spark's lenient parsers of date and timestamp strings (stringToDate, stringToTimestamp), used by
// CAST, to_date/to_timestamp without a pattern, and date/timestamp literals.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sluice/datetime/zone.h"

namespace sluice::datetime {

/// Days since the epoch of `text` in one of Spark's date forms: `[+-]yyyy*`, `[+-]yyyy*-[m]m`,
/// `[+-]yyyy*-[m]m-[d]d`, optionally followed by ' ' or 'T' and anything; surrounding white
/// space is ignored. Nothing when the text is not a valid date.
std::optional<int64_t> ParseDate(std::string_view text);

/// The instant (microseconds since the epoch) of `text` in one of Spark's timestamp forms:
/// a date as above, optionally followed by ' ' or 'T' and `[h]h:[m]m[:[s]s[.fraction]]`, and
/// optionally a zone ("Z", "+01:00", "-0800", " UTC", " America/Los_Angeles"); a time alone
/// takes the date of `now_micros` in the zone (and is invalid without `now_micros`, for callers
/// with no current time, such as the file readers). Without a zone in the text, the wall-clock
/// time is read in `zone`. Fractions beyond microseconds are truncated. Nothing when invalid.
std::optional<int64_t> ParseTimestamp(std::string_view text, const TimeZone& zone,
                                      std::optional<int64_t> now_micros);

/// The wall-clock time (microseconds since 1970-01-01T00:00, no zone) of `text`, parsed as
/// ParseTimestamp does; a zone in the text is ignored when `allow_zone`, else invalid.
std::optional<int64_t> ParseTimestampNtz(std::string_view text, bool allow_zone,
                                         std::optional<int64_t> now_micros);

/// Trims the characters Spark's date/time and number casts ignore around a value (white space
/// and ASCII control characters).
std::string_view TrimSparkWhitespace(std::string_view text);

}  // namespace sluice::datetime
