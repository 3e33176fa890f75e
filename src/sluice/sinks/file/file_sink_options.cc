#include "sluice/sinks/file/file_sink_options.h"

#include "sluice/common/durations.h"

namespace sluice::sinks {

namespace {
constexpr const char* kRetention = "retention";
}  // namespace

arrow::Result<FileSinkOptions> ParseFileSinkOptions(const formats::OptionMap& options) {
  FileSinkOptions parsed;
  auto retention = options.find(kRetention);
  if (retention != options.end()) {
    // Spark reads it with Utils.timeStringAsMs: a bare number is milliseconds, and a negative
    // value is accepted (it then drops every entry at the next compaction).
    ARROW_ASSIGN_OR_RAISE(parsed.retention_ms, ParseTimeStringMs(retention->second, kRetention));
  }
  return parsed;
}

}  // namespace sluice::sinks
