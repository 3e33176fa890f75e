// The progress of a streaming query, in Spark's shapes: StreamingQueryProgress (one per
// micro-batch) and StreamingQueryStatus, with their JSON forms byte-compatible with Spark's
// `json` and `prettyJson` (field names and order, nulls, omitted empty maps, NaN and infinite
// rates omitted, numbers as Java prints them).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sluice/physical/stateful_context.h"
#include "sluice/sources/source_backlog.h"

namespace sluice::execution {

using physical::StateOperatorProgress;

/// One source's figures for a batch (Spark's SourceProgress).
struct SourceProgress {
  std::string description;
  /// Offsets as the JSON texts the source produced; nullopt prints as null.
  std::optional<std::string> start_offset;
  std::optional<std::string> end_offset;
  std::optional<std::string> latest_offset;
  int64_t num_input_rows = 0;
  double input_rows_per_second = 0;
  double processed_rows_per_second = 0;
  std::map<std::string, std::string> metrics;
  /// The source's own account of a fixed backlog (sources::SourceBacklog); not printed.
  std::optional<sources::SourceBacklog> backlog;
};

/// The sink's figures for a batch (Spark's SinkProgress); num_output_rows is -1 for sinks that
/// do not count.
struct SinkProgress {
  std::string description;
  int64_t num_output_rows = -1;
  std::map<std::string, std::string> metrics;
};

/// The report of one trigger (Spark's StreamingQueryProgress).
struct StreamingQueryProgress {
  std::string id;
  std::string run_id;
  /// The query name; nullopt prints as null.
  std::optional<std::string> name;
  /// When the trigger started, in milliseconds since the epoch (printed ISO 8601 UTC).
  int64_t timestamp_ms = 0;
  int64_t batch_id = 0;
  int64_t batch_duration_ms = 0;
  /// The durations of the phases of the trigger, by Spark's names (addBatch, commitOffsets,
  /// getBatch, latestOffset, queryPlanning, triggerExecution, walCommit), printed sorted.
  std::map<std::string, int64_t> duration_ms;
  /// avg, max, min, watermark as ISO 8601 UTC texts; omitted when empty.
  std::map<std::string, std::string> event_time;
  std::vector<StateOperatorProgress> state_operators;
  std::vector<SourceProgress> sources;
  SinkProgress sink;
  /// df.observe() results by name, each a JSON object text; omitted when empty.
  std::map<std::string, std::string> observed_metrics;

  /// Sums over the sources, as Spark derives them.
  int64_t num_input_rows() const;
  double input_rows_per_second() const;
  double processed_rows_per_second() const;

  /// Spark's `json`: compact, one line.
  std::string Json() const;
  /// Spark's `prettyJson` (Jackson's default pretty printer: two-space indent, " : ").
  std::string PrettyJson() const;
};

/// What a query is doing now (Spark's StreamingQueryStatus).
struct StreamingQueryStatus {
  std::string message = "Initializing sources";
  bool is_data_available = false;
  bool is_trigger_active = false;

  std::string Json() const;
  std::string PrettyJson() const;
};

}  // namespace sluice::execution
