#include "sluice/plan/required_columns.h"

#include "sluice/expr/bound_rewrite.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/join.h"
#include "sluice/plan/project.h"
#include "sluice/plan/sort.h"

namespace sluice::plan {

ColumnMask AllColumns(const LogicalPlan& node) { return ColumnMask(node.output().size(), true); }

void MarkColumnsRead(const expr::BoundExpr& e, ColumnMask& mask) {
  for (int column : expr::ColumnsRead(e)) mask[column] = true;
}

namespace {

ColumnMask NoColumns(const LogicalPlan& node) { return ColumnMask(node.output().size(), false); }

ColumnMask OfProject(const Project& project, const ColumnMask& required) {
  ColumnMask child = NoColumns(*project.children()[0]);
  for (size_t i = 0; i < project.exprs().size(); ++i) {
    if (required[i]) MarkColumnsRead(*project.exprs()[i].expr, child);
  }
  return child;
}

ColumnMask OfAggregate(const Aggregate& aggregate, const ColumnMask& required) {
  // Deduplication passes its child's rows through; an aggregation reads only its keys and
  // the arguments of its functions.
  ColumnMask child = aggregate.is_deduplicate() ? required : NoColumns(*aggregate.children()[0]);
  for (const auto& key : aggregate.grouping()) MarkColumnsRead(*key.expr, child);
  for (const auto& function : aggregate.aggregates()) {
    for (const auto& arg : function->args()) MarkColumnsRead(*arg, child);
  }
  return child;
}

void MarkEventTimeColumns(const LogicalPlan& node, ColumnMask& mask) {
  for (size_t i = 0; i < node.output().size(); ++i) {
    if (node.output()[i].event_time_delay_ms) mask[i] = true;
  }
}

std::vector<ColumnMask> OfJoin(const Join& join, const ColumnMask& required) {
  const LogicalPlan& left = *join.children()[0];
  const LogicalPlan& right = *join.children()[1];
  const size_t left_width = left.output().size();
  ColumnMask both(left_width + right.output().size(), false);
  // Semi and anti joins output the left columns only.
  for (size_t i = 0; i < required.size(); ++i) both[i] = required[i];
  if (join.residual()) MarkColumnsRead(*join.residual(), both);
  ColumnMask left_mask(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(left_width));
  ColumnMask right_mask(both.begin() + static_cast<std::ptrdiff_t>(left_width), both.end());
  for (const auto& key : join.left_keys()) MarkColumnsRead(*key, left_mask);
  for (const auto& key : join.right_keys()) MarkColumnsRead(*key, right_mask);
  // A side's event time drops its late rows and evicts its state, read or not.
  MarkEventTimeColumns(left, left_mask);
  MarkEventTimeColumns(right, right_mask);
  return {left_mask, right_mask};
}

}  // namespace

std::vector<ColumnMask> RequiredOfChildren(const LogicalPlan& node, const ColumnMask& required) {
  switch (node.kind()) {
    case PlanKind::kProject:
      return {OfProject(static_cast<const Project&>(node), required)};
    case PlanKind::kFilter: {
      ColumnMask child = required;
      MarkColumnsRead(*static_cast<const Filter&>(node).condition(), child);
      return {child};
    }
    case PlanKind::kAggregate:
      return {OfAggregate(static_cast<const Aggregate&>(node), required)};
    case PlanKind::kSort: {
      ColumnMask child = required;
      for (const auto& key : static_cast<const Sort&>(node).keys()) {
        MarkColumnsRead(*key.expr, child);
      }
      return {child};
    }
    case PlanKind::kEventTimeWatermark: {
      ColumnMask child = required;
      child[static_cast<const EventTimeWatermark&>(node).column()] = true;
      return {child};
    }
    case PlanKind::kLimit:
    case PlanKind::kSubqueryAlias:
      return {required};
    case PlanKind::kJoin:
      return OfJoin(static_cast<const Join&>(node), required);
    default: {
      std::vector<ColumnMask> children;
      for (const auto& child : node.children()) children.push_back(AllColumns(*child));
      return children;
    }
  }
}

}  // namespace sluice::plan
