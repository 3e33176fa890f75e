// Which columns of each node's output are read above it: Spark's column pruning, worked out
// as the physical planner walks down the plan. A stream-stream join keeps in its state only
// the columns of each side that are read above it or by its condition (as Spark, which
// projects the others away below the join, does).
#pragma once

#include <vector>

#include "sluice/expr/bound_expression.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// One flag per column of a node's output: whether anything above reads it.
using ColumnMask = std::vector<bool>;

/// Every column of `node`'s output.
ColumnMask AllColumns(const LogicalPlan& node);

/// Sets in `mask` the columns `e` reads (`e` bound against the columns `mask` describes).
void MarkColumnsRead(const expr::BoundExpr& e, ColumnMask& mask);

/// The columns each child of `node` must produce for `required` columns of `node`'s output:
/// those its expressions read to compute them. Nodes that are not worked through (windows,
/// generators, arbitrary stateful operators, unions) need every column of their children.
std::vector<ColumnMask> RequiredOfChildren(const LogicalPlan& node, const ColumnMask& required);

}  // namespace sluice::plan
