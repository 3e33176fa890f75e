#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/session_window_merge.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// How the session window operator of `aggregate` lays out its state: one entry per value of
/// the other grouping keys, holding that key's open sessions with their partial states.
state::StateOperatorInfo SessionAggregateStateInfo(const plan::Aggregate& aggregate,
                                                   const plan::MergeSessionWindows& merge,
                                                   int64_t operator_id,
                                                   int32_t num_partitions);

/// Runs an aggregation grouped by session_window(...) on a stream for one micro-batch (Spark's
/// SessionWindowStateStoreRestoreExec, MergingSessionsExec and
/// SessionWindowStateStoreSaveExec). `input` yields the rows below `merge`, each with its own
/// session [time, time + gap). The batch's rows are aggregated per (key, own session); rows
/// whose session ends at or before the late-events watermark are dropped; each key's new
/// sessions are merged with the ones kept in state (sessions that overlap or touch become
/// one, their partial states merged). In append mode, sessions that end at or before the
/// eviction watermark are emitted and leave the state; in complete mode every session is
/// emitted each batch. Commits every store before returning its output.
BatchStreamPtr MakeStreamingSessionAggregate(const plan::Aggregate& aggregate,
                                             const plan::MergeSessionWindows& merge,
                                             BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
