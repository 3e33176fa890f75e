// Spark's text forms of single values, as CAST(x AS STRING) and error messages print them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/util/decimal.h>

namespace sluice::expr {

/// Java's Double.toString: "1.0", "1.0E10", "1.2345678E-5", "-0.0", "NaN", "Infinity".
/// Appends to `out`.
void AppendJavaDouble(double value, std::string* out);

/// Java's Float.toString: the shortest digits that identify the float, laid out as
/// Double.toString does.
void AppendJavaFloat(float value, std::string* out);

/// A decimal in plain notation with exactly `scale` fraction digits: "1.50", "-0.001", "0".
void AppendDecimal(const arrow::Decimal128& value, int32_t scale, std::string* out);

/// A date (days since 1970-01-01) as Spark prints it: "2024-01-01", "+10000-01-01", "-0044-03-15".
void AppendDate(int64_t days, std::string* out);

/// A local date-time (microseconds since 1970-01-01T00:00 on the wall clock) as Spark prints a
/// timestamp: "2024-01-01 10:00:00", with the fraction of a second only as long as needed
/// ("10:00:00.5", "10:00:00.123456").
void AppendLocalTimestamp(int64_t local_micros, std::string* out);

}  // namespace sluice::expr
