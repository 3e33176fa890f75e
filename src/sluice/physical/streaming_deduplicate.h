#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/plan/aggregate.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// How the operator of a deduplicating `aggregate` lays out its state (see
/// AggregateStateInfo) in a checkpoint written with `partitioning`.
state::StateOperatorInfo DeduplicateStateInfo(const plan::Aggregate& aggregate,
                                              int64_t operator_id, int32_t num_partitions,
                                              StatePartitioning partitioning);

/// Runs dropDuplicates / dropDuplicatesWithinWatermark on a stream for one micro-batch
/// (Spark's StreamingDeduplicateExec and StreamingDeduplicateWithinWatermarkExec): a row is
/// emitted, in input order, when its key is in neither the operator's state store nor earlier
/// in the batch, and its key is then kept. Keys live in the query's shuffle partitions, one
/// store each. Late rows (event time at or below the late-events watermark) are dropped and
/// counted. Kept keys leave the state once the eviction watermark passes their event time
/// (dropDuplicates with the event time in the key) or their first row's event time plus the
/// watermark's delay (within watermark); without an event time they stay forever.
/// Commits every store when its input ends. `context.stateful` must be set.
BatchStreamPtr MakeStreamingDeduplicate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                        const ExecContext& context);

}  // namespace sluice::physical
