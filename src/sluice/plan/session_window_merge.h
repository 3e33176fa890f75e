#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// The session merging below an aggregation grouped by session_window(...) (Spark's
/// UpdatingSessionsExec): every row keeps its columns, except that its session column, which
/// holds the row's own session [time, time + gap), is replaced by the session it belongs to
/// once the sessions of its key that overlap or touch are merged. The Aggregate above it then
/// groups by (keys, merged session) like any other key.
///
/// The child's session column must hold struct<start, end> timestamps with a non-null start
/// and an end after it (the API filters other rows out before this node, as Spark does).
class MergeSessionWindows final : public LogicalPlan {
 public:
  /// Binds `keys`, the grouping keys other than the session window, against `child`;
  /// `session_column` is the index of the session column in the child's output.
  static arrow::Result<std::shared_ptr<const MergeSessionWindows>> Make(
      PlanPtr child, const std::vector<expr::ExprPtr>& keys, int session_column,
      const AnalysisContext& context);

  /// The keys whose rows share sessions, bound against the child's output.
  const std::vector<expr::BoundExprPtr>& keys() const { return keys_; }
  /// The index of the session column in the child's (and this node's) output.
  int session_column() const { return session_column_; }
  std::string Describe() const override;

  MergeSessionWindows(PlanPtr child, std::vector<expr::BoundExprPtr> keys, int session_column)
      : LogicalPlan(PlanKind::kMergeSessionWindows, {child}, child->output()),
        keys_(std::move(keys)),
        session_column_(session_column) {}

 private:
  std::vector<expr::BoundExprPtr> keys_;
  int session_column_;
};

}  // namespace sluice::plan
