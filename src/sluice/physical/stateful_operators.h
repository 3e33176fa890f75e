// The stateful operators of a streaming plan, as the executor sees them.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/physical/state_key_encoding.h"
#include "sluice/plan/logical_plan.h"
#include "sluice/plan/output_mode.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// The nodes of `plan` that keep state on a stream, top-down (Spark numbers its stateful
/// operators in this order: the one nearest the sink is 0).
std::vector<const plan::LogicalPlan*> StatefulOperators(const plan::LogicalPlan& plan);

/// How the operator of the stateful `node` lays out its state in a checkpoint written with
/// `partitioning`.
state::StateOperatorInfo StateOperatorInfoOf(const plan::LogicalPlan& node, int64_t operator_id,
                                             int32_t num_partitions,
                                             StatePartitioning partitioning);

/// True when the stateful `node` emits or evicts because the watermark moved, so a batch
/// without new data must run when it does (Spark's shouldRunAnotherBatch).
bool ActsOnWatermark(const plan::LogicalPlan& node, plan::OutputMode mode);

/// True when the stateful `node` needs a batch at every trigger, data or not: processing-time
/// timeouts of [flat]mapGroupsWithState and processing-time timers of transformWithState,
/// which Spark checks each batch.
bool ActsOnEveryTrigger(const plan::LogicalPlan& node);

}  // namespace sluice::physical
