// When a state store provider does its maintenance: the snapshot of the in-memory provider
// and the deletion of files no retained version needs. Spark runs maintenance on a timer
// thread every spark.sql.streaming.stateStore.maintenanceInterval; a provider here runs it at
// the first commit at or after each tick, on the thread that commits, so that maintenance
// never races the store's changes. A commit is the only moment anything changes, so nothing
// is lost by waiting for one.
#pragma once

#include <chrono>
#include <cstdint>

namespace sluice::state {

class MaintenanceSchedule {
 public:
  using Clock = std::chrono::steady_clock;

  /// The first maintenance is due `interval_ms` after construction, as Spark's timer first
  /// fires one interval after the first store is loaded; 0 makes every commit due.
  explicit MaintenanceSchedule(int64_t interval_ms)
      : interval_(std::chrono::milliseconds(interval_ms)), next_(Clock::now() + interval_) {}

  /// Whether maintenance is due now; when it is, the next one is due an interval from now.
  bool DueNow() {
    const Clock::time_point now = Clock::now();
    if (now < next_) return false;
    next_ = now + interval_;
    return true;
  }

 private:
  Clock::duration interval_;
  Clock::time_point next_;
};

}  // namespace sluice::state
