// Spark's text forms of single values, as CAST(x AS STRING) and error messages print them.
// (Dates and timestamps: sluice/datetime/print.h.)
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

}  // namespace sluice::expr
