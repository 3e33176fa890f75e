#include "sluice/execution/query_state.h"

#include <algorithm>
#include <chrono>

namespace sluice::execution {

void QueryState::SetStatus(const std::string& message, bool data_available,
                           bool trigger_active) {
  std::lock_guard<std::mutex> lock(mutex_);
  status_.message = message;
  status_.is_data_available = data_available;
  status_.is_trigger_active = trigger_active;
}

StreamingQueryStatus QueryState::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

void QueryState::AddProgress(StreamingQueryProgress progress) {
  std::lock_guard<std::mutex> lock(mutex_);
  last_ = progress;
  recent_.push_back(std::move(progress));
  while (static_cast<int64_t>(recent_.size()) > recent_limit_) recent_.pop_front();
}

std::optional<StreamingQueryProgress> QueryState::last_progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return last_;
}

std::vector<StreamingQueryProgress> QueryState::recent_progress() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {recent_.begin(), recent_.end()};
}

int64_t QueryState::BeginDataCheck() {
  std::lock_guard<std::mutex> lock(mutex_);
  return data_requests_;
}

void QueryState::MarkNoNewData(int64_t check) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    data_requests_answered_ = std::max(data_requests_answered_, check);
  }
  changed_.notify_all();
}

arrow::Status QueryState::AwaitNoNewData() {
  std::unique_lock<std::mutex> lock(mutex_);
  const int64_t request = ++data_requests_;
  changed_.wait(lock, [&] { return data_requests_answered_ >= request || !active_; });
  return error_;
}

void QueryState::MarkTerminated(arrow::Status error) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    active_ = false;
    error_ = std::move(error);
    status_.message = "Stopped";
    status_.is_data_available = false;
    status_.is_trigger_active = false;
  }
  changed_.notify_all();
}

bool QueryState::active() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_;
}

arrow::Status QueryState::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

bool QueryState::AwaitTermination(int64_t timeout_ms) const {
  std::unique_lock<std::mutex> lock(mutex_);
  if (timeout_ms < 0) {
    changed_.wait(lock, [&] { return !active_; });
    return true;
  }
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return !active_; });
}

}  // namespace sluice::execution
