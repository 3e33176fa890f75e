// Reading ahead: while the caller works on a batch, the next ones are produced on a
// thread pool. This is how a query that is one pipeline of operators puts a second core to
// use: a file scan decodes ahead of the query (formats/read_ahead_reader.h), and the stateless
// operators below a stateful one run ahead of it (physical/read_ahead_stream.h).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include <arrow/record_batch.h>
#include <arrow/result.h>

namespace arrow::internal {
class Executor;
}  // namespace arrow::internal

namespace sluice {

/// Calls `read` on `executor` ahead of Next(), keeping up to `depth` batches ready: a pool
/// task reads until that many wait, so a consumer faster than its input never leaves the
/// reads idle while it wakes up. `read` is called by one pool thread at a time, never
/// concurrently and never by the caller, and never again after it returned an error or the
/// end (nullptr). What it needs must outlive this object; destroying it (or Stop()) waits for
/// the read under way. Not thread-safe; one consumer calls Next().
///
/// A read must not wait for another task of its own executor: that could take every thread
/// of the pool and leave the task it waits for queued. So leaf reads (a file's batches) run
/// on Arrow's IO pool and reads that wait for them on the pipeline pool (PipelinePool()).
class BatchReadAhead {
 public:
  using Read = std::function<arrow::Result<std::shared_ptr<arrow::RecordBatch>>()>;

  BatchReadAhead(Read read, arrow::internal::Executor* executor, size_t depth = 2)
      : read_(std::move(read)), executor_(executor), depth_(depth) {}
  ~BatchReadAhead() { Stop(); }
  BatchReadAhead(const BatchReadAhead&) = delete;
  BatchReadAhead& operator=(const BatchReadAhead&) = delete;

  /// The next batch (nullptr at the end), or the error `read` returned in its place.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next();
  /// Waits for the read under way, if any; after it Next() returns the end and reads nothing.
  void Stop();

 private:
  /// The pool task: reads until `depth_` batches are ready, the end, an error or Stop().
  void Produce();
  /// Starts Produce() unless it runs, the reads ended or enough batches are ready.
  arrow::Status StartLocked();

  Read read_;
  arrow::internal::Executor* executor_;
  const size_t depth_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<arrow::Result<std::shared_ptr<arrow::RecordBatch>>> ready_;
  bool producing_ = false;
  /// `read` returned the end or an error, or Stop() was called: no read starts any more.
  bool ended_ = false;
};

/// The pool of reads that wait on leaf reads: as many threads as cores, at least two.
arrow::internal::Executor* PipelinePool();

}  // namespace sluice
