// The state a mapGroupsWithState / flatMapGroupsWithState function keeps per key: Spark's
// GroupState, with its state as a row (a struct scalar of the state schema) and its timeouts.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/scalar.h>

namespace sluice::plan {

/// GroupStateTimeout: when a key without new rows is called again.
enum class GroupStateTimeout {
  kNone,
  /// After a duration of processing time set by setTimeoutDuration.
  kProcessingTime,
  /// Once the watermark passes a time set by setTimeoutTimestamp.
  kEventTime,
};

/// Parses PySpark's GroupStateTimeout names (NoTimeout, ProcessingTimeTimeout,
/// EventTimeTimeout; case-insensitive); an unknown name fails naming it.
arrow::Result<GroupStateTimeout> ParseGroupStateTimeout(const std::string& name);

/// One key's state during one call of the function. Not thread-safe.
class GroupState {
 public:
  /// What the call knows: the key's state (null when it has none), whether the key timed out,
  /// the timeout kind, the batch's processing time and its watermark (nullopt without one).
  GroupState(std::shared_ptr<arrow::StructScalar> state, bool timed_out,
             GroupStateTimeout timeout, int64_t processing_time_ms,
             std::optional<int64_t> watermark_ms);

  /// Whether the key has a state.
  bool exists() const { return state_ != nullptr; }
  /// The state; fails when there is none.
  arrow::Result<std::shared_ptr<arrow::StructScalar>> get() const;
  /// The state, or null when there is none.
  const std::shared_ptr<arrow::StructScalar>& getOption() const { return state_; }
  /// Replaces the state; null is refused.
  arrow::Status update(std::shared_ptr<arrow::StructScalar> state);
  /// Drops the state (and any timeout).
  void remove();
  /// True when this call is for a key that timed out (and has no new rows).
  bool hasTimedOut() const { return timed_out_; }

  /// With processing-time timeouts: time the key out once `duration_ms` of processing time
  /// passed without new rows. Must be positive.
  arrow::Status setTimeoutDuration(int64_t duration_ms);
  /// setTimeoutDuration with a duration as text ("10 seconds", "1 hour").
  arrow::Status setTimeoutDuration(const std::string& duration);
  /// With event-time timeouts: time the key out once the watermark passes `timestamp_ms`,
  /// which must not be earlier than the current watermark.
  arrow::Status setTimeoutTimestamp(int64_t timestamp_ms);

  /// The batch's event-time watermark; fails when the query has none.
  arrow::Result<int64_t> getCurrentWatermarkMs() const;
  /// The batch's processing time (its trigger time).
  int64_t getCurrentProcessingTimeMs() const { return processing_time_ms_; }

  // What the call did, for the operator.
  bool updated() const { return updated_; }
  bool removed() const { return removed_; }
  /// The timeout set in this call, if any (a call that sets none clears the key's timeout).
  std::optional<int64_t> timeout_timestamp_ms() const { return timeout_timestamp_ms_; }

 private:
  std::shared_ptr<arrow::StructScalar> state_;
  bool timed_out_;
  GroupStateTimeout timeout_;
  int64_t processing_time_ms_;
  std::optional<int64_t> watermark_ms_;
  bool updated_ = false;
  bool removed_ = false;
  std::optional<int64_t> timeout_timestamp_ms_;
};

/// The function of flatMapGroupsWithState: called with a key (a struct of the grouping
/// columns), the key's new rows in this batch (none when it timed out) and its state; returns
/// the rows to emit, with the operator's output schema (null for none).
using FlatMapGroupsWithStateFunction =
    std::function<arrow::Result<std::shared_ptr<arrow::RecordBatch>>(
        const std::shared_ptr<arrow::StructScalar>& key,
        const std::shared_ptr<arrow::RecordBatch>& rows, GroupState& state)>;

}  // namespace sluice::plan
