#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/api/data_source_settings.h"
#include "sluice/api/dataframe.h"
#include "sluice/common/clock.h"
#include "sluice/execution/crash_point.h"
#include "sluice/execution/streaming_query.h"
#include "sluice/execution/trigger.h"

namespace sluice::sinks {
class ForeachWriter;
class StreamSink;
}  // namespace sluice::sinks

namespace sluice {

using execution::StreamingQuery;
using execution::Trigger;

/// foreachBatch's function: the rows of one micro-batch as a DataFrame, and its batch id. An
/// error fails the batch and stops the query.
using ForeachBatchFunction = std::function<arrow::Status(const DataFrame& batch, int64_t id)>;

/// Streaming writes, as PySpark's DataStreamWriter:
/// df.writeStream().format("parquet").option("checkpointLocation", ckpt).trigger(...)
///   .start(out). Formats: parquet (the default, or spark.sql.sources.default), json, csv,
/// orc, text, console, memory, noop. Builder calls never fail; start() reports every error.
/// A value object.
class DataStreamWriter : public WriterSettings<DataStreamWriter> {
 public:
  explicit DataStreamWriter(DataFrame df);

  /// append (the default), complete, update.
  DataStreamWriter& outputMode(const std::string& mode);
  DataStreamWriter& trigger(Trigger trigger);
  /// trigger(processingTime="2 seconds").
  DataStreamWriter& trigger(const std::string& processing_time);
  DataStreamWriter& queryName(const std::string& name);
  /// Calls `function` with every micro-batch instead of writing to a sink.
  DataStreamWriter& foreachBatch(ForeachBatchFunction function);
  /// Hands every row to `writer` (open, process, close per batch).
  DataStreamWriter& foreach(std::shared_ptr<sinks::ForeachWriter> writer);

  /// Writes to a sink object made by the caller (e.g. a memory sink over a table that
  /// outlives the query, as the test DSL keeps one across restarts). Called at each start().
  DataStreamWriter& sink(std::function<std::unique_ptr<sinks::StreamSink>()> make_sink);

  /// Tests: the clock the triggers wait on (a ManualClock), instead of the system clock.
  DataStreamWriter& clock(std::shared_ptr<Clock> clock);
  /// Tests: kills the query at chosen steps of the batch loop.
  DataStreamWriter& crashHook(execution::CrashHook hook);

  /// Starts the query. Errors: the DataFrame's analysis error, WRITE_STREAM_NOT_ALLOWED on a
  /// batch DataFrame, an output mode or operation the query cannot run, a missing
  /// checkpointLocation (_LEGACY_ERROR_TEMP_1298), bad sink options, a checkpoint that is in
  /// use, corrupt, or from another query shape.
  arrow::Result<std::shared_ptr<StreamingQuery>> start() const;
  /// start() writing to `path` (file sinks).
  arrow::Result<std::shared_ptr<StreamingQuery>> start(const std::string& path) const;
  /// start() writing to the named Delta table of the warehouse, created by the first batch if
  /// it does not exist (named tables are Delta tables; another format is refused).
  arrow::Result<std::shared_ptr<StreamingQuery>> toTable(const std::string& name) const;

 private:
  DataFrame df_;
  std::string output_mode_ = "append";
  Trigger trigger_;
  arrow::Status trigger_error_;
  std::optional<std::string> query_name_;
  ForeachBatchFunction foreach_batch_;
  std::shared_ptr<sinks::ForeachWriter> foreach_writer_;
  std::function<std::unique_ptr<sinks::StreamSink>()> make_sink_;
  std::shared_ptr<Clock> clock_;
  execution::CrashHook crash_hook_;
};

}  // namespace sluice
