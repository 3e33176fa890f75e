// The timestamp options of Delta reads (timestampAsOf, startingTimestamp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <arrow/result.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// The option `key` as milliseconds since the epoch (Spark's timestamp forms, read in the
/// session zone), or nullopt when it is not set. A value that is not a timestamp fails with
/// DELTA_TIMESTAMP_INVALID naming the option.
arrow::Result<std::optional<int64_t>> DeltaTimestampOption(const formats::OptionMap& options,
                                                           std::string_view key,
                                                           const formats::FormatContext& context);

}  // namespace sluice::sources
