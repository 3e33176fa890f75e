#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// GROUP BY with aggregates: groupBy(keys).agg(...), df.agg(...) (no keys: one group, one output
/// row even for empty input), distinct() and dropDuplicates().
///
/// Evaluation has three steps, each exposed so an incremental (streaming) executor can run the
/// same node with partial states kept per key:
///  1. `grouping()` are evaluated against the child's batches and group the rows;
///  2. every `aggregates()` function folds its arguments (evaluated against the child's
///     batches) per group;
///  3. per group, an "intermediate" row is laid out as `intermediate()` describes (the child's
///     columns, where those that are grouping keys hold the key value and the others are null,
///     then grouping keys that are not plain columns, then the aggregate results), and
///     `results()`, bound against that layout, compute the output row (`sum(a) + 1`, the keys,
///     aliases).
class Aggregate final : public LogicalPlan {
 public:
  /// Where an intermediate column comes from.
  struct Source {
    enum class Kind { kNull, kKey, kAggregate };
    Kind kind = Kind::kNull;
    int index = -1;  // grouping key or aggregate index
  };

  /// groupBy(keys).agg(aggregates): binds the keys against `child` (names as in a select list)
  /// and the aggregate list with aggregate calls allowed; the output is the keys (when
  /// `keys_in_output`, as groupBy().agg() does) followed by the aggregate list. A column in the
  /// aggregate list that is neither grouped nor inside an aggregate is MISSING_AGGREGATION
  /// (MISSING_GROUP_BY without keys).
  static arrow::Result<std::shared_ptr<const Aggregate>> Make(
      PlanPtr child, const std::vector<expr::ExprPtr>& keys,
      const std::vector<expr::ExprPtr>& aggregates, const AnalysisContext& context,
      bool keys_in_output = true);

  /// distinct() (empty `subset`: every column) or dropDuplicates(subset): one row per distinct
  /// key, the first in input order, with the child's columns and attributes unchanged.
  static arrow::Result<std::shared_ptr<const Aggregate>> MakeDeduplicate(
      PlanPtr child, const std::vector<std::string>& subset, const AnalysisContext& context);

  const std::vector<expr::NamedExpr>& grouping() const { return grouping_; }
  const std::vector<expr::AggregateFunctionPtr>& aggregates() const { return aggregates_; }
  const expr::AttributeList& intermediate() const { return intermediate_; }
  const std::vector<Source>& intermediate_sources() const { return sources_; }
  const std::vector<expr::NamedExpr>& results() const { return results_; }

  std::string Describe() const override;

  Aggregate(PlanPtr child, std::vector<expr::NamedExpr> grouping,
            std::vector<expr::AggregateFunctionPtr> aggregates, expr::AttributeList intermediate,
            std::vector<Source> sources, std::vector<expr::NamedExpr> results,
            expr::AttributeList output)
      : LogicalPlan(PlanKind::kAggregate, {std::move(child)}, std::move(output)),
        grouping_(std::move(grouping)),
        aggregates_(std::move(aggregates)),
        intermediate_(std::move(intermediate)),
        sources_(std::move(sources)),
        results_(std::move(results)) {}

 private:
  std::vector<expr::NamedExpr> grouping_;
  std::vector<expr::AggregateFunctionPtr> aggregates_;
  expr::AttributeList intermediate_;
  std::vector<Source> sources_;
  std::vector<expr::NamedExpr> results_;
};

}  // namespace sluice::plan
