// The foreach streaming sink (Spark's ForeachWriterTable): hands every row of every batch to a
// user's writer, bracketed by open and close calls.
#pragma once

#include <cstdint>
#include <memory>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/sinks/foreach/row.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// What a user implements to write rows somewhere (Spark's ForeachWriter). For each batch the
/// sink calls Open once, then Process for each row if Open returned true, then Close, all from
/// the query's batch loop thread. Delivery is at-least-once: after a failure the same batch id
/// comes again with the same rows, so a writer that must not store them twice remembers the
/// epochs it committed and returns false from Open for them.
class ForeachWriter {
 public:
  virtual ~ForeachWriter() = default;

  /// Starts writing partition `partition_id` (always 0: a batch is one partition here) of
  /// epoch `epoch_id` (the batch id). false skips the batch's rows; Close is still called.
  /// An error fails the batch and Close is not called.
  virtual arrow::Result<bool> Open(int64_t partition_id, int64_t epoch_id) = 0;
  /// Writes one row; the view is valid during the call only. An error stops the batch, is
  /// handed to Close and fails the query.
  virtual arrow::Status Process(const Row& row) = 0;
  /// Ends the batch: `error` is OK when every row was processed, the error of Process, or
  /// _LEGACY_ERROR_TEMP_2256 ("aborted due to a task failure") when computing the rows failed.
  /// An error returned here fails a batch that had none.
  virtual arrow::Status Close(const arrow::Status& error) = 0;
};

/// The sink of writeStream.foreach(writer), for every output mode. numOutputRows counts the
/// rows of each batch, processed or skipped. Errors of the writer that carry no Spark error
/// class fail the query as FOREACH_USER_FUNCTION_ERROR with the writer's message as reason;
/// classed ones pass through unchanged.
std::unique_ptr<StreamSink> MakeForeachSink(std::shared_ptr<ForeachWriter> writer);

}  // namespace sluice::sinks
