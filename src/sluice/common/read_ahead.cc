#include "sluice/common/read_ahead.h"

#include <algorithm>
#include <thread>

#include <arrow/util/thread_pool.h>

namespace sluice {

arrow::Result<std::shared_ptr<arrow::RecordBatch>> BatchReadAhead::Next() {
  if (done_) return nullptr;
  if (!pending_.is_valid()) ARROW_RETURN_NOT_OK(Start());
  auto read = std::move(pending_);
  pending_ = {};
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> result = read.result();
  if (!result.ok() || *result == nullptr) {
    done_ = true;
    return result;
  }
  ARROW_RETURN_NOT_OK(Start());
  return result;
}

void BatchReadAhead::Stop() {
  if (pending_.is_valid()) pending_.Wait();
  pending_ = {};
  done_ = true;
}

arrow::Status BatchReadAhead::Start() {
  ARROW_ASSIGN_OR_RAISE(pending_, executor_->Submit([this] { return read_(); }));
  return arrow::Status::OK();
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
