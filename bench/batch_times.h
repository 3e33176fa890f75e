// A query listener that remembers when each batch of a benchmarked stream finished.
#pragma once

#include <chrono>
#include <mutex>
#include <vector>

#include "sluice/execution/query_listener.h"

namespace sluice::bench {

/// Counts batches and remembers when each finished. Thread-safe.
class BatchTimes final : public execution::StreamingQueryListener {
 public:
  void onQueryProgress(const execution::QueryProgressEvent&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    times_.push_back(std::chrono::steady_clock::now());
  }
  std::vector<std::chrono::steady_clock::time_point> times() {
    std::lock_guard<std::mutex> lock(mutex_);
    return times_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::chrono::steady_clock::time_point> times_;
};

}  // namespace sluice::bench
