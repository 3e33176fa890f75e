#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/join.h"

namespace sluice::physical {

/// Runs a Join: reads the right side into memory first and indexes it by the equi-join keys in
/// a hash table (no keys: every right row is a candidate, a nested loop), then streams the left
/// side batch by batch, checking the residual condition on candidate pairs. Unmatched rows of
/// outer sides are padded with nulls (right/full outer ones after the left side ends).
BatchStreamPtr MakeHashJoin(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                            const ExecContext& context);

}  // namespace sluice::physical
