#include "sluice/common/clock.h"

#include <algorithm>

namespace sluice {

void CancelToken::Cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_.store(true, std::memory_order_release);
  }
  changed_.notify_all();
}

void CancelToken::SleepFor(std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait_for(lock, timeout, [&] { return cancelled(); });
}

int64_t SystemClock::NowMillis() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void SystemClock::WaitUntil(int64_t deadline_ms, const CancelToken& cancel) {
  for (int64_t now = NowMillis(); now < deadline_ms && !cancel.cancelled(); now = NowMillis()) {
    cancel.SleepFor(std::chrono::milliseconds(deadline_ms - now));
  }
}

int64_t ManualClock::NowMillis() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return now_ms_;
}

void ManualClock::WaitUntil(int64_t deadline_ms, const CancelToken& cancel) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (now_ms_ >= deadline_ms) return;
  auto entry = deadlines_.insert(deadline_ms);
  changed_.notify_all();
  // Cancellation is signalled on the token, not here: poll it at a short real-time interval.
  while (now_ms_ < deadline_ms && !cancel.cancelled()) {
    changed_.wait_for(lock, std::chrono::milliseconds(1));
  }
  deadlines_.erase(entry);
  changed_.notify_all();
}

void ManualClock::Advance(int64_t milliseconds) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    now_ms_ += milliseconds;
  }
  changed_.notify_all();
}

void ManualClock::SetTime(int64_t now_ms) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    now_ms_ = now_ms;
  }
  changed_.notify_all();
}

bool ManualClock::HasWaiterLocked() const {
  return !deadlines_.empty() && *deadlines_.rbegin() > now_ms_;
}

bool ManualClock::HasWaiter() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return HasWaiterLocked();
}

bool ManualClock::WaitForWaiter(std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return HasWaiterLocked(); });
}

}  // namespace sluice
