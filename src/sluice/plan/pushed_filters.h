// Filters pushed down a streaming plan, as Spark's optimizer pushes them.
//
// Before it runs a micro-batch, Spark moves filters down the plan: below projections, unions
// and aggregations (conditions on grouping keys), into the sides of joins, and below
// withWatermark when they do not read the event time; from a join's condition it also infers
// `isnotnull` on the columns compared, for each side whose unmatched rows are dropped. This
// changes more than speed: a row such a filter drops never reaches withWatermark, so it does
// not move the watermark (`withWatermark("ts", ...).where("v > 1")` ignores the times of rows
// with v <= 1), and never reaches a stateful operator's state.
//
// Sluice keeps its plans as written; in a micro-batch, the physical planner walks Spark's
// pushdown down the plan node by node and runs each condition at the output of the node where
// Spark's would stop (usually the scan), and not again where the plan's filter is. Rows then
// reach watermarks and state exactly as in Spark, and each condition runs once per row.
#pragma once

#include <vector>

#include "sluice/expr/bound_expression.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// Conditions on the rows of a node's output, bound against it; a row passes when all are
/// true.
using Conditions = std::vector<expr::BoundExprPtr>;

/// One step of the pushdown: where the conditions pushed down to a node's output go next.
struct PushDown {
  /// Per child, the conditions that go on into it, bound against its output.
  std::vector<Conditions> into_children;
  /// The conditions that stop at the node and run at its output.
  Conditions stop;
};

/// Spark's pushdown through `node` of `conditions` (the ones pushed down to its output) and of
/// its own: a Filter's condition, a join's conjuncts and the `isnotnull` they imply.
PushDown PushThrough(const LogicalPlan& node, Conditions conditions);

/// The conjunction of `conditions` (null when empty).
expr::BoundExprPtr Conjunction(const Conditions& conditions);

}  // namespace sluice::plan
