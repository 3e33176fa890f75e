#pragma once

#include <string>
#include <string_view>

namespace sluice {

/// Appends `text` as a JSON string literal escaped the way Jackson (behind Spark's JSON output
/// and schema JSON) escapes it: quote and backslash, the short escapes \b \f \n \r \t, other
/// control characters as \u00XX with upper-case hex digits, everything else (including
/// non-ASCII UTF-8) verbatim. The one escaping used by every JSON writer of the engine.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace sluice
