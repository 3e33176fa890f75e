#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/api/column.h"
#include "sluice/api/dataframe.h"
#include "sluice/delta/delta_merge.h"

namespace sluice {

class SparkSession;
struct SessionState;
class DeltaMergeBuilder;

/// An expression given either as Spark SQL text ("s.value + 1") or as a Column, as Delta's
/// Python API takes either. Text that does not parse fails when the expression is used.
class ExpressionOrColumn {
 public:
  ExpressionOrColumn(const char* sql);         // NOLINT: implicit, as Python takes a str
  ExpressionOrColumn(const std::string& sql);  // NOLINT
  ExpressionOrColumn(Column column);           // NOLINT
  const Column& column() const { return column_; }

 private:
  Column column_;
};

/// A Delta table, as delta.tables.DeltaTable: its rows, history, vacuum and MERGE. A value
/// holding the session and the table's path; every call reads the table's latest version.
class DeltaTable {
 public:
  /// The Delta table at `path`; DELTA_MISSING_DELTA_TABLE when the folder holds none.
  static arrow::Result<DeltaTable> forPath(const SparkSession& session, const std::string& path);
  /// forPath with the session of a DataFrame (e.g. the batch inside foreachBatch).
  static arrow::Result<DeltaTable> forPath(std::shared_ptr<SessionState> session,
                                           const std::string& path);

  /// The named table of the warehouse ("silver.customers"); TABLE_OR_VIEW_NOT_FOUND when it
  /// does not exist.
  static arrow::Result<DeltaTable> forName(const SparkSession& session, const std::string& name);
  static arrow::Result<DeltaTable> forName(std::shared_ptr<SessionState> session,
                                           const std::string& name);

  /// The table's latest rows, as read.format("delta").load(path), under the alias if any.
  DataFrame toDF() const;
  /// The same table, its columns qualified by `name` in merge conditions and toDF().
  DeltaTable alias(const std::string& name) const;
  /// The newest `limit` versions (all when nullopt), newest first, with Delta's history
  /// columns: version, timestamp, operation, operationParameters, readVersion,
  /// isolationLevel, isBlindAppend, operationMetrics, engineInfo.
  DataFrame history(std::optional<int64_t> limit = std::nullopt) const;
  /// Deletes the data files no version within the last `retention_hours` (168 by default)
  /// references, and returns a DataFrame of the table's path, as Delta does. A retention
  /// below 168 hours is refused unless spark.databricks.delta.retentionDurationCheck.enabled
  /// is false.
  arrow::Result<DataFrame> vacuum(std::optional<double> retention_hours = std::nullopt) const;
  /// Starts a MERGE of `source` into this table on `condition` ("t.id = s.id", with the
  /// aliases given by alias() on both sides); add clauses, then execute().
  DeltaMergeBuilder merge(const DataFrame& source, const ExpressionOrColumn& condition) const;

  const std::string& path() const { return path_; }

 private:
  friend class DeltaMergeBuilder;
  DeltaTable(std::shared_ptr<SessionState> session, std::string path)
      : session_(std::move(session)), path_(std::move(path)) {}

  std::shared_ptr<SessionState> session_;
  std::string path_;
  std::string alias_;
};

/// The clauses of a MERGE, as delta.tables.DeltaMergeBuilder. Matched clauses apply in the
/// order given (the first whose condition holds), then not-matched ones likewise. Builder
/// calls never fail; execute() reports every error. A value: each call returns a new builder.
class DeltaMergeBuilder {
 public:
  /// Target column -> new value.
  using Assignments = std::map<std::string, ExpressionOrColumn>;

  DeltaMergeBuilder whenMatchedUpdate(
      const Assignments& set, std::optional<ExpressionOrColumn> condition = std::nullopt) const;
  /// Every target column from the source column of the same name.
  DeltaMergeBuilder whenMatchedUpdateAll(
      std::optional<ExpressionOrColumn> condition = std::nullopt) const;
  DeltaMergeBuilder whenMatchedDelete(
      std::optional<ExpressionOrColumn> condition = std::nullopt) const;
  /// Target columns left out are null.
  DeltaMergeBuilder whenNotMatchedInsert(
      const Assignments& values, std::optional<ExpressionOrColumn> condition = std::nullopt) const;
  DeltaMergeBuilder whenNotMatchedInsertAll(
      std::optional<ExpressionOrColumn> condition = std::nullopt) const;

  /// Runs the merge as one commit (none when nothing changes) and returns, as Delta 3 does,
  /// one row of num_affected_rows, num_updated_rows, num_deleted_rows, num_inserted_rows.
  /// Errors: see delta::Merge; nothing is committed on error.
  arrow::Result<DataFrame> execute() const;

 private:
  friend class DeltaTable;
  DeltaMergeBuilder(DeltaTable table, DataFrame source, Column condition)
      : table_(std::move(table)), source_(std::move(source)), condition_(std::move(condition)) {}
  DeltaMergeBuilder With(delta::MergeClause clause, bool matched) const;

  DeltaTable table_;
  DataFrame source_;
  Column condition_;
  std::vector<delta::MergeClause> matched_;
  std::vector<delta::MergeClause> not_matched_;
};

}  // namespace sluice
