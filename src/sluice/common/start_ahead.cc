#include "sluice/common/start_ahead.h"

#include <atomic>

#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

namespace sluice {

/// What the pool task shares with its owner: whoever claims the work first does it.
struct StartAhead::Shared {
  std::function<arrow::Status()> work;
  std::atomic<bool> claimed{false};
  arrow::Future<> done = arrow::Future<>::Make();
};

StartAhead::StartAhead(std::function<arrow::Status()> work, arrow::internal::Executor* executor)
    : shared_(std::make_shared<Shared>()) {
  shared_->work = std::move(work);
  // Not handed over (the pool is shutting down), the work is left to Finish().
  (void)executor->Spawn([shared = shared_] {
    if (!shared->claimed.exchange(true)) shared->done.MarkFinished(shared->work());
  });
}

StartAhead::~StartAhead() {
  if (!finished_ && shared_->claimed.exchange(true)) shared_->done.Wait();
}

arrow::Status StartAhead::Finish() {
  if (!finished_) {
    finished_ = shared_->claimed.exchange(true) ? shared_->done.status() : shared_->work();
  }
  return *finished_;
}

}  // namespace sluice
