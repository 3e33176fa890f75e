// What a running query's batch loop shares with the threads that watch it (awaitTermination,
// status, progress): one mutex, one condition variable.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include <arrow/status.h>

#include "sluice/common/clock.h"
#include "sluice/execution/progress.h"

namespace sluice::execution {

/// Thread-safe. The loop writes; any thread reads and waits.
class QueryState {
 public:
  explicit QueryState(int64_t recent_progress_limit) : recent_limit_(recent_progress_limit) {}

  void SetStatus(const std::string& message, bool data_available, bool trigger_active);
  StreamingQueryStatus status() const;

  void AddProgress(StreamingQueryProgress progress);
  std::optional<StreamingQueryProgress> last_progress() const;
  std::vector<StreamingQueryProgress> recent_progress() const;

  /// A trigger found no new data (or the loop ended): wakes processAllAvailable.
  void MarkNoNewData();
  /// processAllAvailable: waits until the loop reports no new data after this call, or the
  /// query ends. Returns the query's error if it failed.
  arrow::Status AwaitNoNewData();

  /// The loop ended: `error` is OK after a clean stop.
  void MarkTerminated(arrow::Status error);
  bool active() const;
  /// The error that ended the query (OK when none, or still running).
  arrow::Status error() const;
  /// Waits for the end; false when `timeout_ms` (negative: forever) passed first.
  bool AwaitTermination(int64_t timeout_ms) const;

  /// Cancelled by stop(): the loop's waits end early.
  CancelToken& cancel() { return cancel_; }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  StreamingQueryStatus status_;
  std::deque<StreamingQueryProgress> recent_;
  int64_t recent_limit_;
  std::optional<StreamingQueryProgress> last_;
  bool no_new_data_ = false;
  bool active_ = true;
  arrow::Status error_;
  CancelToken cancel_;
};

}  // namespace sluice::execution
