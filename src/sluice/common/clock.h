#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>

namespace sluice {

/// A flag one thread sets to make another stop waiting: a query's stop() cancels the waits of
/// its batch loop. Thread-safe.
class CancelToken {
 public:
  void Cancel();
  bool cancelled() const { return cancelled_.load(std::memory_order_acquire); }
  /// Sleeps up to `timeout` of real time, returning early once cancelled.
  void SleepFor(std::chrono::milliseconds timeout) const;

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
};

/// Where the batch loop reads time and waits for it: the system clock in production, a manual
/// clock in tests so that triggers run without sleeps. Implementations are thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Milliseconds since the Unix epoch.
  virtual int64_t NowMillis() const = 0;
  /// Blocks until NowMillis() >= deadline_ms or `cancel` is cancelled.
  virtual void WaitUntil(int64_t deadline_ms, const CancelToken& cancel) = 0;
};

/// Wall-clock time.
class SystemClock final : public Clock {
 public:
  int64_t NowMillis() const override;
  void WaitUntil(int64_t deadline_ms, const CancelToken& cancel) override;
};

/// Time that moves only when a test advances it (Spark's ManualClock). A test learns that the
/// query is blocked waiting for a future time with WaitForWaiter(), then advances the clock.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t start_ms = 0) : now_ms_(start_ms) {}

  int64_t NowMillis() const override;
  void WaitUntil(int64_t deadline_ms, const CancelToken& cancel) override;

  void Advance(int64_t milliseconds);
  void SetTime(int64_t now_ms);
  /// True while some thread waits in WaitUntil for a time still in the future.
  bool HasWaiter() const;
  /// Blocks (real time, up to `timeout`) until some thread waits in WaitUntil for a time still
  /// in the future; false on timeout.
  bool WaitForWaiter(std::chrono::milliseconds timeout) const;

 private:
  bool HasWaiterLocked() const;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  int64_t now_ms_;
  std::multiset<int64_t> deadlines_;
};

}  // namespace sluice
