// Reading one batch ahead: while the caller works on a batch, the next one is produced on a
// thread pool. This is how a query that is one pipeline of operators puts a second core to
// use: a file scan decodes ahead of the query (formats/read_ahead_reader.h), and the stateless
// operators below a stateful one run ahead of it (physical/read_ahead_stream.h).
#pragma once

#include <functional>
#include <memory>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/util/future.h>

namespace arrow::internal {
class Executor;
}  // namespace arrow::internal

namespace sluice {

/// Calls `read` on `executor`, one call ahead of Next(). `read` is called by one pool thread
/// at a time, never concurrently and never by the caller, and never again after it returned
/// an error or the end (nullptr). What it needs must outlive this object; destroying it (or
/// Stop()) waits for the call under way. Not thread-safe; one consumer calls Next().
///
/// A read must not wait for another task of its own executor: that could take every thread
/// of the pool and leave the task it waits for queued. So leaf reads (a file's batches) run
/// on Arrow's IO pool and reads that wait for them on the pipeline pool (PipelinePool()).
class BatchReadAhead {
 public:
  using Read = std::function<arrow::Result<std::shared_ptr<arrow::RecordBatch>>()>;

  BatchReadAhead(Read read, arrow::internal::Executor* executor)
      : read_(std::move(read)), executor_(executor) {}
  ~BatchReadAhead() { Stop(); }
  BatchReadAhead(const BatchReadAhead&) = delete;
  BatchReadAhead& operator=(const BatchReadAhead&) = delete;

  /// The next batch (nullptr at the end), and the read of the one after it started.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next();
  /// Waits for the read under way, if any; after it Next() returns the end and reads nothing.
  void Stop();

 private:
  arrow::Status Start();

  Read read_;
  arrow::internal::Executor* executor_;
  arrow::Future<std::shared_ptr<arrow::RecordBatch>> pending_;
  bool done_ = false;
};

/// The pool of reads that wait on leaf reads: as many threads as cores, at least two.
arrow::internal::Executor* PipelinePool();

}  // namespace sluice
