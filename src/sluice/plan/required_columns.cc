#include "sluice/plan/required_columns.h"

#include <arrow/type.h>

#include "sluice/expr/binder.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/join.h"
#include "sluice/plan/project.h"
#include "sluice/plan/session_window_merge.h"
#include "sluice/plan/sort.h"
#include "sluice/plan/window.h"

namespace sluice::plan {

void ColumnUse::Merge(const ColumnUse& other) {
  if (whole) return;
  if (other.whole) {
    *this = Whole();
    return;
  }
  for (const auto& [name, use] : other.fields) fields[name].Merge(use);
}

ColumnUses AllColumns(const LogicalPlan& node) {
  return ColumnUses(node.output().size(), ColumnUse::Whole());
}

ColumnMask ReadFlags(const ColumnUses& uses) {
  ColumnMask flags;
  flags.reserve(uses.size());
  for (const auto& use : uses) flags.push_back(use.read());
  return flags;
}

namespace {

// Adds to `uses` that `e`'s result is read as `result` says.
void MarkRead(const expr::BoundExpr& e, const ColumnUse& result, ColumnUses& uses) {
  if (e.kind() == expr::BoundKind::kColumn) {
    uses[static_cast<size_t>(static_cast<const expr::BoundColumn&>(e).index())].Merge(result);
    return;
  }
  if (auto field = expr::StructFieldName(e)) {
    ColumnUse of_struct;
    of_struct.fields[*field] = result;
    MarkRead(*e.children()[0], of_struct, uses);
    return;
  }
  for (const auto& child : e.children()) MarkRead(*child, ColumnUse::Whole(), uses);
}

ColumnUses NoColumns(const LogicalPlan& node) { return ColumnUses(node.output().size()); }

ColumnUses OfProject(const Project& project, const ColumnUses& required) {
  ColumnUses child = NoColumns(*project.children()[0]);
  for (size_t i = 0; i < project.exprs().size(); ++i) {
    if (required[i].read()) MarkRead(*project.exprs()[i].expr, required[i], child);
  }
  return child;
}

ColumnUses OfAggregate(const Aggregate& aggregate, const ColumnUses& required) {
  // Deduplication passes its child's rows through; an aggregation reads only its keys and
  // the arguments of its functions.
  ColumnUses child = aggregate.is_deduplicate() ? required : NoColumns(*aggregate.children()[0]);
  for (const auto& key : aggregate.grouping()) MarkColumnsRead(*key.expr, child);
  for (const auto& function : aggregate.aggregates()) {
    for (const auto& arg : function->args()) MarkColumnsRead(*arg, child);
  }
  return child;
}

ColumnUses OfWindow(const Window& window, const ColumnUses& required) {
  // The output is the child's columns, passed through, then one column per function.
  const size_t width = window.children()[0]->output().size();
  ColumnUses child(required.begin(), required.begin() + static_cast<std::ptrdiff_t>(width));
  for (const auto& key : window.partition_keys()) MarkColumnsRead(*key, child);
  for (const auto& key : window.order_keys()) MarkColumnsRead(*key.expr, child);
  for (const auto& function : window.functions()) {
    for (const auto& arg : function.args) MarkColumnsRead(*arg, child);
    if (function.aggregate) {
      for (const auto& arg : function.aggregate->args()) MarkColumnsRead(*arg, child);
    }
  }
  return child;
}

void MarkEventTimeColumns(const LogicalPlan& node, ColumnUses& uses) {
  for (size_t i = 0; i < node.output().size(); ++i) {
    if (node.output()[i].event_time_delay_ms) uses[i] = ColumnUse::Whole();
  }
}

std::vector<ColumnUses> OfJoin(const Join& join, const ColumnUses& required) {
  const LogicalPlan& left = *join.children()[0];
  const LogicalPlan& right = *join.children()[1];
  const size_t left_width = left.output().size();
  ColumnUses both(left_width + right.output().size());
  // Semi and anti joins output the left columns only.
  for (size_t i = 0; i < required.size(); ++i) both[i] = required[i];
  if (join.residual()) MarkColumnsRead(*join.residual(), both);
  ColumnUses left_uses(both.begin(), both.begin() + static_cast<std::ptrdiff_t>(left_width));
  ColumnUses right_uses(both.begin() + static_cast<std::ptrdiff_t>(left_width), both.end());
  for (const auto& key : join.left_keys()) MarkColumnsRead(*key, left_uses);
  for (const auto& key : join.right_keys()) MarkColumnsRead(*key, right_uses);
  // A side's event time drops its late rows and evicts its state, read or not.
  MarkEventTimeColumns(left, left_uses);
  MarkEventTimeColumns(right, right_uses);
  return {left_uses, right_uses};
}

std::shared_ptr<arrow::DataType> ReadType(const std::shared_ptr<arrow::DataType>& type,
                                          const ColumnUse& use) {
  if (use.whole || type->id() != arrow::Type::STRUCT) return type;
  arrow::FieldVector fields;
  for (const auto& field : type->fields()) {
    auto read = use.fields.find(field->name());
    if (read != use.fields.end()) {
      fields.push_back(field->WithType(ReadType(field->type(), read->second)));
    }
  }
  return arrow::struct_(std::move(fields));
}

}  // namespace

void MarkColumnsRead(const expr::BoundExpr& e, ColumnUses& uses) {
  MarkRead(e, ColumnUse::Whole(), uses);
}

std::vector<ColumnUses> RequiredOfChildren(const LogicalPlan& node, const ColumnUses& required) {
  switch (node.kind()) {
    case PlanKind::kProject:
      return {OfProject(static_cast<const Project&>(node), required)};
    case PlanKind::kFilter: {
      ColumnUses child = required;
      MarkColumnsRead(*static_cast<const Filter&>(node).condition(), child);
      return {child};
    }
    case PlanKind::kAggregate:
      return {OfAggregate(static_cast<const Aggregate&>(node), required)};
    case PlanKind::kSort: {
      ColumnUses child = required;
      for (const auto& key : static_cast<const Sort&>(node).keys()) {
        MarkColumnsRead(*key.expr, child);
      }
      return {child};
    }
    case PlanKind::kEventTimeWatermark: {
      ColumnUses child = required;
      child[static_cast<size_t>(static_cast<const EventTimeWatermark&>(node).column())] =
          ColumnUse::Whole();
      return {child};
    }
    case PlanKind::kMergeSessionWindows: {
      // Rows pass through as they are, but for the session column; merging reads the keys and
      // the sessions.
      const auto& merge = static_cast<const MergeSessionWindows&>(node);
      ColumnUses child = required;
      for (const auto& key : merge.keys()) MarkColumnsRead(*key, child);
      child[static_cast<size_t>(merge.session_column())] = ColumnUse::Whole();
      return {child};
    }
    case PlanKind::kLimit:
    case PlanKind::kSubqueryAlias:
      return {required};
    case PlanKind::kWindow:
      return {OfWindow(static_cast<const Window&>(node), required)};
    case PlanKind::kUnion:
      // Each child's columns are the output's, by position and of the same types (Union::Make
      // casts them).
      return std::vector<ColumnUses>(node.children().size(), required);
    case PlanKind::kJoin:
      return OfJoin(static_cast<const Join&>(node), required);
    case PlanKind::kGenerate: {
      // The child's columns come first in the output, as they are; the collection reads its
      // own.
      const size_t width = node.children()[0]->output().size();
      ColumnUses child(required.begin(), required.begin() + static_cast<std::ptrdiff_t>(width));
      MarkColumnsRead(*static_cast<const Generate&>(node).collection(), child);
      return {child};
    }
    default: {
      std::vector<ColumnUses> children;
      for (const auto& child : node.children()) children.push_back(AllColumns(*child));
      return children;
    }
  }
}

std::shared_ptr<arrow::Schema> ReadSchema(const arrow::Schema& schema, const ColumnUses& uses) {
  arrow::FieldVector fields;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const ColumnUse& use = uses[static_cast<size_t>(i)];
    if (!use.read()) continue;
    const auto& field = schema.field(i);
    fields.push_back(field->WithType(ReadType(field->type(), use)));
  }
  return arrow::schema(std::move(fields));
}

}  // namespace sluice::plan
