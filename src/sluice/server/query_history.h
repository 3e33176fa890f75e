// What the web UI and the metrics endpoint know of a session's streaming queries: built only
// from the listener events every query posts, never from executor internals.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sluice/execution/query_listener.h"

namespace sluice::server {

enum class QueryRunStatus { kActive, kFinished, kFailed };

/// "ACTIVE", "FINISHED" or "FAILED".
const char* QueryRunStatusName(QueryRunStatus status);

/// One run of a query (a start of it, so one runId), as the events told it.
struct QueryRun {
  std::string id;
  std::string run_id;
  std::optional<std::string> name;
  /// ISO 8601 UTC texts; the end is the time the terminated event arrived.
  std::string start_timestamp;
  std::optional<std::string> end_timestamp;
  QueryRunStatus status = QueryRunStatus::kActive;
  std::optional<std::string> exception;
  std::optional<std::string> error_class;
  /// The latest progress reports, oldest first (at most retainedProgressUpdates).
  std::deque<execution::StreamingQueryProgress> recent_progress;

  /// Totals over every progress report of the run, for the metrics' counters (the recent
  /// reports are a window that drops old ones).
  int64_t batches = 0;
  int64_t input_rows = 0;
  /// Rows written, counted only from sinks that report them.
  int64_t output_rows = 0;
  int64_t rows_dropped_by_watermark = 0;
};

/// A listener that keeps the runs of a session's queries: every active run, and the latest
/// `retained_queries` finished ones with at most `retained_progress_updates` reports each.
/// Thread-safe: queries post from their own threads while the UI reads.
class QueryHistory final : public execution::StreamingQueryListener {
 public:
  QueryHistory(int64_t retained_queries, int64_t retained_progress_updates);

  void onQueryStarted(const execution::QueryStartedEvent& event) override;
  void onQueryProgress(const execution::QueryProgressEvent& event) override;
  void onQueryTerminated(const execution::QueryTerminatedEvent& event) override;

  /// Copies of the retained runs, in the order they started.
  std::vector<QueryRun> Runs() const;
  /// A copy of the run `run_id`, nullopt when it is not (or no longer) retained.
  std::optional<QueryRun> FindRun(const std::string& run_id) const;

 private:
  QueryRun* Find(const std::string& run_id);
  void DropOldFinishedRuns();

  const int64_t retained_queries_;
  const int64_t retained_progress_updates_;
  mutable std::mutex mutex_;
  /// In start order; few enough (active runs plus retained_queries) for linear lookups.
  std::deque<QueryRun> runs_;
};

}  // namespace sluice::server
