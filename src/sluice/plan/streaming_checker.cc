#include "sluice/plan/streaming_checker.h"

#include <string>

#include "sluice/common/errors.h"
#include "sluice/plan/join.h"

namespace sluice::plan {

namespace {

arrow::Status Unsupported(const std::string& message) {
  return SparkError("UNSUPPORTED_STREAMING_OPERATION", message);
}

arrow::Status NotYet(const LogicalPlan& node, const std::string& what) {
  return SparkError("UNSUPPORTED_FEATURE.STATEFUL_STREAMING",
                    what + " on a streaming DataFrame needs a stateful operator, which this "
                           "version does not run yet: " + node.Describe());
}

bool HasAggregate(const LogicalPlan& node) {
  if (node.kind() == PlanKind::kAggregate && node.is_streaming()) return true;
  for (const auto& child : node.children()) {
    if (HasAggregate(*child)) return true;
  }
  return false;
}

arrow::Status CheckJoin(const Join& join) {
  bool left = join.children()[0]->is_streaming();
  bool right = join.children()[1]->is_streaming();
  const std::string type = JoinTypeName(join.join_type());
  if (left && right) return NotYet(join, "A stream-stream join");
  switch (join.join_type()) {
    case JoinType::kInner:
    case JoinType::kCross:
      return arrow::Status::OK();
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi:
    case JoinType::kLeftAnti:
      if (right) {
        return Unsupported(type + " join with a streaming DataFrame/Dataset on the right and a "
                                  "static DataFrame/Dataset on the left is not supported");
      }
      return arrow::Status::OK();
    case JoinType::kRightOuter:
      if (left) {
        return Unsupported(type + " join with a streaming DataFrame/Dataset on the left and a "
                                  "static DataFrame/Dataset on the right is not supported");
      }
      return arrow::Status::OK();
    case JoinType::kFullOuter:
      return Unsupported(type + " join between a streaming and a static "
                                "DataFrame/Dataset is not supported");
  }
  return arrow::Status::OK();
}

arrow::Status CheckNode(const LogicalPlan& node, OutputMode mode) {
  if (node.is_streaming()) {
    switch (node.kind()) {
      case PlanKind::kAggregate:
        if (mode == OutputMode::kAppend) {
          return Unsupported(
              "Append output mode not supported when there are streaming aggregations on "
              "streaming DataFrames/DataSets without watermark");
        }
        return NotYet(node, "An aggregation");
      case PlanKind::kSort:
        return Unsupported(
            "Sorting is not supported on streaming DataFrames/Datasets, unless it is on "
            "aggregated DataFrame/Dataset in Complete output mode");
      case PlanKind::kLimit:
        if (mode == OutputMode::kUpdate) {
          return Unsupported(
              "Limits are not supported on streaming DataFrames/Datasets in Update output "
              "mode");
        }
        return NotYet(node, "A limit");
      case PlanKind::kUnion:
        for (const auto& child : node.children()) {
          if (!child->is_streaming()) {
            return Unsupported(
                "Union between streaming and batch DataFrames/Datasets is not supported");
          }
        }
        break;
      case PlanKind::kJoin:
        ARROW_RETURN_NOT_OK(CheckJoin(static_cast<const Join&>(node)));
        break;
      default:
        break;
    }
  }
  for (const auto& child : node.children()) ARROW_RETURN_NOT_OK(CheckNode(*child, mode));
  return arrow::Status::OK();
}

}  // namespace

arrow::Status CheckStreamingPlan(const LogicalPlan& plan, OutputMode mode) {
  if (mode == OutputMode::kComplete && !HasAggregate(plan)) {
    return Unsupported(
        "Complete output mode not supported when there are no streaming aggregations on "
        "streaming DataFrames/Datasets");
  }
  return CheckNode(plan, mode);
}

}  // namespace sluice::plan
