#include "sluice/plan/streaming_checker.h"

#include <string>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/flat_map_groups_with_state.h"
#include "sluice/plan/join.h"
#include "sluice/plan/join_state_eviction.h"

namespace sluice::plan {

namespace {

// Spark 4.0 raises its checker's errors under this legacy class, with these messages.
arrow::Status Unsupported(const std::string& message) {
  return SparkError("_LEGACY_ERROR_TEMP_3102", message);
}

arrow::Status UnsupportedOutputMode(OutputMode mode, const std::string& what) {
  return SparkError("STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION",
                    "Invalid streaming output mode: " + AsciiLower(OutputModeName(mode)) +
                        ". This output mode is not supported for " + what +
                        " on streaming DataFrames/DataSets.");
}

arrow::Status NotYet(const LogicalPlan& node, const std::string& what) {
  return SparkError("UNSUPPORTED_FEATURE.STATEFUL_STREAMING",
                    what + " on a streaming DataFrame needs a stateful operator, which this "
                           "version does not run yet: " + node.Describe());
}

bool IsStreamingAggregation(const LogicalPlan& node) {
  return node.kind() == PlanKind::kAggregate && node.is_streaming() &&
         !static_cast<const Aggregate&>(node).is_deduplicate();
}

bool HasAggregate(const LogicalPlan& node) {
  if (IsStreamingAggregation(node)) return true;
  for (const auto& child : node.children()) {
    if (HasAggregate(*child)) return true;
  }
  return false;
}

/// True when a column of `node`'s input carries an event-time watermark.
bool HasWatermark(const LogicalPlan& node) {
  for (const auto& attribute : node.children()[0]->output()) {
    if (attribute.event_time_delay_ms) return true;
  }
  return false;
}

arrow::Status CheckAggregate(const Aggregate& aggregate, OutputMode mode,
                             bool check_correctness) {
  // In append mode an upstream aggregation emits only final rows, which are never late for
  // the next operator (it drops rows by the previous batch's watermark); in update and
  // complete modes Spark's global-watermark check refuses an aggregation fed by an
  // aggregation, while a deduplication after one runs.
  if (HasAggregate(*aggregate.children()[0]) && mode != OutputMode::kAppend) {
    if (check_correctness && !aggregate.is_deduplicate()) {
      return Unsupported(
          "Detected pattern of possible 'correctness' issue due to global watermark. The query "
          "contains stateful operation which can emit rows older than the current watermark "
          "plus allowed late record delay, which are \"late rows\" in downstream stateful "
          "operations and these rows can be discarded. Please refer the programming guide doc "
          "for more details. If you understand the possible risk of correctness issue and "
          "still need to run the query, you can disable this check by setting the config "
          "`spark.sql.streaming.statefulOperator.checkCorrectness.enabled` to false.");
    }
  }
  if (aggregate.is_deduplicate()) {
    if (aggregate.deduplication() == Aggregate::Deduplication::kWithinWatermark &&
        !HasWatermark(aggregate)) {
      return Unsupported(
          "dropDuplicatesWithinWatermark is not supported on streaming DataFrames/DataSets "
          "without watermark");
    }
    return arrow::Status::OK();
  }
  for (const auto& function : aggregate.aggregates()) {
    if (function->distinct()) {
      return Unsupported(
          "Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider "
          "using approx_count_distinct() instead.");
    }
  }
  if (mode == OutputMode::kAppend && !aggregate.event_time_key()) {
    return UnsupportedOutputMode(mode, "streaming aggregations without watermark");
  }
  return arrow::Status::OK();
}

/// Spark's checkForStreamStreamJoinWatermark: an outer or semi stream-stream join must be able
/// to evict the rows it would pad with nulls (or emit once).
arrow::Status CheckStreamStreamJoinWatermark(const Join& join) {
  bool bounded = false;
  switch (join.join_type()) {
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi:
      bounded = HasTimeRangeCondition(join, JoinSide::kLeft);
      break;
    case JoinType::kRightOuter:
      bounded = HasTimeRangeCondition(join, JoinSide::kRight);
      break;
    case JoinType::kFullOuter:
      bounded = HasTimeRangeCondition(join, JoinSide::kLeft) ||
                HasTimeRangeCondition(join, JoinSide::kRight);
      break;
    default:
      break;
  }
  if (WatermarkInJoinKeys(join) || bounded) return arrow::Status::OK();
  return Unsupported("Stream-stream " + JoinTypeName(join.join_type()) +
                     " join between two streaming DataFrame/Datasets is not supported without "
                     "a watermark in the join keys, or a watermark on the nullable side and an "
                     "appropriate range condition");
}

arrow::Status CheckJoin(const Join& join, OutputMode mode) {
  bool left = join.children()[0]->is_streaming();
  bool right = join.children()[1]->is_streaming();
  const std::string type = JoinTypeName(join.join_type());
  if (left && right && mode != OutputMode::kAppend) {
    return Unsupported(std::string("Join between two streaming DataFrames/Datasets is not "
                                   "supported in ") +
                       OutputModeName(mode) + " output mode, only in Append output mode");
  }
  switch (join.join_type()) {
    case JoinType::kInner:
    case JoinType::kCross:
      break;
    case JoinType::kLeftOuter:
    case JoinType::kLeftSemi:
      if (!left && right) {
        return Unsupported(type + " join with a streaming DataFrame/Dataset on the right and a "
                                  "static DataFrame/Dataset on the left is not supported");
      }
      if (left && right) ARROW_RETURN_NOT_OK(CheckStreamStreamJoinWatermark(join));
      break;
    case JoinType::kLeftAnti:
      if (right) {
        return Unsupported(type + " joins with a streaming DataFrame/Dataset on the right are "
                                  "not supported");
      }
      break;
    case JoinType::kRightOuter:
      if (left && !right) {
        return Unsupported(type + " join with a streaming DataFrame/Dataset on the left and a "
                                  "static DataFrame/DataSet on the right not supported");
      }
      if (left && right) ARROW_RETURN_NOT_OK(CheckStreamStreamJoinWatermark(join));
      break;
    case JoinType::kFullOuter:
      if (left && !right) {
        return Unsupported(type + " joins with streaming DataFrames/Datasets on the left and a "
                                  "static DataFrame/Dataset on the right is not supported");
      }
      if (!left && right) {
        return Unsupported(type + " joins with streaming DataFrames/Datasets on the right and "
                                  "a static DataFrame/Dataset on the left is not supported");
      }
      ARROW_RETURN_NOT_OK(CheckStreamStreamJoinWatermark(join));
      break;
  }
  if (left && right && join.left_keys().empty()) {
    // Spark fails when it plans the first batch; the symmetric hash join needs a key.
    return SparkError("UNSUPPORTED_FEATURE.STREAM_STREAM_JOIN_WITHOUT_EQUALITY",
                      "Stream-stream join without equality predicate is not supported: the "
                      "condition needs an equality between a column of each side.");
  }
  return arrow::Status::OK();
}

/// Spark's checks of [flat]mapGroupsWithState: its output mode against the query's and
/// aggregations, and a watermark for event-time timeouts.
arrow::Status CheckGroupsWithState(const FlatMapGroupsWithState& node, OutputMode mode,
                                   bool query_has_aggregate) {
  const std::string query_mode = OutputModeName(mode);
  if (node.is_map()) {
    if (query_has_aggregate) {
      return Unsupported(
          "mapGroupsWithState is not supported with aggregation on a streaming "
          "DataFrame/Dataset");
    }
    if (mode != OutputMode::kUpdate) {
      return Unsupported("mapGroupsWithState is not supported with " + query_mode +
                         " output mode on a streaming DataFrame/Dataset");
    }
  } else if (!query_has_aggregate) {
    if (node.output_mode() != mode) {
      return Unsupported(std::string("flatMapGroupsWithState in ") +
                         AsciiLower(OutputModeName(node.output_mode())) +
                         " mode is not supported with " + query_mode +
                         " output mode on a streaming DataFrame/Dataset");
    }
  } else if (node.output_mode() == OutputMode::kUpdate) {
    return Unsupported(
        "flatMapGroupsWithState in update mode is not supported with aggregation on a "
        "streaming DataFrame/Dataset");
  } else if (HasAggregate(*node.children()[0])) {
    return Unsupported(
        "flatMapGroupsWithState in append mode is not supported after aggregation on a "
        "streaming DataFrame/Dataset");
  }
  if (node.timeout() == GroupStateTimeout::kEventTime && !HasWatermark(node)) {
    return Unsupported(
        "Watermark must be specified in the query using '[Dataset/DataFrame].withWatermark()' "
        "for using event-time timeout in a [map|flatMap]GroupsWithState. Event-time timeout "
        "not supported without watermark.");
  }
  return arrow::Status::OK();
}

arrow::Status CheckNode(const LogicalPlan& node, OutputMode mode, bool check_correctness,
                        bool query_has_aggregate) {
  if (node.is_streaming()) {
    switch (node.kind()) {
      case PlanKind::kAggregate:
        ARROW_RETURN_NOT_OK(
            CheckAggregate(static_cast<const Aggregate&>(node), mode, check_correctness));
        break;
      case PlanKind::kMergeSessionWindows:
        if (mode == OutputMode::kUpdate) {
          return UnsupportedOutputMode(mode, "session window streaming aggregations");
        }
        break;
      case PlanKind::kSort:
        // Only the whole result of an aggregation, as complete mode gives it, can be sorted.
        if (mode != OutputMode::kComplete || !HasAggregate(node)) {
          return Unsupported(
              "Sorting is not supported on streaming DataFrames/Datasets, unless it is on "
              "aggregated DataFrame/Dataset in Complete output mode");
        }
        break;
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
        ARROW_RETURN_NOT_OK(CheckJoin(static_cast<const Join&>(node), mode));
        break;
      case PlanKind::kFlatMapGroupsWithState:
        ARROW_RETURN_NOT_OK(CheckGroupsWithState(static_cast<const FlatMapGroupsWithState&>(node),
                                                 mode, query_has_aggregate));
        break;
      case PlanKind::kWindow: {
        // Window functions over rows (not time windows) need the whole input, which a stream
        // never has; foreachBatch can run them on each micro-batch.
        const auto& column = node.output()[node.children()[0]->output().size()].name;
        return SparkError("NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING",
                          "Window function is not supported in " +
                              column.substr(0, column.find(" OVER ")) + " (as column `" +
                              column + "`) on streaming DataFrames/Datasets.");
      }
      default:
        break;
    }
  }
  for (const auto& child : node.children()) {
    ARROW_RETURN_NOT_OK(CheckNode(*child, mode, check_correctness, query_has_aggregate));
  }
  return arrow::Status::OK();
}

}  // namespace

arrow::Status CheckStreamingPlan(const LogicalPlan& plan, OutputMode mode,
                                 bool check_correctness) {
  if (mode == OutputMode::kComplete && !HasAggregate(plan)) {
    return UnsupportedOutputMode(mode, "no streaming aggregations");
  }
  return CheckNode(plan, mode, check_correctness, HasAggregate(plan));
}

}  // namespace sluice::plan
