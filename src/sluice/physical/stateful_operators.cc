#include "sluice/physical/stateful_operators.h"

#include "sluice/physical/groups_with_state_operator.h"
#include "sluice/physical/streaming_aggregate.h"
#include "sluice/physical/streaming_deduplicate.h"
#include "sluice/physical/streaming_join.h"
#include "sluice/physical/transform_with_state_metadata.h"
#include "sluice/physical/streaming_session_aggregate.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/flat_map_groups_with_state.h"
#include "sluice/plan/join.h"
#include "sluice/plan/transform_with_state.h"

namespace sluice::physical {

namespace {

bool IsStreamStreamJoin(const plan::LogicalPlan& node) {
  return node.kind() == plan::PlanKind::kJoin && node.children()[0]->is_streaming() &&
         node.children()[1]->is_streaming();
}

void Collect(const plan::LogicalPlan& node, std::vector<const plan::LogicalPlan*>* out) {
  if (node.is_streaming() &&
      (node.kind() == plan::PlanKind::kAggregate ||
       node.kind() == plan::PlanKind::kFlatMapGroupsWithState ||
       node.kind() == plan::PlanKind::kTransformWithState || IsStreamStreamJoin(node))) {
    out->push_back(&node);
  }
  for (const auto& child : node.children()) Collect(*child, out);
}

}  // namespace

std::vector<const plan::LogicalPlan*> StatefulOperators(const plan::LogicalPlan& plan) {
  std::vector<const plan::LogicalPlan*> operators;
  Collect(plan, &operators);
  return operators;
}

state::StateOperatorInfo StateOperatorInfoOf(const plan::LogicalPlan& node, int64_t operator_id,
                                             int32_t num_partitions,
                                             StatePartitioning partitioning) {
  if (node.kind() == plan::PlanKind::kJoin) {
    return StreamingJoinStateInfo(static_cast<const plan::Join&>(node), operator_id,
                                  num_partitions);
  }
  if (node.kind() == plan::PlanKind::kFlatMapGroupsWithState) {
    return GroupsWithStateInfo(static_cast<const plan::FlatMapGroupsWithState&>(node),
                               operator_id, num_partitions);
  }
  if (node.kind() == plan::PlanKind::kTransformWithState) {
    return TransformWithStateInfo(static_cast<const plan::TransformWithState&>(node),
                                  operator_id, num_partitions);
  }
  const auto& aggregate = static_cast<const plan::Aggregate&>(node);
  if (aggregate.is_deduplicate()) {
    return DeduplicateStateInfo(aggregate, operator_id, num_partitions, partitioning);
  }
  const auto& child = *aggregate.children()[0];
  if (child.kind() == plan::PlanKind::kMergeSessionWindows) {
    return SessionAggregateStateInfo(aggregate,
                                     static_cast<const plan::MergeSessionWindows&>(child),
                                     operator_id, num_partitions);
  }
  return AggregateStateInfo(aggregate, operator_id, num_partitions);
}

bool ActsOnWatermark(const plan::LogicalPlan& node, plan::OutputMode mode) {
  if (node.kind() == plan::PlanKind::kJoin) {
    return StreamingJoinActsOnWatermark(static_cast<const plan::Join&>(node));
  }
  if (node.kind() == plan::PlanKind::kFlatMapGroupsWithState) {
    return static_cast<const plan::FlatMapGroupsWithState&>(node).timeout() ==
           plan::GroupStateTimeout::kEventTime;
  }
  if (node.kind() == plan::PlanKind::kTransformWithState) {
    return static_cast<const plan::TransformWithState&>(node).time_mode() ==
           plan::TimeMode::kEventTime;
  }
  const auto& aggregate = static_cast<const plan::Aggregate&>(node);
  // Deduplication evicts in every mode; an aggregation's complete mode keeps everything.
  return aggregate.is_deduplicate() || mode != plan::OutputMode::kComplete;
}

bool ActsOnEveryTrigger(const plan::LogicalPlan& node) {
  if (node.kind() == plan::PlanKind::kTransformWithState) {
    return static_cast<const plan::TransformWithState&>(node).time_mode() ==
           plan::TimeMode::kProcessingTime;
  }
  return node.kind() == plan::PlanKind::kFlatMapGroupsWithState &&
         static_cast<const plan::FlatMapGroupsWithState&>(node).timeout() ==
             plan::GroupStateTimeout::kProcessingTime;
}

}  // namespace sluice::physical
