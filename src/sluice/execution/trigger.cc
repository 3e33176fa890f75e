#include "sluice/execution/trigger.h"

#include "sluice/common/durations.h"
#include "sluice/common/errors.h"

namespace sluice::execution {

arrow::Result<Trigger> Trigger::ProcessingTime(std::string_view interval) {
  if (interval.find_first_not_of(" \t") == std::string_view::npos) {
    return SparkError("INVALID_INTERVAL_FORMAT.INPUT_IS_EMPTY",
                      "Error parsing '' to interval: the processing-time trigger interval "
                      "cannot be null or blank.");
  }
  ARROW_ASSIGN_OR_RAISE(int64_t ms, ParseIntervalMs(interval, "the processing-time trigger"));
  if (ms < 0) {
    return SparkError("INVALID_INTERVAL_FORMAT.INVALID_VALUE",
                      "The processing-time trigger interval cannot be negative: " +
                          std::string(interval));
  }
  return ProcessingTime(ms);
}

std::string Trigger::ToString() const {
  switch (kind) {
    case Kind::kProcessingTime:
      return "ProcessingTimeTrigger(" + std::to_string(interval_ms) + ")";
    case Kind::kOnce:
      return "OneTimeTrigger";
    case Kind::kAvailableNow:
      return "AvailableNowTrigger";
  }
  return "";
}

}  // namespace sluice::execution
