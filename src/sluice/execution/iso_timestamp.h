#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice::execution {

/// Milliseconds since the epoch as Spark's progress reports and listener events print them:
/// ISO 8601 in UTC with milliseconds, "2026-11-30T17:39:33.546Z", the year as java.time's
/// "yyyy" prints it (the year of the era; "+10000" past 9999).
std::string FormatIsoTimestamp(int64_t epoch_ms);

/// The inverse of FormatIsoTimestamp for the years 1 to 9999 ("2026-11-30T17:39:33.546Z");
/// nullopt for any other text.
std::optional<int64_t> ParseIsoTimestamp(std::string_view text);

}  // namespace sluice::execution
