// Reading ahead: while the caller works on a batch, the next ones are produced on a
// thread pool. This is how a query that is one pipeline of operators puts a second core to
// use: a file scan decodes ahead of the query (formats/file_batch_reader.h), and the
// stateless operators below a stateful one run ahead of it (physical/read_ahead_stream.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>

#include <arrow/record_batch.h>
#include <arrow/result.h>

namespace arrow::internal {
class Executor;
}  // namespace arrow::internal

namespace sluice {

/// How much a read-ahead keeps ready at most: `batches`, and no more than `bytes` of them
/// (but always one).
struct ReadAheadLimit {
  size_t batches = 2;
  int64_t bytes = std::numeric_limits<int64_t>::max();
};

/// Calls `read` on `executor` ahead of Next(), keeping what `limit` allows ready: a pool
/// task reads until that much waits, so a consumer faster than its input never leaves the
/// reads idle while it wakes up. `read` is called by one pool thread at a time, never
/// concurrently and never by the caller, and never again after it returned an error or the
/// end (nullptr). What it needs must outlive this object; destroying it (or Stop()) waits for
/// the read under way. Not thread-safe; one consumer calls Next() (and Reschedule()).
///
/// A read must not wait for another task of its own executor: that could take every thread
/// of the pool and leave the task it waits for queued. So leaf reads (a file's batches) run
/// on Arrow's IO pool (or BackgroundPool()) and reads that wait for them on the pipeline pool
/// (PipelinePool()).
class BatchReadAhead {
 public:
  using Read = std::function<arrow::Result<std::shared_ptr<arrow::RecordBatch>>()>;

  BatchReadAhead(Read read, arrow::internal::Executor* executor, ReadAheadLimit limit = {})
      : read_(std::move(read)), executor_(executor), limit_(limit) {}
  ~BatchReadAhead() { Stop(); }
  BatchReadAhead(const BatchReadAhead&) = delete;
  BatchReadAhead& operator=(const BatchReadAhead&) = delete;

  /// Starts reading now rather than at the first Next().
  void Start();
  /// From now on reads run on `executor` under `limit`: a read under way elsewhere finishes
  /// there, and the next one starts on `executor`.
  void Reschedule(arrow::internal::Executor* executor, ReadAheadLimit limit);
  /// The next batch (nullptr at the end), or the error `read` returned in its place (or the
  /// executor's, when it could not start a read).
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next();
  /// Waits for the read under way, if any; after it Next() returns the end and reads nothing.
  void Stop();

  /// The CPU time the reads took so far (of the threads that made them).
  int64_t read_cpu_nanos() const { return read_cpu_nanos_.load(std::memory_order_relaxed); }

 private:
  /// The pool task on `executor`: reads until the limit is reached, the end, an error,
  /// Stop(), or a Reschedule() to another executor.
  void Produce(arrow::internal::Executor* executor);
  /// Starts Produce() unless it runs, the reads ended or enough batches are ready.
  void StartLocked();
  bool FullLocked() const {
    return ready_.size() >= limit_.batches || ready_bytes_ >= limit_.bytes;
  }

  Read read_;
  std::mutex mutex_;
  std::condition_variable changed_;
  arrow::internal::Executor* executor_;  // guarded by mutex_
  ReadAheadLimit limit_;                 // guarded by mutex_
  struct Ready {
    arrow::Result<std::shared_ptr<arrow::RecordBatch>> result;
    int64_t bytes;  // its buffers', counted only under a byte limit
  };
  std::deque<Ready> ready_;
  int64_t ready_bytes_ = 0;
  bool producing_ = false;
  /// `read` returned the end or an error, or Stop() was called: no read starts any more.
  bool ended_ = false;
  std::atomic<int64_t> read_cpu_nanos_{0};
};

/// The pool of reads that wait on leaf reads: as many threads as cores, at least two.
arrow::internal::Executor* PipelinePool();

/// The pool of leaf reads made before they are needed (the next file of a scan, decoded while
/// the query reads the one before it). Its threads run at the lowest priority: such a read
/// takes a core only when nothing else of the process (or the machine) wants it, so it never
/// slows the work it is ahead of.
arrow::internal::Executor* BackgroundPool();

/// Waits until no task runs on Arrow's CPU and I/O pools, PipelinePool() or BackgroundPool():
/// for a program that is about to exit (the test binaries, the soak's query processes, the
/// Python module before the interpreter goes). The pools themselves are joined at exit after
/// any task still running ends, and before the tracing context's storage that a task's end
/// uses is destroyed; waiting here before exit also keeps a task from running into the other
/// statics exit destroys, or into an interpreter already finalized.
void WaitForPoolsIdle();

}  // namespace sluice
