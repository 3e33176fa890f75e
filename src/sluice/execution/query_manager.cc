#include "sluice/execution/query_manager.h"

#include <algorithm>
#include <chrono>

#include "sluice/common/errors.h"

namespace sluice::execution {

std::vector<std::shared_ptr<StreamingQuery>> StreamingQueryManager::active() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<StreamingQuery>> queries;
  for (const auto& [id, entry] : active_) {
    queries.push_back(entry.query);
  }
  return queries;
}

std::shared_ptr<StreamingQuery> StreamingQueryManager::get(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = active_.find(id);
  return it == active_.end() ? nullptr : it->second.query;
}

arrow::Status StreamingQueryManager::awaitAnyTermination() {
  std::unique_lock<std::mutex> lock(mutex_);
  terminated_changed_.wait(lock, [&] { return last_terminated_.has_value(); });
  return *last_terminated_;
}

arrow::Result<bool> StreamingQueryManager::awaitAnyTermination(int64_t timeout_ms) {
  if (timeout_ms < 0) {
    return arrow::Status::Invalid("Timeout for awaitAnyTermination can't be negative: ",
                                  timeout_ms);
  }
  std::unique_lock<std::mutex> lock(mutex_);
  bool done = terminated_changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                           [&] { return last_terminated_.has_value(); });
  if (!done) return false;
  ARROW_RETURN_NOT_OK(*last_terminated_);
  return true;
}

void StreamingQueryManager::resetTerminated() {
  std::lock_guard<std::mutex> lock(mutex_);
  last_terminated_.reset();
}

void StreamingQueryManager::addListener(std::shared_ptr<StreamingQueryListener> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listeners_.push_back(std::move(listener));
}

void StreamingQueryManager::removeListener(
    const std::shared_ptr<StreamingQueryListener>& listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listeners_.erase(std::remove(listeners_.begin(), listeners_.end(), listener),
                   listeners_.end());
}

std::vector<std::shared_ptr<StreamingQueryListener>> StreamingQueryManager::listListeners()
    const {
  std::lock_guard<std::mutex> lock(mutex_);
  return listeners_;
}

arrow::Status StreamingQueryManager::Register(const std::shared_ptr<StreamingQuery>& query,
                                              const std::string& id,
                                              const std::optional<std::string>& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (active_.count(id) != 0) {
    return SparkError("CONCURRENT_QUERY",
                      "Cannot start query with id " + id +
                          " as another query with same id is already active. Perhaps you are "
                          "attempting to restart a query from checkpoint that is already "
                          "active.");
  }
  if (name) {
    for (const auto& [other_id, entry] : active_) {
      if (entry.name == name) {
        return SparkError("DUPLICATE_QUERY_NAME",
                          "Cannot start query with name " + *name +
                              " as a query with that name is already active in this "
                              "SparkSession.");
      }
    }
  }
  active_[id] = Active{query, name};
  return arrow::Status::OK();
}

void StreamingQueryManager::Unregister(const std::string& id, const arrow::Status& error) {
  std::shared_ptr<StreamingQuery> released;  // dropped outside the lock
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = active_.find(id);
    if (it != active_.end()) {
      released = std::move(it->second.query);
      active_.erase(it);
    }
    if (!last_terminated_) last_terminated_ = error;
  }
  terminated_changed_.notify_all();
}

void StreamingQueryManager::Post(const QueryStartedEvent& event) const {
  for (const auto& listener : listListeners()) listener->onQueryStarted(event);
}

void StreamingQueryManager::Post(const QueryProgressEvent& event) const {
  for (const auto& listener : listListeners()) listener->onQueryProgress(event);
}

void StreamingQueryManager::Post(const QueryIdleEvent& event) const {
  for (const auto& listener : listListeners()) listener->onQueryIdle(event);
}

void StreamingQueryManager::Post(const QueryTerminatedEvent& event) const {
  for (const auto& listener : listListeners()) listener->onQueryTerminated(event);
}

}  // namespace sluice::execution
