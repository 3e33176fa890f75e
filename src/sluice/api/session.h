#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/api/dataframe.h"
#include "sluice/execution/query_manager.h"

namespace sluice {

struct SessionState;
class DataFrameReader;
class DataStreamReader;

/// The session's settings, as PySpark's spark.conf.
class RuntimeConfig {
 public:
  explicit RuntimeConfig(std::shared_ptr<SessionState> state) : state_(std::move(state)) {}
  /// Sets a `spark.*` key; an error names the key and the allowed values. The web UI's
  /// settings (spark.ui.*) are read once, when the session is built, and are refused here
  /// (CANNOT_MODIFY_CONFIG), as Spark refuses to change its core settings at runtime.
  arrow::Status set(const std::string& key, const std::string& value);
  std::optional<std::string> get(const std::string& key) const;
  void unset(const std::string& key);

 private:
  std::shared_ptr<SessionState> state_;
};

/// The entry point, as PySpark's SparkSession: makes DataFrames from data and files. A session
/// is used from one thread at a time while settings change; DataFrames made from it are
/// independent values.
class SparkSession {
 public:
  /// PySpark's SparkSession.builder: appName, master and config, then getOrCreate().
  class Builder {
   public:
    Builder& appName(const std::string& name);
    /// Accepted for compatibility ("local[*]", "local[2]"); Sluice always runs in-process.
    Builder& master(const std::string& master);
    Builder& config(const std::string& key, const std::string& value);
    /// A new session with these settings (an invalid setting is an error naming it); it
    /// starts the web UI when spark.ui.enabled is true.
    arrow::Result<std::shared_ptr<SparkSession>> getOrCreate();

   private:
    std::string app_name_ = "sluice";
    std::map<std::string, std::string> settings_;
  };

  static Builder builder() { return Builder(); }

  explicit SparkSession(std::string app_name);

  const std::string& appName() const { return app_name_; }
  RuntimeConfig conf() const { return RuntimeConfig(state_); }
  /// A DataFrame over an Arrow table; its types must be Spark's (see types/): integers of 8-64
  /// bits, float, double, decimal128, utf8, binary, date32, timestamp[us], list, struct, map.
  DataFrame createDataFrame(std::shared_ptr<arrow::Table> table) const;
  /// Rows from start (inclusive) to end (exclusive) by step, in one bigint column `id`.
  DataFrame range(int64_t start, int64_t end, int64_t step = 1) const;
  DataFrame range(int64_t end) const { return range(0, end); }
  /// Batch reads of files: read().format("json").schema("...").load(path).
  DataFrameReader read() const;
  /// Streaming reads: readStream().format("json").schema("...").load(path).
  DataStreamReader readStream() const;
  /// The session's streaming queries and listeners (PySpark's spark.streams).
  const std::shared_ptr<execution::StreamingQueryManager>& streams() const;
  /// Runs one SQL statement (Spark SQL's syntax): a query gives its DataFrame, streaming when it
  /// reads a streaming view; a command (CREATE TEMP VIEW, CREATE TABLE, INSERT, DROP, DESCRIBE,
  /// SHOW TABLES/FUNCTIONS, EXPLAIN, SET, RESET) runs now and gives its result rows as Spark
  /// does (an empty DataFrame for CREATE, DROP and INSERT). A parse error is PARSE_SYNTAX_ERROR
  /// with the line, position and a caret; errors are kept in the DataFrame (its status()).
  DataFrame sql(const std::string& text) const;
  /// The temporary view `name` (e.g. a memory sink's table), else the named Delta table of
  /// the warehouse (spark.sql.warehouse.dir), read as a batch DataFrame;
  /// TABLE_OR_VIEW_NOT_FOUND when there is neither.
  DataFrame table(const std::string& name) const;

  /// Stops the session's active streaming queries and its web UI, as PySpark's spark.stop();
  /// the session stays usable for batch work. Idempotent.
  void stop() const;
  /// The web UI's address ("http://127.0.0.1:4040"), as PySpark's SparkContext.uiWebUrl;
  /// nullopt unless the session was built with spark.ui.enabled=true.
  std::optional<std::string> uiWebUrl() const;

  const std::shared_ptr<SessionState>& state() const { return state_; }

 private:
  std::string app_name_;
  std::shared_ptr<SessionState> state_;
};

}  // namespace sluice
