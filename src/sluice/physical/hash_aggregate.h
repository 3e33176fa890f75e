#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/aggregate.h"

namespace sluice::physical {

/// Runs an Aggregate node over its whole input: groups rows by the grouping keys in a hash table
/// (KeyGrouper), folds every aggregate per group with vectorized accumulators, and yields one row
/// per group in order of first appearance (one row for a global aggregation, even over no
/// input). Reads all of its input on the first Next().
/// The output rows of `aggregate` for `num_groups` groups, given each group's grouping key
/// values (`keys`, one array per grouping key; empty without keys) and finalized aggregate
/// values (`values`, one array per aggregate function): lays out the intermediate rows and
/// evaluates the result expressions over them.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> AggregateOutput(
    const plan::Aggregate& aggregate, const arrow::ArrayVector& keys,
    const arrow::ArrayVector& values, int64_t num_groups, const ExecContext& context);

BatchStreamPtr MakeHashAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                 const ExecContext& context);

}  // namespace sluice::physical
