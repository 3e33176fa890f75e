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

  /// The loop starts looking for new data; pass the result to MarkNoNewData if it finds none.
  int64_t BeginDataCheck();
  /// The check `check` (from BeginDataCheck) found no new data, or the loop ended: wakes the
  /// processAllAvailable calls made before that check began.
  void MarkNoNewData(int64_t check);
  /// processAllAvailable: waits until a check for new data that began after this call finds
  /// none, or the query ends. (A check already under way may have looked at the sources
  /// before data added just now, so its answer does not count.) Returns the query's error if
  /// it failed.
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
  /// processAllAvailable calls so far, and the newest of them a check without new data
  /// answered.
  int64_t data_requests_ = 0;
  int64_t data_requests_answered_ = 0;
  bool active_ = true;
  arrow::Status error_;
  CancelToken cancel_;
};

}  // namespace sluice::execution
