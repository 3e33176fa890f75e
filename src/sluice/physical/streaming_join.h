#pragma once

#include <array>
#include <string>

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/join.h"
#include "sluice/plan/required_columns.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// The name of one of a stream-stream join's stores in each partition: of the left (side 0)
/// or right (side 1) rows, their counts per key or their values.
std::string StreamingJoinStoreName(int side, bool values);

/// How a stream-stream join lays out its state: Spark's four stores per partition,
/// left-keyToNumValues (join key -> number of rows kept for it), left-keyWithIndexToValue
/// (join key and index -> the row and whether it has matched), and the same for the right.
state::StateOperatorInfo StreamingJoinStateInfo(const plan::Join& join, int64_t operator_id,
                                                int32_t num_partitions);

/// True when the join evicts state as the watermark moves (either side has a state watermark),
/// so a batch without new data must run when it does.
bool StreamingJoinActsOnWatermark(const plan::Join& join);

/// Runs a stream-stream join for one micro-batch (Spark's StreamingSymmetricHashJoinExec, state
/// format 2). Each side's new rows (late ones dropped) are joined with the rows the other side
/// keeps in state, then kept themselves; the left side goes first, so new left rows meet new
/// right rows once. Rows leave the state once the watermark passes them (see
/// join_state_eviction.h); an outer join then emits the rows of its preserved side(s) that never
/// matched, padded with nulls. A left semi join emits a left row once, on its first match.
/// Commits every store when done. `context.stateful` must be set.
///
/// `stored` are the columns of each side read above the join or by it (plan/required_columns.h):
/// the others are kept in state as nulls, so state holds what the query needs, in the layout
/// StreamingJoinStateInfo describes whatever the query reads.
BatchStreamPtr MakeStreamingJoin(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                                 std::array<plan::ColumnMask, 2> stored,
                                 const ExecContext& context);

}  // namespace sluice::physical
