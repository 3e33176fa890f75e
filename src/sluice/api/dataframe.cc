#include "sluice/api/dataframe.h"

#include <chrono>
#include <iostream>

#include <arrow/table.h>

#include "sluice/api/functions.h"
#include "sluice/api/session_state.h"
#include "sluice/api/show_format.h"
#include "sluice/api/session_window_rewrite.h"
#include "sluice/api/time_window_rewrite.h"
#include "sluice/api/window_function_rewrite.h"
#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/physical/planner.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/project.h"
#include "sluice/plan/subquery_alias.h"
#include "sluice/sql/expression_parser.h"
#include "sluice/types/tree_string.h"

namespace sluice {

namespace {

bool SameName(const std::string& a, const std::string& b, bool case_sensitive) {
  if (case_sensitive) return a == b;
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A reference to an output column of `plan` by id, so names that repeat stay unambiguous.
Column ColumnOf(const expr::Attribute& attribute) {
  return Column(std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                                  attribute.id));
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

DataFrame::DataFrame(std::shared_ptr<SessionState> session, plan::PlanPtr plan)
    : session_(std::move(session)), plan_(std::move(plan)) {}

DataFrame::DataFrame(std::shared_ptr<SessionState> session, arrow::Status error)
    : session_(std::move(session)), status_(std::move(error)) {}

DataFrame DataFrame::With(arrow::Result<plan::PlanPtr> plan) const {
  if (!plan.ok()) return DataFrame(session_, plan.status());
  return DataFrame(session_, *std::move(plan));
}

arrow::Result<std::shared_ptr<arrow::Schema>> DataFrame::schema() const {
  ARROW_RETURN_NOT_OK(status_);
  return expr::ToSchema(plan_->output());
}

std::vector<std::string> DataFrame::columns() const {
  std::vector<std::string> names;
  if (!ok()) return names;
  for (const auto& attribute : plan_->output()) names.push_back(attribute.name);
  return names;
}

Column DataFrame::operator[](const std::string& name) const {
  if (!ok()) return Column(std::make_shared<expr::InvalidExpr>(status_, name));
  std::vector<const expr::Attribute*> found;
  for (const auto& attribute : plan_->output()) {
    if (SameName(attribute.name, name, session_->config.case_sensitive())) {
      found.push_back(&attribute);
    }
  }
  if (found.size() == 1) return ColumnOf(*found[0]);
  if (found.empty()) {
    // A nested path such as df["s.f"] resolves by name within this DataFrame.
    auto bound = expr::Bind(*expr::Col(name), plan::ScopeOf(*plan_, session_->analysis_context()));
    if (bound.ok()) return Column(expr::Col(name));
    return Column(std::make_shared<expr::InvalidExpr>(
        expr::UnresolvedColumnError(name, plan_->output()), name));
  }
  return Column(std::make_shared<expr::InvalidExpr>(
      SparkError("AMBIGUOUS_REFERENCE",
                 "Reference " + QuoteIdentifier(name) + " is ambiguous in this DataFrame."),
      name));
}

bool DataFrame::isStreaming() const { return ok() && plan_->is_streaming(); }

DataFrame DataFrame::select(std::vector<Column> columns) const {
  if (!ok()) return *this;
  std::vector<expr::ExprPtr> exprs;
  bool aggregates = false;
  for (const auto& column : columns) {
    aggregates = aggregates || expr::ContainsAggregate(*column.expr(), *session_->registry);
    exprs.push_back(column.expr());
  }
  // A select list of aggregates is a global aggregation, as in Spark.
  if (aggregates) return agg(std::move(columns));
  auto context = session_->analysis_context();
  // session_window(time, gap) adds each row's session below the projection.
  auto sessions = PlanSessionWindows(plan_, std::move(exprs), 0, context);
  if (!sessions.ok()) return DataFrame(session_, sessions.status());
  // window(time, ...) expands the rows into their time windows below the projection.
  auto windowed = PlanTimeWindows(sessions->child, std::move(sessions->exprs), context);
  if (!windowed.ok()) return DataFrame(session_, windowed.status());
  // f OVER (...) is computed by Window nodes below the projection.
  auto computed = PlanWindowFunctions(std::move(windowed->child), std::move(windowed->exprs),
                                      context);
  if (!computed.ok()) return DataFrame(session_, computed.status());
  auto& [input, projected] = *computed;
  // A generator (explode, posexplode, inline) in the select list becomes a Generate node.
  for (const auto& e : projected) {
    if (plan::IsGeneratorCall(*e)) {
      return With(plan::ProjectWithGenerator(input, projected, context));
    }
  }
  return With(plan::Project::Make(input, projected, context));
}

DataFrame DataFrame::selectExpr(const std::vector<std::string>& exprs) const {
  std::vector<Column> columns;
  for (const auto& text : exprs) columns.push_back(functions::expr(text));
  return select(std::move(columns));
}

DataFrame DataFrame::filter(const Column& condition) const {
  if (!ok()) return *this;
  return With(plan::Filter::Make(plan_, condition.expr(), session_->analysis_context()));
}

DataFrame DataFrame::withWatermark(const std::string& event_time,
                                   const std::string& delay_threshold) const {
  if (!ok()) return *this;
  return With(plan::EventTimeWatermark::Make(plan_, event_time, delay_threshold,
                                             session_->analysis_context()));
}

DataFrame DataFrame::filter(const std::string& condition) const {
  return filter(functions::expr(condition));
}

DataFrame DataFrame::withColumn(const std::string& name, const Column& value) const {
  if (!ok()) return *this;
  std::vector<Column> columns;
  bool replaced = false;
  for (const auto& attribute : plan_->output()) {
    if (SameName(attribute.name, name, session_->config.case_sensitive())) {
      columns.push_back(value.alias(name));
      replaced = true;
    } else {
      columns.push_back(ColumnOf(attribute));
    }
  }
  if (!replaced) columns.push_back(value.alias(name));
  return select(std::move(columns));
}

DataFrame DataFrame::withColumnRenamed(const std::string& existing,
                                       const std::string& name) const {
  if (!ok()) return *this;
  std::vector<Column> columns;
  bool renamed = false;
  for (const auto& attribute : plan_->output()) {
    const bool match = SameName(attribute.name, existing, session_->config.case_sensitive());
    columns.push_back(match ? ColumnOf(attribute).alias(name) : ColumnOf(attribute));
    renamed = renamed || match;
  }
  // Renaming a column that does not exist is a no-op, as in Spark.
  if (!renamed) return *this;
  return select(std::move(columns));
}

DataFrame DataFrame::drop(const std::vector<std::string>& names) const {
  if (!ok()) return *this;
  std::vector<Column> columns;
  for (const auto& attribute : plan_->output()) {
    bool dropped = false;
    for (const auto& name : names) {
      dropped = dropped || SameName(attribute.name, name, session_->config.case_sensitive());
    }
    if (!dropped) columns.push_back(ColumnOf(attribute));
  }
  if (columns.size() == plan_->output().size()) return *this;
  return select(std::move(columns));
}

DataFrame DataFrame::alias(const std::string& name) const {
  if (!ok()) return *this;
  return DataFrame(session_, plan::SubqueryAlias::Make(plan_, name));
}

DataFrame DataFrame::toDF(const std::vector<std::string>& names) const {
  if (!ok()) return *this;
  if (names.size() != plan_->output().size()) {
    return DataFrame(session_,
                     SparkError("UNSUPPORTED_FEATURE",
                                "toDF needs one name per column: the DataFrame has " +
                                    std::to_string(plan_->output().size()) +
                                    " columns but " + std::to_string(names.size()) +
                                    " names were given."));
  }
  std::vector<Column> columns;
  for (size_t i = 0; i < names.size(); ++i) {
    columns.push_back(ColumnOf(plan_->output()[i]).alias(names[i]));
  }
  return select(std::move(columns));
}

arrow::Result<std::shared_ptr<arrow::Table>> DataFrame::collect() const {
  ARROW_RETURN_NOT_OK(status_);
  physical::ExecContext context{session_->eval_context(NowMicros())};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*plan_, context));
  return physical::CollectTable(*stream);
}

arrow::Result<int64_t> DataFrame::count() const {
  ARROW_RETURN_NOT_OK(status_);
  physical::ExecContext context{session_->eval_context(NowMicros())};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*plan_, context));
  int64_t rows = 0;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
    if (batch == nullptr) break;
    rows += batch->num_rows();
  }
  return rows;
}

arrow::Result<std::string> DataFrame::showString(int n, int truncate_to, bool vertical) const {
  ARROW_RETURN_NOT_OK(status_);
  // Spark renders each value with ToPrettyString (nulls as NULL), reading one row more than it
  // shows to know whether to say "only showing top n rows".
  physical::ExecContext context{session_->eval_context(NowMicros())};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*plan_, context));
  arrow::RecordBatchVector batches;
  int64_t rows = 0;
  while (rows <= n) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
    if (batch == nullptr) break;
    rows += batch->num_rows();
    batches.push_back(std::move(batch));
  }
  ARROW_ASSIGN_OR_RAISE(auto rendered,
                        RenderShowStrings(*stream->schema(), batches, session_->config));
  return FormatShow(*rendered, n, truncate_to, vertical);
}

arrow::Status DataFrame::show(int n, bool truncate) const { return show(n, truncate ? 20 : 0); }

arrow::Status DataFrame::show(int n, int truncate_to) const {
  ARROW_ASSIGN_OR_RAISE(auto text, showString(n, truncate_to));
  // Spark prints the table with println, so a blank line follows it.
  std::cout << text << std::endl;
  return arrow::Status::OK();
}

arrow::Status DataFrame::printSchema() const {
  ARROW_ASSIGN_OR_RAISE(auto schema, this->schema());
  std::cout << types::TreeString(*schema) << std::endl;
  return arrow::Status::OK();
}

arrow::Result<std::string> DataFrame::explainString(bool extended) const {
  ARROW_RETURN_NOT_OK(status_);
  return plan::ExplainText(*plan_, extended);
}

arrow::Status DataFrame::explain(bool extended) const {
  ARROW_ASSIGN_OR_RAISE(auto text, explainString(extended));
  std::cout << text << std::endl;
  return arrow::Status::OK();
}

}  // namespace sluice
