#include "sluice/delta/parallel_tasks.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sluice::delta {

size_t Cores() { return std::max(1u, std::thread::hardware_concurrency()); }

arrow::Status RunInParallel(const std::vector<std::function<arrow::Status()>>& tasks) {
  std::vector<arrow::Status> statuses(tasks.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t i = next++; i < tasks.size() && !failed; i = next++) {
      statuses[i] = tasks[i]();
      if (!statuses[i].ok()) failed = true;
    }
  };
  const size_t threads = std::min(tasks.size(), Cores());
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (auto& helper : helpers) helper.join();
  for (const auto& status : statuses) ARROW_RETURN_NOT_OK(status);
  return arrow::Status::OK();
}

}  // namespace sluice::delta
