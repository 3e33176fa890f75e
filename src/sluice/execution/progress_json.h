// Embedding JSON texts (source offsets, observed metric rows) in progress reports the way Spark
// does: json4s parses the text into a value, which is then printed with the rest of the report.
#pragma once

#include <string_view>

#include "sluice/common/json_writer.h"

namespace sluice::execution {

/// Writes the JSON value `text` holds as one value of `writer`, laid out by the writer (so an
/// offset object is indented inside a pretty report): members in their order in `text`
/// (repeated keys kept), integers as written, other numbers as Java's Double.toString prints
/// them ("1e2" becomes 100.0), strings re-escaped. A text that is not JSON (a source with a
/// plain-text offset, or an empty text) is written as a JSON string, as Spark's SourceProgress
/// falls back to when its parse fails.
void WriteEmbeddedJson(std::string_view text, JsonWriter* writer);

}  // namespace sluice::execution
