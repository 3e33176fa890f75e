#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/expr/attribute.h"

namespace sluice::plan {

class LogicalPlan;
/// Plans are immutable and shared by the DataFrames built on them.
using PlanPtr = std::shared_ptr<const LogicalPlan>;

enum class PlanKind {
  kRelation,
  kProject,
  kFilter,
  kAggregate,
  kSort,
  kLimit,
  kUnion,
  kJoin,
  kSubqueryAlias,
  kGenerate,
  kEventTimeWatermark,
  kMergeSessionWindows,
  kWindow,
  kFlatMapGroupsWithState,
  kTransformWithState,
};

/// A node of a resolved logical plan: every node is analyzed when it is built (by its `Make`),
/// so its output columns and expressions are always bound, as a Spark DataFrame's are.
class LogicalPlan {
 public:
  virtual ~LogicalPlan() = default;

  PlanKind kind() const { return kind_; }
  const std::vector<PlanPtr>& children() const { return children_; }
  /// The output columns, in order.
  const expr::AttributeList& output() const { return output_; }
  /// True when some leaf is a streaming source: the plan then runs incrementally only.
  bool is_streaming() const;

  /// One line describing this node for explain(), without its children.
  virtual std::string Describe() const = 0;

  /// The whole tree, one node per line, indented like Spark's explain output.
  std::string TreeString() const;

 protected:
  LogicalPlan(PlanKind kind, std::vector<PlanPtr> children, expr::AttributeList output)
      : kind_(kind), children_(std::move(children)), output_(std::move(output)) {}

 private:
  void AppendTree(std::string& out, int depth) const;

  PlanKind kind_;
  std::vector<PlanPtr> children_;
  expr::AttributeList output_;
};

/// What explain() prints for a plan: a header, with `extended` the output columns and their
/// types, then the tree.
std::string ExplainText(const LogicalPlan& plan, bool extended);

/// "name#id, other#id" for a list of attributes, as explain prints them.
std::string DescribeAttributes(const expr::AttributeList& attributes);

}  // namespace sluice::plan
