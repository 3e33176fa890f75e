#include "sluice/common/read_ahead.h"

#include <algorithm>
#include <thread>

#include <arrow/util/thread_pool.h>

namespace sluice {

arrow::Result<std::shared_ptr<arrow::RecordBatch>> BatchReadAhead::Next() {
  std::unique_lock lock(mutex_);
  ARROW_RETURN_NOT_OK(StartLocked());
  changed_.wait(lock, [&] { return !ready_.empty() || !producing_; });
  if (ready_.empty()) return nullptr;  // stopped, or past the end
  auto result = std::move(ready_.front());
  ready_.pop_front();
  ARROW_RETURN_NOT_OK(StartLocked());
  return result;
}

void BatchReadAhead::Stop() {
  std::unique_lock lock(mutex_);
  ended_ = true;
  changed_.wait(lock, [&] { return !producing_; });
  ready_.clear();
}

arrow::Status BatchReadAhead::StartLocked() {
  if (producing_ || ended_ || ready_.size() >= depth_) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(executor_->Spawn([this] { Produce(); }));
  producing_ = true;
  return arrow::Status::OK();
}

void BatchReadAhead::Produce() {
  while (true) {
    auto result = read_();
    std::lock_guard lock(mutex_);
    if (!result.ok() || *result == nullptr) ended_ = true;
    ready_.push_back(std::move(result));
    const bool stop = ended_ || ready_.size() >= depth_;
    if (stop) producing_ = false;
    // Notified under the lock: once producing_ is false, Stop() may return and destroy this.
    changed_.notify_all();
    if (stop) return;
  }
}

arrow::internal::Executor* PipelinePool() {
  // Eternal, as Arrow's own pools: not joined at exit, where a query still running could be
  // waiting for it.
  static const std::shared_ptr<arrow::internal::ThreadPool> pool =
      arrow::internal::ThreadPool::MakeEternal(
          std::max(2, static_cast<int>(std::thread::hardware_concurrency())))
          .ValueOrDie();
  return pool.get();
}

}  // namespace sluice
