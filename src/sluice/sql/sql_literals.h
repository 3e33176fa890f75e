// Values of the literals of Spark's SQL grammar: numbers with their suffixes and the text of
// typed literals (DATE '...', TIMESTAMP '...', X'...').
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::sql {

/// The scalar of a numeric literal token (SqlToken::kInteger or kNumber text), negated when
/// `negative` (a minus sign written directly before it), typed as Spark types it: digits are
/// int if they fit in 32 bits, else bigint, else decimal(p,0); suffixes L/S/Y make
/// bigint/smallint/tinyint, D double, F float, BD an exact decimal; a decimal point without an
/// exponent makes decimal(p,s) with the digits' precision and scale (1.5 is decimal(2,1)), an
/// exponent a double. Fails with INVALID_NUMERIC_LITERAL_RANGE when a suffixed value does not fit
/// its type, DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION beyond 38 digits; the messages carry no
/// position, the caller adds it.
arrow::Result<std::shared_ptr<arrow::Scalar>> MakeNumericLiteral(std::string_view text,
                                                                 bool negative);

/// Days since 1970-01-01 of a DATE literal's text in Spark's forms: [+-]yyyy[-[m]m[-[d]d]]
/// with optional surrounding whitespace and anything after a ' ' or 'T' following the day;
/// nullopt if it is not a valid date.
std::optional<int32_t> ParseDateText(std::string_view text);

/// Microseconds since 1970-01-01 00:00 of a timestamp literal's local date and time:
/// a date as for ParseDateText, then optionally ' ' or 'T' and [h]h:[m]m[:[s]s[.fraction]]
/// (up to 9 fraction digits, truncated to microseconds). When `allow_zone`, a zone may follow
/// (Z, UTC, +hh:mm, Area/City; validated only by its characters) and is ignored here. nullopt
/// if the text is not such a timestamp.
std::optional<int64_t> ParseTimestampText(std::string_view text, bool allow_zone);

/// The bytes of a binary literal X'...' from its hex digits (an odd count gets a leading 0, as
/// in Spark); nullopt if a character is not a hex digit.
std::optional<std::string> ParseHexText(std::string_view text);

}  // namespace sluice::sql
