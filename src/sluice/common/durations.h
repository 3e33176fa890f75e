// The two ways Spark users write durations: configuration time strings ("10ms", "7d") and
// interval texts ("2 seconds", "1 minute 30 seconds").
#pragma once

#include <cstdint>
#include <string_view>

#include <arrow/result.h>

namespace sluice {

/// Spark's JavaUtils.timeStringAs: a whole number with an optional unit (us, ms, s, m, min, h,
/// d); a bare number is in `default_unit_ms` units. Returns milliseconds (microsecond values
/// are truncated). Errors name `key`, the setting or option being parsed.
arrow::Result<int64_t> ParseTimeStringMs(std::string_view text, std::string_view key,
                                         int64_t default_unit_ms = 1);

/// An interval text as Trigger.ProcessingTime and withWatermark accept it: an optional
/// "interval" keyword, then one or more "<number> <unit>" pairs (units: week(s), day(s),
/// hour(s), minute(s), second(s), millisecond(s), microsecond(s), and their short forms).
/// Months and years are refused, as in Spark. Returns milliseconds. Errors name `what`.
arrow::Result<int64_t> ParseIntervalMs(std::string_view text, std::string_view what);

}  // namespace sluice
