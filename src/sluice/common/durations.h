// Interval texts as Spark users write durations of triggers and watermarks ("2 seconds",
// "1 minute 30 seconds"). Configuration time strings ("10ms", "7d") are
// sources::ParseTimeString.
#pragma once

#include <cstdint>
#include <string_view>

#include <arrow/result.h>

namespace sluice {

/// An interval text as Trigger.ProcessingTime and withWatermark accept it: an optional
/// "interval" keyword, then one or more "<number> <unit>" pairs (units: week(s), day(s),
/// hour(s), minute(s), second(s), millisecond(s), microsecond(s), and their short forms).
/// Months and years are refused, as in Spark. Returns milliseconds. Errors name `what`.
arrow::Result<int64_t> ParseIntervalMs(std::string_view text, std::string_view what);

}  // namespace sluice
