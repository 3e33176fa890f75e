#include "sluice/common/read_ahead.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <latch>
#include <limits>
#include <memory>
#include <thread>

#include <arrow/io/interfaces.h>
#include <arrow/util/byte_size.h>
#include <arrow/util/logging.h>
#include <arrow/util/thread_pool.h>

namespace sluice {

namespace {

int64_t BytesOf(const arrow::Result<std::shared_ptr<arrow::RecordBatch>>& result) {
  return result.ok() && *result != nullptr ? arrow::util::TotalBufferSize(**result) : 0;
}

int64_t ThreadCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

int PoolThreads() { return std::max(2, static_cast<int>(std::thread::hardware_concurrency())); }

/// A pool of `threads` workers that exit shuts down once every task queued on it has run,
/// joining them: a reader stopped during exit (one a static object holds) waits for its read
/// queued here, which a shutdown that drops the queue (the pool's own destructor) would never
/// run. Arrow wraps each task of its pools in a scope of OpenTelemetry's runtime context,
/// whose storage is a static made by the first task spawned in the process, and statics are
/// destroyed in the reverse order of their making: a pool made before that storage would join
/// its workers after the storage is gone, and a task still ending then (a read ahead whose
/// query stopped just before the exit) would leave its scope in freed memory. One empty task
/// spawned on Arrow's CPU pool first makes the storage.
class PoolJoinedAtExit {
 public:
  explicit PoolJoinedAtExit(int threads) {
    ARROW_CHECK_OK(arrow::internal::GetCpuThreadPool()->Spawn([] {}));
    pool_ = arrow::internal::ThreadPool::Make(threads).ValueOrDie();
  }
  ~PoolJoinedAtExit() { ARROW_UNUSED(pool_->Shutdown(/*wait=*/true)); }
  PoolJoinedAtExit(const PoolJoinedAtExit&) = delete;
  PoolJoinedAtExit& operator=(const PoolJoinedAtExit&) = delete;

  arrow::internal::ThreadPool* get() const { return pool_.get(); }
  arrow::internal::ThreadPool* operator->() const { return pool_.get(); }

 private:
  std::shared_ptr<arrow::internal::ThreadPool> pool_;
};

/// Starts every worker `pool` may have, from this thread. A pool starts a worker when a task
/// comes and none is free, on the thread that spawned the task, and a thread starts at the
/// priority of the thread that started it: a task of BackgroundPool() spawning onto another
/// pool (a decode handed over to Arrow's I/O pool, Arrow's own reads) would leave that pool a
/// worker of the lowest priority for good, and the query's work running on it.
void StartEveryWorker(arrow::internal::ThreadPool* pool) {
  // Tasks that last until all are spawned: each spawn then finds no worker free and starts
  // one, up to the pool's capacity.
  auto spawned = std::make_shared<std::latch>(1);
  for (int i = 0; i < pool->GetCapacity(); ++i) {
    if (!pool->Spawn([spawned] { spawned->wait(); }).ok()) break;
  }
  spawned->count_down();
}

/// Runs its tasks on threads of the lowest priority (nice 19), which only ever run such tasks:
/// a thread may always lower its own priority, but raising it again takes a privilege. Four
/// threads a core: a read that waits for a thread here waits behind reads of the lowest
/// priority, which is long on a busy machine, and such a wait is what delays a file decoded
/// ahead whose turn came before its first read started (Reschedule moves the reads after it).
/// The process's other pools get all their workers first (StartEveryWorker), from the thread
/// that first asks for this pool, which runs at the process's priority.
class BackgroundExecutor final : public arrow::internal::Executor {
 public:
  BackgroundExecutor() : pool_(4 * PoolThreads()) {
    StartEveryWorker(arrow::internal::GetCpuThreadPool());
    StartEveryWorker(
        static_cast<arrow::internal::ThreadPool*>(arrow::io::default_io_context().executor()));
    StartEveryWorker(static_cast<arrow::internal::ThreadPool*>(PipelinePool()));
  }

  int GetCapacity() override { return pool_->GetCapacity(); }
  bool OwnsThisThread() override { return pool_->OwnsThisThread(); }
  void WaitForIdle() { pool_->WaitForIdle(); }

 protected:
  arrow::Status SpawnReal(arrow::internal::TaskHints hints,
                          arrow::internal::FnOnce<void()> task, arrow::StopToken stop_token,
                          StopCallback&& stop_callback) override {
    return pool_->Spawn(
        hints,
        [task = std::move(task)]() mutable {
          thread_local bool lowered = false;
          if (!lowered) {
            // Best effort: where it fails, the thread keeps the process's priority.
            setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
            lowered = true;
          }
          std::move(task)();
        },
        std::move(stop_token), std::move(stop_callback));
  }

 private:
  PoolJoinedAtExit pool_;
};

}  // namespace

void BatchReadAhead::Start() {
  std::lock_guard lock(mutex_);
  StartLocked();
}

void BatchReadAhead::Reschedule(arrow::internal::Executor* executor, ReadAheadLimit limit) {
  std::lock_guard lock(mutex_);
  executor_ = executor;
  limit_ = limit;
  StartLocked();
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> BatchReadAhead::Next() {
  std::unique_lock lock(mutex_);
  StartLocked();
  changed_.wait(lock, [&] { return !ready_.empty() || !producing_; });
  if (ready_.empty()) return nullptr;  // stopped, or past the end
  Ready ready = std::move(ready_.front());
  ready_.pop_front();
  ready_bytes_ -= ready.bytes;
  StartLocked();
  return std::move(ready.result);
}

void BatchReadAhead::Stop() {
  std::unique_lock lock(mutex_);
  ended_ = true;
  changed_.wait(lock, [&] { return !producing_; });
  ready_.clear();
  ready_bytes_ = 0;
}

void BatchReadAhead::StartLocked() {
  if (producing_ || ended_ || FullLocked()) return;
  arrow::internal::Executor* executor = executor_;
  arrow::Status spawned = executor->Spawn([this, executor] { Produce(executor); });
  if (!spawned.ok()) {
    // Comes out of Next() after the batches read before.
    ready_.push_back({std::move(spawned), 0});
    ended_ = true;
    return;
  }
  producing_ = true;
}

void BatchReadAhead::Produce(arrow::internal::Executor* executor) {
  while (true) {
    const int64_t cpu_before = ThreadCpuNanos();
    auto result = read_();
    read_cpu_nanos_.fetch_add(ThreadCpuNanos() - cpu_before, std::memory_order_relaxed);
    std::lock_guard lock(mutex_);
    if (!result.ok() || *result == nullptr) ended_ = true;
    const bool bounded = limit_.bytes != std::numeric_limits<int64_t>::max();
    const int64_t bytes = bounded ? BytesOf(result) : 0;
    ready_bytes_ += bytes;
    ready_.push_back({std::move(result), bytes});
    const bool stop = ended_ || FullLocked() || executor != executor_;
    if (stop) {
      producing_ = false;
      // Rescheduled: the reads go on where they now belong.
      if (executor != executor_) StartLocked();
    }
    // Notified under the lock: once producing_ is false, Stop() may return and destroy this.
    changed_.notify_all();
    if (stop) return;
  }
}

arrow::internal::Executor* PipelinePool() {
  static const PoolJoinedAtExit pool(PoolThreads());
  return pool.get();
}

namespace {

BackgroundExecutor* TheBackgroundExecutor() {
  static BackgroundExecutor executor;  // joins its workers at exit, as the pipeline pool does
  return &executor;
}

}  // namespace

arrow::internal::Executor* BackgroundPool() { return TheBackgroundExecutor(); }

void WaitForPoolsIdle() {
  // The background pool first: made here when nothing used it yet, it starts the workers of
  // the other pools (StartEveryWorker), whose tasks the waits below then see end.
  BackgroundExecutor* background = TheBackgroundExecutor();
  // Arrow's CPU and I/O pools (ThreadPools both), then the engine's own.
  arrow::internal::GetCpuThreadPool()->WaitForIdle();
  static_cast<arrow::internal::ThreadPool*>(arrow::io::default_io_context().executor())
      ->WaitForIdle();
  static_cast<arrow::internal::ThreadPool*>(PipelinePool())->WaitForIdle();
  background->WaitForIdle();
}

}  // namespace sluice
