#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/aggregate.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// How the operator of `aggregate` lays out its state: its name, the key columns in the order
/// they are encoded (the event-time key first), and the partial-state columns of every
/// aggregate function.
state::StateOperatorInfo AggregateStateInfo(const plan::Aggregate& aggregate,
                                            int64_t operator_id, int32_t num_partitions);

/// Runs a streaming Aggregate for one micro-batch (Spark's StateStoreRestore and
/// StateStoreSave around a partial aggregation). The batch's rows are aggregated per key;
/// each key's partial state is merged with the one kept in the operator's state store
/// (partitioned by the hash of the key into the query's shuffle partitions, one store per
/// partition, processed in parallel), written back, and the output follows the output mode:
///  - complete: every key in the state;
///  - update: the keys this batch changed;
///  - append: the keys the watermark made final in this batch (removed from the state).
/// With an event-time key, keys at or below the late-events watermark are dropped (counted
/// as numRowsDroppedByWatermark) in append and update modes, and keys at or below the
/// eviction watermark are removed from the state. Reads all of its input on the first
/// Next(); commits every store before returning its output. `context.stateful` must be set.
/// With `per_pane` (which PaneAggregation::Applies to `aggregate` must allow), `input` gives
/// the rows below the aggregation's sliding window explosion, and they are aggregated per pane.
BatchStreamPtr MakeStreamingAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                      const ExecContext& context, bool per_pane = false);

}  // namespace sluice::physical
