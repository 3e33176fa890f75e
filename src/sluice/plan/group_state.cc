#include "sluice/plan/group_state.h"

#include "sluice/common/ascii.h"
#include "sluice/common/durations.h"
#include "sluice/common/errors.h"

namespace sluice::plan {

namespace {

// Spark raises these as plain Java exceptions, without an error class.
arrow::Status IllegalArgument(const std::string& message) {
  return SparkError("ILLEGAL_ARGUMENT", message);
}

arrow::Status UnsupportedOperation(const std::string& message) {
  return SparkError("UNSUPPORTED_OPERATION", message);
}

}  // namespace

arrow::Result<GroupStateTimeout> ParseGroupStateTimeout(const std::string& name) {
  const std::string lower = AsciiLower(name);
  if (lower == "notimeout") return GroupStateTimeout::kNone;
  if (lower == "processingtimetimeout") return GroupStateTimeout::kProcessingTime;
  if (lower == "eventtimetimeout") return GroupStateTimeout::kEventTime;
  return IllegalArgument("Unknown GroupStateTimeout '" + name +
                         "': use NoTimeout, ProcessingTimeTimeout or EventTimeTimeout.");
}

GroupState::GroupState(std::shared_ptr<arrow::StructScalar> state, bool timed_out,
                       GroupStateTimeout timeout, int64_t processing_time_ms,
                       std::optional<int64_t> watermark_ms)
    : state_(std::move(state)),
      timed_out_(timed_out),
      timeout_(timeout),
      processing_time_ms_(processing_time_ms),
      watermark_ms_(watermark_ms) {}

arrow::Result<std::shared_ptr<arrow::StructScalar>> GroupState::get() const {
  if (state_ == nullptr) {
    return SparkError("NO_SUCH_ELEMENT",
                      "State is either not defined or has already been removed");
  }
  return state_;
}

arrow::Status GroupState::update(std::shared_ptr<arrow::StructScalar> state) {
  if (state == nullptr) return IllegalArgument("'null' is not a valid state value");
  state_ = std::move(state);
  updated_ = true;
  removed_ = false;
  return arrow::Status::OK();
}

void GroupState::remove() {
  state_ = nullptr;
  removed_ = true;
  updated_ = false;
  timeout_timestamp_ms_.reset();
}

arrow::Status GroupState::setTimeoutDuration(int64_t duration_ms) {
  if (timeout_ != GroupStateTimeout::kProcessingTime) {
    return UnsupportedOperation(
        "Cannot set timeout duration without enabling processing time timeout in "
        "[map|flatMap]GroupsWithState");
  }
  if (duration_ms <= 0) return IllegalArgument("Timeout duration must be positive");
  timeout_timestamp_ms_ = processing_time_ms_ + duration_ms;
  return arrow::Status::OK();
}

arrow::Status GroupState::setTimeoutDuration(const std::string& duration) {
  ARROW_ASSIGN_OR_RAISE(int64_t ms, ParseIntervalMs(duration, "setTimeoutDuration"));
  return setTimeoutDuration(ms);
}

arrow::Status GroupState::setTimeoutTimestamp(int64_t timestamp_ms) {
  if (timeout_ != GroupStateTimeout::kEventTime) {
    return UnsupportedOperation(
        "Cannot set timeout timestamp without enabling event time timeout in "
        "[map|flatMap]GroupsWithState");
  }
  if (timestamp_ms < 0) return IllegalArgument("Timeout timestamp must be positive");
  if (watermark_ms_ && timestamp_ms < *watermark_ms_) {
    return IllegalArgument("Timeout timestamp (" + std::to_string(timestamp_ms) +
                           ") cannot be earlier than the current watermark (" +
                           std::to_string(*watermark_ms_) + ")");
  }
  timeout_timestamp_ms_ = timestamp_ms;
  return arrow::Status::OK();
}

arrow::Result<int64_t> GroupState::getCurrentWatermarkMs() const {
  if (!watermark_ms_) {
    return UnsupportedOperation(
        "Cannot get event time watermark timestamp without setting watermark before "
        "[map|flatMap]GroupsWithState");
  }
  return *watermark_ms_;
}

}  // namespace sluice::plan
