// What the micro-batch loop asks of every streaming sink.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <arrow/status.h>

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/output_mode.h"

namespace sluice::sinks {

using plan::OutputMode;

/// A running sink of one query, called from the batch loop thread only.
class StreamSink {
 public:
  virtual ~StreamSink() = default;

  /// The progress report's sink "description", e.g. "FileSink[file:/data/out]", "MemorySink".
  virtual std::string Describe() const = 0;
  /// Writes the rows of batch `batch_id`, pulling `data` to its end. Must be idempotent: after
  /// a crash the same batch id comes again with the same rows, and the sink must not write
  /// them twice (or, for at-least-once sinks, says so in its documentation).
  virtual arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                                 OutputMode mode) = 0;
  /// False for a sink that does nothing with the rows it pulls: a stateless query then does not
  /// run ahead of it (physical/read_ahead_stream.h), which would only move its batches from
  /// one thread to another.
  virtual bool WorksOnRows() const { return true; }
  /// Rows written by the last AddBatch, or -1 where Spark reports -1 (v1 sinks: file,
  /// foreachBatch).
  virtual int64_t last_output_rows() const { return -1; }
  /// The progress report's sink "metrics".
  virtual std::map<std::string, std::string> Metrics() const { return {}; }
  /// The query stopped; release resources. Not called after a simulated crash.
  virtual void Stop() {}
};

}  // namespace sluice::sinks
