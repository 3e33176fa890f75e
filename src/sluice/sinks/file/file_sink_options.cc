#include "sluice/sinks/file/file_sink_options.h"

#include "sluice/sources/typed_options.h"

namespace sluice::sinks {

namespace {
constexpr const char* kRetention = "retention";
}  // namespace

arrow::Result<FileSinkOptions> ParseFileSinkOptions(const formats::OptionMap& options) {
  FileSinkOptions parsed;
  // Spark reads it with Utils.timeStringAsMs: a bare number is milliseconds, and a negative
  // value is accepted (it then drops every entry at the next compaction).
  if (options.count(kRetention) != 0) {
    ARROW_ASSIGN_OR_RAISE(parsed.retention_ms,
                          sources::TimeStringOption(options, kRetention,
                                                    sources::TimeStringUnit::kMilliseconds, 0));
  }
  return parsed;
}

}  // namespace sluice::sinks
