#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/api/column.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

struct SessionState;
class DataFrameWriter;
class DataStreamWriter;
class GroupedData;

/// A distributed-table-shaped query in PySpark's shape: transformations build a new DataFrame
/// over a resolved plan; actions (collect, count, show, write) run it. Transformations never
/// throw: an analysis error (unknown column, wrong types) is kept in the resulting DataFrame,
/// carried through further transformations, and returned by status() and by every action.
/// DataFrames are immutable values, cheap to copy, and safe to share between threads.
class DataFrame {
 public:
  DataFrame(std::shared_ptr<SessionState> session, plan::PlanPtr plan);
  DataFrame(std::shared_ptr<SessionState> session, arrow::Status error);

  /// OK, or the first analysis error met while building this DataFrame.
  const arrow::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }
  /// The resolved plan (null when !ok()).
  const plan::PlanPtr& plan() const { return plan_; }
  const std::shared_ptr<SessionState>& session() const { return session_; }

  // Schema.
  arrow::Result<std::shared_ptr<arrow::Schema>> schema() const;
  std::vector<std::string> columns() const;
  /// The column `name` of this DataFrame, bound to it: it keeps meaning this DataFrame's column
  /// after joins (df["id"] in a self-join).
  Column operator[](const std::string& name) const;
  bool isStreaming() const;

  // Projection and filtering (dataframe.cc).
  DataFrame select(std::vector<Column> columns) const;
  DataFrame selectExpr(const std::vector<std::string>& exprs) const;
  DataFrame filter(const Column& condition) const;
  /// A Spark SQL condition, e.g. filter("a > 1 AND b IS NOT NULL").
  DataFrame filter(const std::string& condition) const;
  /// filter("a > 1") as PySpark writes it: a string literal is a SQL condition.
  DataFrame filter(const char* condition) const { return filter(std::string(condition)); }
  DataFrame where(const Column& condition) const { return filter(condition); }
  DataFrame where(const std::string& condition) const { return filter(condition); }
  DataFrame where(const char* condition) const { return filter(std::string(condition)); }
  DataFrame withColumn(const std::string& name, const Column& value) const;
  DataFrame withColumnRenamed(const std::string& existing, const std::string& name) const;
  DataFrame drop(const std::vector<std::string>& names) const;
  DataFrame alias(const std::string& name) const;
  DataFrame toDF(const std::vector<std::string>& names) const;
  /// Marks `event_time` (a timestamp column) as the event time, with late data bounded by
  /// `delay_threshold` ("10 minutes"). A no-op in batch queries; in a streaming query the
  /// watermark (max event time seen - delay) advances after each batch.
  DataFrame withWatermark(const std::string& event_time, const std::string& delay_threshold) const;

  // Relational operators (dataframe_relational.cc).
  DataFrame orderBy(std::vector<Column> keys) const;
  DataFrame sort(std::vector<Column> keys) const { return orderBy(std::move(keys)); }
  DataFrame limit(int64_t n) const;
  DataFrame distinct() const;
  DataFrame dropDuplicates(const std::vector<std::string>& subset = {}) const;
  /// dropDuplicates for streams whose duplicates arrive within the watermark's delay: a key is
  /// remembered until the watermark passes its first row's event time plus the delay, so the
  /// event time need not be part of the key. In a batch query, dropDuplicates.
  DataFrame dropDuplicatesWithinWatermark(const std::vector<std::string>& subset = {}) const;
  /// UNION ALL by position (PySpark's union; `union` is a C++ keyword).
  DataFrame union_(const DataFrame& other) const;
  DataFrame unionAll(const DataFrame& other) const { return union_(other); }
  DataFrame unionByName(const DataFrame& other, bool allow_missing_columns = false) const;
  /// how: inner, cross, outer/full/fullouter/full_outer, left/leftouter/left_outer,
  /// right/rightouter/right_outer, semi/leftsemi/left_semi, anti/leftanti/left_anti.
  DataFrame join(const DataFrame& other, const Column& on, const std::string& how = "inner") const;
  DataFrame join(const DataFrame& other, const std::vector<std::string>& using_columns,
                 const std::string& how = "inner") const;
  DataFrame crossJoin(const DataFrame& other) const;
  GroupedData groupBy(std::vector<Column> keys) const;
  /// Aggregates over the whole DataFrame: df.agg(sum("a")).
  DataFrame agg(std::vector<Column> aggregates) const;

  // Actions (dataframe.cc).
  /// Runs the query and returns all rows.
  arrow::Result<std::shared_ptr<arrow::Table>> collect() const;
  arrow::Result<std::shared_ptr<arrow::Table>> toArrow() const { return collect(); }
  arrow::Result<int64_t> count() const;
  /// Prints the first `n` rows as Spark's show() does.
  arrow::Status show(int n = 20, bool truncate = true) const;
  arrow::Status show(int n, int truncate_to) const;
  /// What show() prints, as a string; truncate_to 0 means no truncation.
  arrow::Result<std::string> showString(int n = 20, int truncate_to = 20,
                                        bool vertical = false) const;
  arrow::Status printSchema() const;
  /// The plan as explain() prints it.
  arrow::Result<std::string> explainString(bool extended = false) const;
  arrow::Status explain(bool extended = false) const;

  // Views (sql_statements.cc).
  /// Registers this DataFrame as the temporary view `name` of its session (replacing one of
  /// that name), so SQL can read it: a streaming DataFrame gives a streaming view.
  arrow::Status createOrReplaceTempView(const std::string& name) const;
  /// As createOrReplaceTempView, but TEMP_TABLE_OR_VIEW_ALREADY_EXISTS when the view exists.
  arrow::Status createTempView(const std::string& name) const;

  // Output (dataframe_io.cc).
  DataFrameWriter write() const;
  /// Streaming output of a streaming DataFrame: writeStream().format(...).start(...).
  DataStreamWriter writeStream() const;

 private:
  /// A DataFrame over `plan`, or carrying its error.
  DataFrame With(arrow::Result<plan::PlanPtr> plan) const;

  std::shared_ptr<SessionState> session_;
  plan::PlanPtr plan_;
  arrow::Status status_;
};

}  // namespace sluice
