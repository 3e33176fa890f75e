// Spark's default text of dates and timestamps, as CAST(x AS STRING) prints them (also the
// text of partition folder values and of dates in JSON).
#pragma once

#include <cstdint>
#include <string>

namespace sluice::datetime {

/// Appends a date (days since 1970-01-01) as Spark prints it: "2024-01-01", "+10000-01-01",
/// "-0044-03-15".
void AppendDate(int64_t days, std::string* out);

/// Appends a local date-time (microseconds since 1970-01-01T00:00 on the wall clock) as Spark
/// prints a timestamp: "2024-01-01 10:00:00", with the fraction of a second only as long as
/// needed ("10:00:00.5", "10:00:00.123456").
void AppendLocalTimestamp(int64_t local_micros, std::string* out);

}  // namespace sluice::datetime
