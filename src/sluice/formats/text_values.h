// Scalar values as the text formats (JSON, CSV) spell them, shared by readers and writers:
// Java's number formatting (Double.toString), decimals, base64 and the non-numeric numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/type_fwd.h>
#include <arrow/util/decimal.h>

namespace sluice::formats {

/// NaN, Infinity, +Infinity, -Infinity, INF, +INF, -INF (Jackson's non-numeric numbers).
std::optional<double> ParseNonNumericNumber(std::string_view text);

/// A decimal of the given decimal128 type from its text, rounded half-up to the type's scale;
/// nullopt if the text is not a number or does not fit the precision.
std::optional<arrow::Decimal128> ParseDecimalText(std::string_view text,
                                                  const arrow::DataType& decimal_type);

/// Appends a double as Java's Double.toString: "1.0", "1.5E7", "1.0E-5", "NaN", "Infinity".
void AppendJavaDouble(double value, std::string* out);
/// Appends a float as Java's Float.toString.
void AppendJavaFloat(float value, std::string* out);

/// Decodes base64 as Jackson reads binary values in JSON (standard or URL-safe alphabet,
/// padding and line breaks ignored); nullopt on any other character. Encoding:
/// sluice/common/base64.h.
std::optional<std::string> DecodeBase64(std::string_view text);

}  // namespace sluice::formats

namespace sluice::formats {

/// Appends a decimal as java.math.BigDecimal.toString: plain when the scale is not negative and
/// the adjusted exponent is >= -6 ("1.50"), else scientific ("0E-18", "1.5E-7").
void AppendJavaBigDecimal(const arrow::Decimal128& value, int32_t scale, std::string* out);

}  // namespace sluice::formats
