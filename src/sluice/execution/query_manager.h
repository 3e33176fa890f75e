// Spark's StreamingQueryManager: the running queries of a session and its listeners.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/execution/query_listener.h"

namespace sluice::execution {

class StreamingQuery;

/// One per session. Thread-safe: queries register and post events from their own threads.
/// Holds its active queries, so a query runs until it stops even when the caller dropped its
/// handle (as Spark's spark.streams does).
class StreamingQueryManager {
 public:
  /// The queries running now.
  std::vector<std::shared_ptr<StreamingQuery>> active() const;
  /// The running query with this id, or null.
  std::shared_ptr<StreamingQuery> get(const std::string& id) const;
  /// Waits until some query terminated since the last resetTerminated(); returns its error.
  arrow::Status awaitAnyTermination();
  /// As above, giving up after `timeout_ms`: true if a query terminated.
  arrow::Result<bool> awaitAnyTermination(int64_t timeout_ms);
  /// Forgets past terminations, so awaitAnyTermination waits for a new one.
  void resetTerminated();

  void addListener(std::shared_ptr<StreamingQueryListener> listener);
  void removeListener(const std::shared_ptr<StreamingQueryListener>& listener);
  std::vector<std::shared_ptr<StreamingQueryListener>> listListeners() const;

  // ---- Called by queries ----
  /// Admits a starting query: fails when a query with its id or name is already active.
  arrow::Status Register(const std::shared_ptr<StreamingQuery>& query, const std::string& id,
                         const std::optional<std::string>& name);
  /// The query ended (`error` OK after a clean stop).
  void Unregister(const std::string& id, const arrow::Status& error);

  void Post(const QueryStartedEvent& event) const;
  void Post(const QueryProgressEvent& event) const;
  void Post(const QueryIdleEvent& event) const;
  void Post(const QueryTerminatedEvent& event) const;

 private:
  struct Active {
    std::shared_ptr<StreamingQuery> query;
    std::optional<std::string> name;
  };
  mutable std::mutex mutex_;
  std::condition_variable terminated_changed_;
  std::map<std::string, Active> active_;
  std::vector<std::shared_ptr<StreamingQueryListener>> listeners_;
  /// The error of the first query to terminate since resetTerminated (OK for a clean stop).
  std::optional<arrow::Status> last_terminated_;
};

}  // namespace sluice::execution
