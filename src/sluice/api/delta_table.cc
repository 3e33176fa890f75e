#include "sluice/api/delta_table.h"

#include <chrono>

#include <arrow/builder.h>
#include <arrow/table.h>

#include "sluice/api/data_source_settings.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/api/session_state.h"
#include "sluice/api/table_identifier.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_history.h"
#include "sluice/delta/delta_vacuum.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/plan/relation.h"

namespace sluice {

namespace {

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

DataFrame FrameOf(const std::shared_ptr<SessionState>& session,
                  std::shared_ptr<arrow::Table> table) {
  return DataFrame(session, plan::Relation::Make(
                                std::make_shared<plan::InMemorySource>(std::move(table)),
                                session->analysis_context()));
}

arrow::Result<std::shared_ptr<arrow::Array>> OneValue(int64_t value) {
  arrow::Int64Builder builder;
  ARROW_RETURN_NOT_OK(builder.Append(value));
  return builder.Finish();
}

}  // namespace

ExpressionOrColumn::ExpressionOrColumn(const char* sql) : column_(functions::expr(sql)) {}
ExpressionOrColumn::ExpressionOrColumn(const std::string& sql) : column_(functions::expr(sql)) {}
ExpressionOrColumn::ExpressionOrColumn(Column column) : column_(std::move(column)) {}

arrow::Result<DeltaTable> DeltaTable::forPath(const SparkSession& session,
                                              const std::string& path) {
  return forPath(session.state(), path);
}

arrow::Result<DeltaTable> DeltaTable::forPath(std::shared_ptr<SessionState> session,
                                              const std::string& path) {
  const std::string table_path = formats::LocalPath(path);
  ARROW_ASSIGN_OR_RAISE(auto latest, delta::DeltaLog(table_path).LatestVersion());
  if (!latest) {
    return SparkError("DELTA_MISSING_DELTA_TABLE",
                      QuoteIdentifier(path) + " is not a Delta table.");
  }
  return DeltaTable(std::move(session), table_path);
}

arrow::Result<DeltaTable> DeltaTable::forName(const SparkSession& session,
                                              const std::string& name) {
  return forName(session.state(), name);
}

arrow::Result<DeltaTable> DeltaTable::forName(std::shared_ptr<SessionState> session,
                                              const std::string& name) {
  ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*session, name));
  if (!named.exists) return TableNotFound(name);
  return DeltaTable(std::move(session), named.path);
}

DataFrame DeltaTable::toDF() const {
  DataFrame df = DataFrameReader(session_).format("delta").load(path_);
  return alias_.empty() ? df : df.alias(alias_);
}

DeltaTable DeltaTable::alias(const std::string& name) const {
  DeltaTable aliased = *this;
  aliased.alias_ = name;
  return aliased;
}

DataFrame DeltaTable::history(std::optional<int64_t> limit) const {
  auto entries = delta::ReadHistory(delta::DeltaLog(path_), limit);
  if (!entries.ok()) return DataFrame(session_, entries.status());
  auto table = delta::HistoryTable(*entries);
  if (!table.ok()) return DataFrame(session_, table.status());
  return FrameOf(session_, *table);
}

arrow::Result<DataFrame> DeltaTable::vacuum(std::optional<double> retention_hours) const {
  const double hours = retention_hours.value_or(delta::kDefaultRetentionHours);
  if (hours < 0) {
    return arrow::Status::Invalid("requirement failed: Retention for Vacuum can't be less than "
                                  "0 hours (asked for ", hours, ").");
  }
  auto check = session_->config.Get("spark.databricks.delta.retentionDurationCheck.enabled");
  const bool checked = !check || AsciiLower(*check) != "false";
  if (checked && hours < delta::kDefaultRetentionHours) {
    return arrow::Status::Invalid(
        "requirement failed: Are you sure you would like to vacuum files with such a low "
        "retention period? If you have writers that are currently writing to this table, "
        "there is a risk that you may corrupt the state of your Delta table.\n\nIf you are "
        "certain that there are no operations being performed on this table, such as "
        "insert/upsert/delete/optimize, then you may turn off this check by setting:\n"
        "spark.databricks.delta.retentionDurationCheck.enabled = false\n\nIf you are not sure, "
        "please use a value not less than \"168 hours\".");
  }
  const auto retention_ms = static_cast<int64_t>(hours * 3600.0 * 1000.0);
  ARROW_RETURN_NOT_OK(
      delta::Vacuum(delta::DeltaLog(path_), retention_ms, NowMicros() / 1000).status());
  arrow::StringBuilder path;
  ARROW_RETURN_NOT_OK(path.Append(formats::QualifiedPath(path_)));
  ARROW_ASSIGN_OR_RAISE(auto column, path.Finish());
  return FrameOf(session_, arrow::Table::Make(arrow::schema({arrow::field("path", arrow::utf8())}),
                                              {column}));
}

DeltaMergeBuilder DeltaTable::merge(const DataFrame& source,
                                    const ExpressionOrColumn& condition) const {
  return DeltaMergeBuilder(*this, source, condition.column());
}

// ---- DeltaMergeBuilder ----------------------------------------------------------------------

namespace {

using Action = delta::MergeClause::Action;

delta::MergeClause Clause(Action action, const std::optional<ExpressionOrColumn>& condition) {
  delta::MergeClause clause;
  clause.action = action;
  if (condition) clause.condition = condition->column().expr();
  return clause;
}

delta::MergeClause Assigning(delta::MergeClause clause,
                             const DeltaMergeBuilder::Assignments& assignments) {
  for (const auto& [column, value] : assignments) {
    clause.assignments.emplace_back(column, value.column().expr());
  }
  return clause;
}

}  // namespace

DeltaMergeBuilder DeltaMergeBuilder::With(delta::MergeClause clause, bool matched) const {
  DeltaMergeBuilder next = *this;
  (matched ? next.matched_ : next.not_matched_).push_back(std::move(clause));
  return next;
}

DeltaMergeBuilder DeltaMergeBuilder::whenMatchedUpdate(
    const Assignments& set, std::optional<ExpressionOrColumn> condition) const {
  return With(Assigning(Clause(Action::kUpdate, condition), set), true);
}

DeltaMergeBuilder DeltaMergeBuilder::whenMatchedUpdateAll(
    std::optional<ExpressionOrColumn> condition) const {
  auto clause = Clause(Action::kUpdate, condition);
  clause.all = true;
  return With(std::move(clause), true);
}

DeltaMergeBuilder DeltaMergeBuilder::whenMatchedDelete(
    std::optional<ExpressionOrColumn> condition) const {
  return With(Clause(Action::kDelete, condition), true);
}

DeltaMergeBuilder DeltaMergeBuilder::whenNotMatchedInsert(
    const Assignments& values, std::optional<ExpressionOrColumn> condition) const {
  return With(Assigning(Clause(Action::kInsert, condition), values), false);
}

DeltaMergeBuilder DeltaMergeBuilder::whenNotMatchedInsertAll(
    std::optional<ExpressionOrColumn> condition) const {
  auto clause = Clause(Action::kInsert, condition);
  clause.all = true;
  return With(std::move(clause), false);
}

arrow::Result<DataFrame> DeltaMergeBuilder::execute() const {
  ARROW_RETURN_NOT_OK(source_.status());
  const auto& session = table_.session_;
  delta::MergeSpec spec;
  spec.target_alias = table_.alias_;
  spec.source = source_.plan();
  spec.condition = condition_.expr();
  spec.matched = matched_;
  spec.not_matched = not_matched_;

  const int64_t now = NowMicros();
  const SessionConfig& config = session->config;
  delta::MergeContext context{session->analysis_context(), session->eval_context(now),
                              FormatContextOf(config), {}};
  ARROW_ASSIGN_OR_RAISE(context.write.parquet,
                        formats::MakeFormatWriter(formats::FileFormat::kParquet,
                                                  formats::OptionMap{}, context.format));
  ARROW_ASSIGN_OR_RAISE(context.write.zone, formats::FindZone(context.format.session_time_zone));
  context.write.now_ms = now / 1000;
  ARROW_ASSIGN_OR_RAISE(auto result, delta::Merge(delta::DeltaLog(table_.path_), spec, context));

  const auto& metrics = result.metrics;
  ARROW_ASSIGN_OR_RAISE(auto affected,
                        OneValue(metrics.target_rows_updated + metrics.target_rows_deleted +
                                 metrics.target_rows_inserted));
  ARROW_ASSIGN_OR_RAISE(auto updated, OneValue(metrics.target_rows_updated));
  ARROW_ASSIGN_OR_RAISE(auto deleted, OneValue(metrics.target_rows_deleted));
  ARROW_ASSIGN_OR_RAISE(auto inserted, OneValue(metrics.target_rows_inserted));
  auto schema = arrow::schema({arrow::field("num_affected_rows", arrow::int64()),
                               arrow::field("num_updated_rows", arrow::int64()),
                               arrow::field("num_deleted_rows", arrow::int64()),
                               arrow::field("num_inserted_rows", arrow::int64())});
  return FrameOf(session, arrow::Table::Make(schema, {affected, updated, deleted, inserted}));
}

}  // namespace sluice
