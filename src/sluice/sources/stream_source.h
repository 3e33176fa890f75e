// The incremental counterpart of plan::DataSource: what the micro-batch loop asks of every
// streaming source (Spark's SupportsAdmissionControl MicroBatchStream, reduced to one
// interface). Offsets are JSON texts, written verbatim as lines of offsets/<N> and shown parsed
// in progress reports, so each source picks Spark's shape for its offsets.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/common/clock.h"
#include "sluice/common/session_config.h"
#include "sluice/formats/file_format.h"
#include "sluice/plan/data_source.h"
#include "sluice/sources/source_backlog.h"

namespace sluice::sources {

/// What a running source may use. Valid for the life of the source.
struct SourceContext {
  /// The source's private folder in the checkpoint, <ckpt>/sources/<i> (may not exist yet).
  std::string metadata_path;
  const Clock* clock = nullptr;
  const SessionConfig* config = nullptr;
  formats::FormatContext format_context;
};

/// How much the next batch may take.
enum class ReadLimitMode {
  /// The source's own limits (maxFilesPerTrigger, rowsPerBatch, ...).
  kRespectLimits,
  /// Everything available (Trigger.Once).
  kAll,
};

/// A running streaming source, made by a StreamSourceProvider when a query starts. Called from
/// the query's batch loop thread only.
class StreamSource {
 public:
  virtual ~StreamSource() = default;

  virtual std::shared_ptr<arrow::Schema> schema() const = 0;
  /// The progress report's "description", e.g. "FileStreamSource[file:/data/in]".
  virtual std::string Describe() const = 0;

  /// The end offset of the next batch, which starts after `start` (nullopt: nothing processed
  /// yet). Returns `start` again, or nullopt when there was never any data, when nothing new
  /// is available. Under kRespectLimits the batch honours the source's rate limits.
  virtual arrow::Result<std::optional<std::string>> LatestOffset(
      const std::optional<std::string>& start, ReadLimitMode mode) = 0;
  /// Trigger.AvailableNow: fixes the end at what is available now; later LatestOffset calls
  /// never go past it.
  virtual arrow::Status PrepareForAvailableNow() { return arrow::Status::OK(); }
  /// The rows after `start` up to and including `end`. Deterministic: a batch re-run after a
  /// restart gets the same rows. Each call starts an independent read.
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) = 0;
  /// GetBatch for a query that reads only `read` of schema() (its columns read, a struct
  /// pruned to its fields read; plan::ReadSchema): a source that can skip the rest (columnar
  /// files) returns nulls in its place. By default, GetBatch.
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatchReading(
      const std::optional<std::string>& start, const std::string& end,
      const arrow::Schema& read) {
    return GetBatch(start, end);
  }
  /// Everything up to `end` is processed and committed: the source may forget it (file
  /// cleanSource, memory source trimming).
  virtual arrow::Status Commit(const std::string& end) { return arrow::Status::OK(); }
  /// The progress report's "latestOffset": the newest available offset regardless of rate
  /// limits, or nullopt where Spark reports null (file source).
  virtual std::optional<std::string> ReportLatestOffset() const { return std::nullopt; }
  /// The backlog fixed for this run and how much of it the batches planned so far admitted;
  /// nullopt when there is none or the offsets tell it (ReportLatestOffset).
  virtual std::optional<SourceBacklog> Backlog() const { return std::nullopt; }
  /// The progress report's per-source "metrics" (e.g. Kafka's offsets behind latest).
  virtual std::map<std::string, std::string> Metrics() const { return {}; }
  /// Releases connections and threads; the source is not used afterwards.
  virtual void Stop() {}
};

/// The plan leaf of readStream: describes a source (format, options, schema) and makes a
/// running StreamSource for each query start. Immutable; a batch read of it is refused.
class StreamSourceProvider : public plan::DataSource {
 public:
  bool is_streaming() const override { return true; }
  /// Fails: streaming sources run only through writeStream.start().
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

  /// Starts the source for a query. Errors name the bad option or path.
  virtual arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const = 0;
};

/// Spark's message for a batch action on a streaming DataFrame.
arrow::Status StreamingQueryMustUseWriteStream(const std::string& source_description);

}  // namespace sluice::sources
