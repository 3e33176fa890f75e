#pragma once

// Spark's upper/lower/initcap on UTF-8 text: Java's String.toUpperCase/toLowerCase (full Unicode
// mappings, e.g. ß -> SS, İ -> i̇, final sigma) and UTF8String.toTitleCase for initcap.

#include <string_view>

#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

/// Appends `text` in upper case to the current row of `out`. Thread-safe.
void AppendUpper(std::string_view text, StringOutput& out);

/// Appends `text` in lower case to the current row of `out`. Thread-safe.
void AppendLower(std::string_view text, StringOutput& out);

/// Appends initcap(text): lower case, then the first character of every word (words are
/// separated by ' ' only, as Spark does) in title case.
void AppendInitcap(std::string_view text, StringOutput& out);

}  // namespace sluice::expr
