// Spark's StreamingQuery: the handle of a running micro-batch query.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/execution/progress.h"
#include "sluice/execution/query_spec.h"
#include "sluice/execution/query_state.h"

namespace sluice::execution {

class MicroBatchExecution;
class StreamingQueryManager;

/// A running query: its batch loop runs on a thread of its own. Thread-safe; the handle may be
/// shared. The query runs until stop(), its trigger ends it, or a batch fails, whether or not
/// the caller keeps the handle (spark.streams keeps it while it is active).
class StreamingQuery : public std::enable_shared_from_this<StreamingQuery> {
 public:
  /// Opens the checkpoint (refusing one in use), recovers from it, starts the sources, posts
  /// the started event, then starts the batch loop. Errors found here are returned; errors of
  /// batches end the query and are kept (exception(), awaitTermination()).
  static arrow::Result<std::shared_ptr<StreamingQuery>> Start(
      QuerySpec spec, std::shared_ptr<StreamingQueryManager> manager);
  ~StreamingQuery();

  /// Stable across restarts of the checkpoint.
  const std::string& id() const { return id_; }
  /// New for every start.
  const std::string& runId() const { return run_id_; }
  const std::optional<std::string>& name() const { return name_; }
  bool isActive() const { return state_->active(); }
  StreamingQueryStatus status() const { return state_->status(); }
  std::optional<StreamingQueryProgress> lastProgress() const { return state_->last_progress(); }
  /// The last spark.sql.streaming.numRecentProgressUpdates reports, oldest first.
  std::vector<StreamingQueryProgress> recentProgress() const {
    return state_->recent_progress();
  }
  /// The error that stopped the query (STREAM_FAILED wrapping the cause), OK otherwise.
  arrow::Status exception() const { return state_->error(); }

  /// Waits until the query stops; returns its exception().
  arrow::Status awaitTermination() const;
  /// Waits at most `timeout_ms`: true if the query stopped (its error, if any, is returned).
  arrow::Result<bool> awaitTermination(int64_t timeout_ms) const;
  /// Waits until every source's data available now is processed and committed (for tests).
  arrow::Status processAllAvailable() const;
  /// Stops the query and waits for its thread: a batch in flight finishes first.
  arrow::Status stop();
  std::string explainString(bool extended = false) const;
  arrow::Status explain(bool extended = false) const;

 private:
  StreamingQuery() = default;
  void RunLoop();

  std::string id_;
  std::string run_id_;
  std::optional<std::string> name_;
  plan::PlanPtr plan_;
  std::shared_ptr<QueryState> state_;
  std::shared_ptr<StreamingQueryManager> manager_;
  std::unique_ptr<MicroBatchExecution> execution_;
  std::thread thread_;
};

}  // namespace sluice::execution
