#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/flat_map_groups_with_state.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// How [flat]mapGroupsWithState keeps its state: per key (the grouping columns), Spark's
/// state format 2, the state row as `groupState` (null once removed while a timeout stays) and
/// `timeoutTimestamp` (-1 for none).
state::StateOperatorInfo GroupsWithStateInfo(const plan::FlatMapGroupsWithState& node,
                                             int64_t operator_id, int32_t num_partitions);

/// Runs [flat]mapGroupsWithState for one micro-batch (Spark's FlatMapGroupsWithStateExec): the
/// function is called for each key with rows in the batch (late rows dropped with event-time
/// timeouts), then for each key whose timeout is before the batch's processing time
/// (processing-time timeouts) or watermark (event-time timeouts), with no rows. A key's state
/// is written when the call updated or removed it or changed its timeout; each call starts
/// without a timeout, so a call that sets none clears it. Keys are called partition by
/// partition, one call at a time. Without `context.stateful` (a batch query), each key is
/// called once without state.
BatchStreamPtr MakeFlatMapGroupsWithState(const plan::FlatMapGroupsWithState& node,
                                          BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
