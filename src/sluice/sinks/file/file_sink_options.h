// The streaming file sink's own options, beside the format's write options (compression, ...)
// that the format writer parses: read once from the user's string options when the sink is made.
#pragma once

#include <cstdint>
#include <optional>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sinks {

/// Options of the file sink itself (Spark's FileStreamSink options).
struct FileSinkOptions {
  /// "retention": manifest entries of files whose modification time is older than this many
  /// milliseconds are dropped when the manifest is compacted, so readers stop seeing them.
  /// A time string ("12h", "7d", a bare number is milliseconds); unset: entries are kept.
  std::optional<int64_t> retention_ms;
};

/// The sink's options found among `options` (other keys belong to the format and are left to
/// it). A retention that is not a time string fails with INVALID_CONF_VALUE.TIME_STRING
/// naming the option.
arrow::Result<FileSinkOptions> ParseFileSinkOptions(const formats::OptionMap& options);

}  // namespace sluice::sinks
