// Work a thread pool may start ahead of the thread that needs it done, which does it itself
// if no pool thread has started it by then: the wait never queues behind the pool's other
// tasks, so handing work ahead costs nothing when the pool is busy.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include <arrow/status.h>

namespace arrow::internal {
class Executor;
}  // namespace arrow::internal

namespace sluice {

class StartAhead {
 public:
  /// Hands `work` to `executor`. What it uses must outlive this object.
  StartAhead(std::function<arrow::Status()> work, arrow::internal::Executor* executor);
  /// Waits for the work if a pool thread started it; else it never runs.
  ~StartAhead();
  StartAhead(const StartAhead&) = delete;
  StartAhead& operator=(const StartAhead&) = delete;

  /// Does the work here unless a pool thread started it, then waits for it; its status.
  arrow::Status Finish();

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
  std::optional<arrow::Status> finished_;
};

}  // namespace sluice
