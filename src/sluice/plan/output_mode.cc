#include "sluice/plan/output_mode.h"

#include <string>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"

namespace sluice::plan {

const char* OutputModeName(OutputMode mode) {
  switch (mode) {
    case OutputMode::kAppend:
      return "Append";
    case OutputMode::kComplete:
      return "Complete";
    case OutputMode::kUpdate:
      return "Update";
  }
  return "Append";
}

arrow::Result<OutputMode> ParseOutputMode(std::string_view text) {
  const std::string lower = AsciiLower(text);
  if (lower == "append") return OutputMode::kAppend;
  if (lower == "complete") return OutputMode::kComplete;
  if (lower == "update") return OutputMode::kUpdate;
  return SparkError("STREAMING_OUTPUT_MODE.INVALID",
                    "Invalid streaming output mode: " + std::string(text) +
                        ". Accepted output modes are 'Append', 'Complete', 'Update'.");
}

}  // namespace sluice::plan
