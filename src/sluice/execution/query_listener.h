// Spark's StreamingQueryListener and its events.
#pragma once

#include <optional>
#include <string>

#include "sluice/execution/progress.h"

namespace sluice::execution {

struct QueryStartedEvent {
  std::string id;
  std::string run_id;
  std::optional<std::string> name;
  /// ISO 8601 UTC, e.g. "2026-11-30T17:39:33.478Z".
  std::string timestamp;
};

struct QueryProgressEvent {
  StreamingQueryProgress progress;
};

/// Sent when a trigger finds no new data, at most once per
/// spark.sql.streaming.noDataProgressEventInterval.
struct QueryIdleEvent {
  std::string id;
  std::string run_id;
  std::string timestamp;
};

struct QueryTerminatedEvent {
  std::string id;
  std::string run_id;
  /// The error that stopped the query, nullopt after a clean stop.
  std::optional<std::string> exception;
  /// Its Spark error class, when it has one.
  std::optional<std::string> error_class_on_exception;
};

/// Receives the events of every query of a session, in order per query: started, then
/// progress and idle events, then terminated. Called on the query's own thread, so a slow
/// listener slows that query; implementations must be thread-safe when several queries run.
class StreamingQueryListener {
 public:
  virtual ~StreamingQueryListener() = default;
  virtual void onQueryStarted(const QueryStartedEvent& event) {}
  virtual void onQueryProgress(const QueryProgressEvent& event) {}
  virtual void onQueryIdle(const QueryIdleEvent& event) {}
  virtual void onQueryTerminated(const QueryTerminatedEvent& event) {}
};

}  // namespace sluice::execution
