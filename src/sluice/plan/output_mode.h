#pragma once

#include <string_view>

#include <arrow/result.h>

namespace sluice::plan {

/// Which rows of a streaming query's result table each batch hands to the sink (Spark's
/// OutputMode): only new final rows, the whole table, or the rows changed by the batch.
enum class OutputMode { kAppend, kComplete, kUpdate };

/// "Append", "Complete", "Update", as Spark prints them.
const char* OutputModeName(OutputMode mode);

/// "append", "complete" or "update", case-insensitive; else STREAMING_OUTPUT_MODE.INVALID.
arrow::Result<OutputMode> ParseOutputMode(std::string_view text);

}  // namespace sluice::plan
