// transformWithState's stateful processor (Spark 4.0): per grouping key, state variables
// declared by name (value, list and map state, each with an optional time to live) and timers
// in processing or event time, handled by a user's StatefulProcessor.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/scalar.h>
#include <arrow/type_fwd.h>

namespace sluice::plan {

/// TimeMode: what the processor's timers and TTLs follow.
enum class TimeMode { kNone, kProcessingTime, kEventTime };

/// Parses PySpark's TimeMode names (None, ProcessingTime, EventTime; case-insensitive).
arrow::Result<TimeMode> ParseTimeMode(const std::string& name);

/// The times of the batch a call runs in.
struct TimerValues {
  int64_t current_processing_time_ms = 0;
  /// nullopt when the query has no watermark.
  std::optional<int64_t> current_watermark_ms;
};

/// The timer a handleExpiredTimer call is for.
struct ExpiredTimerInfo {
  int64_t expiry_time_ms = 0;
};

/// A state row: a struct of the variable's schema.
using StateRow = std::shared_ptr<arrow::StructScalar>;

/// One value per grouping key. Operates on the key of the call it is used in.
class ValueState {
 public:
  virtual ~ValueState() = default;
  virtual arrow::Result<bool> exists() = 0;
  /// The value, or null when there is none (or it expired).
  virtual arrow::Result<StateRow> get() = 0;
  virtual arrow::Status update(const StateRow& value) = 0;
  virtual arrow::Status clear() = 0;
};

/// A list of values per grouping key.
class ListState {
 public:
  virtual ~ListState() = default;
  virtual arrow::Result<bool> exists() = 0;
  /// The values, in the order they were added (expired ones left out).
  virtual arrow::Result<std::vector<StateRow>> get() = 0;
  /// Replaces the list.
  virtual arrow::Status put(const std::vector<StateRow>& values) = 0;
  virtual arrow::Status appendValue(const StateRow& value) = 0;
  virtual arrow::Status appendList(const std::vector<StateRow>& values) = 0;
  virtual arrow::Status clear() = 0;
};

/// A map of user keys to values per grouping key.
class MapState {
 public:
  virtual ~MapState() = default;
  virtual arrow::Result<bool> exists() = 0;
  /// The value of `key`, or null when absent (or expired).
  virtual arrow::Result<StateRow> getValue(const StateRow& key) = 0;
  virtual arrow::Result<bool> containsKey(const StateRow& key) = 0;
  virtual arrow::Status updateValue(const StateRow& key, const StateRow& value) = 0;
  virtual arrow::Status removeKey(const StateRow& key) = 0;
  /// The entries, in no particular order.
  virtual arrow::Result<std::vector<std::pair<StateRow, StateRow>>> iterator() = 0;
  virtual arrow::Status clear() = 0;
};

/// What a processor declares its state with and sets timers through; given to init().
class StatefulProcessorHandle {
 public:
  virtual ~StatefulProcessorHandle() = default;
  /// The variables: by a name unique in the processor, with the schema of their rows and a
  /// time to live in milliseconds of processing time (nullopt: forever).
  virtual arrow::Result<std::shared_ptr<ValueState>> getValueState(
      const std::string& name, std::shared_ptr<arrow::Schema> schema,
      std::optional<int64_t> ttl_ms = std::nullopt) = 0;
  virtual arrow::Result<std::shared_ptr<ListState>> getListState(
      const std::string& name, std::shared_ptr<arrow::Schema> schema,
      std::optional<int64_t> ttl_ms = std::nullopt) = 0;
  virtual arrow::Result<std::shared_ptr<MapState>> getMapState(
      const std::string& name, std::shared_ptr<arrow::Schema> key_schema,
      std::shared_ptr<arrow::Schema> value_schema,
      std::optional<int64_t> ttl_ms = std::nullopt) = 0;
  /// Timers of the current key, at times in the time mode's clock.
  virtual arrow::Status registerTimer(int64_t expiry_time_ms) = 0;
  virtual arrow::Status deleteTimer(int64_t expiry_time_ms) = 0;
  virtual arrow::Result<std::vector<int64_t>> listTimers() = 0;
};

/// The user's logic. One instance serves the whole query: init() runs at the start of each
/// micro-batch (variables obtained there are valid during that batch), then the handlers run
/// one call at a time, each for one key.
class StatefulProcessor {
 public:
  virtual ~StatefulProcessor() = default;
  virtual arrow::Status init(StatefulProcessorHandle& handle, TimeMode time_mode) = 0;
  /// The key's rows of this batch; returns the rows to emit (null for none).
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const TimerValues& timer_values) = 0;
  /// The first batch of a query given an initial state: the key's rows of it, before any
  /// input of the key is handled.
  virtual arrow::Status handleInitialState(const StateRow& key,
                                           const std::shared_ptr<arrow::RecordBatch>& rows,
                                           const TimerValues& timer_values) {
    return arrow::Status::OK();
  }
  /// A timer of the key expired (the timer is gone once this returns).
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleExpiredTimer(
      const StateRow& key, const TimerValues& timer_values, const ExpiredTimerInfo& info) {
    return nullptr;
  }
  /// The end of each micro-batch.
  virtual void close() {}
};

}  // namespace sluice::plan
