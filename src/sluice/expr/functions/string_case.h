#pragma once

// Spark's upper/lower/initcap on UTF-8 text: Java's String.toUpperCase/toLowerCase (full Unicode
// mappings, e.g. ß -> SS, İ -> i̇, final sigma) and UTF8String.toTitleCase for initcap.

#include <optional>
#include <string_view>

#include <arrow/datum.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

/// Appends `text` in upper case to the current row of `out`. Thread-safe.
void AppendUpper(std::string_view text, StringOutput& out);

/// Appends `text` in lower case to the current row of `out`. Thread-safe.
void AppendLower(std::string_view text, StringOutput& out);

enum class AsciiCase { kLower, kUpper };

/// lower or upper of a utf8 array whose text is all ASCII, where each byte maps to one byte: the
/// result keeps the array's offsets and validity and maps its bytes in one pass (row by row,
/// each value was a call, a check and an append). nullopt for any other input (a scalar,
/// non-ASCII bytes, values that do not start at the first byte), which the rows then take.
arrow::Result<std::optional<arrow::Datum>> MapAsciiCase(const arrow::Datum& input,
                                                        AsciiCase to, arrow::MemoryPool* pool);

/// Appends initcap(text): lower case, then the first character of every word (words are
/// separated by ' ' only, as Spark does) in title case.
void AppendInitcap(std::string_view text, StringOutput& out);

}  // namespace sluice::expr
