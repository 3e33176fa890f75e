#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/aggregate.h"

namespace sluice::physical {

/// Runs an Aggregate node over its whole input: groups rows by the grouping keys in a hash table
/// (KeyGrouper), folds every aggregate per group with vectorized accumulators, and yields one row
/// per group in order of first appearance (one row for a global aggregation, even over no
/// input). Reads all of its input on the first Next().
BatchStreamPtr MakeHashAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                 const ExecContext& context);

}  // namespace sluice::physical
