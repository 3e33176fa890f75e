// Which columns of each node's output are read above it, and of a struct column which fields:
// Spark's column pruning and nested schema pruning, worked out as the physical planner walks
// down the plan. Projections and filters then compute only what is read, a stream-stream
// join keeps only that in its state, and a scan of columnar files decodes only those columns
// and fields (as Spark, which projects the rest away, does).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// How much of one value is read: all of it, or (a struct) some of its fields.
struct ColumnUse {
  bool whole = false;
  /// The fields read, by name, when not the whole value.
  std::map<std::string, ColumnUse> fields;

  bool read() const { return whole || !fields.empty(); }
  /// Adds what `other` reads.
  void Merge(const ColumnUse& other);
  static ColumnUse Whole() { return ColumnUse{true, {}}; }
};

/// One use per column of a node's output.
using ColumnUses = std::vector<ColumnUse>;
/// One flag per column of a node's output: whether anything above reads it.
using ColumnMask = std::vector<bool>;

/// Every column of `node`'s output, whole.
ColumnUses AllColumns(const LogicalPlan& node);

/// Whether each column is read at all.
ColumnMask ReadFlags(const ColumnUses& uses);

/// Adds to `uses` what `e` reads (`e` bound against the columns `uses` describes): a column
/// read only through struct field accesses (`s.a.b`) reads only those fields.
void MarkColumnsRead(const expr::BoundExpr& e, ColumnUses& uses);

/// What each child of `node` must produce for `required` of `node`'s output: what its
/// expressions read to compute them. Nodes that are not worked through (the arbitrary
/// stateful operators) need all of their children.
std::vector<ColumnUses> RequiredOfChildren(const LogicalPlan& node, const ColumnUses& required);

/// The parts of `schema` that `uses` read: the columns read, a struct pruned to the fields
/// read, in the schema's order.
std::shared_ptr<arrow::Schema> ReadSchema(const arrow::Schema& schema, const ColumnUses& uses);

}  // namespace sluice::plan
