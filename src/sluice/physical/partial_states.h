// The partial aggregation states stateful aggregations keep: every aggregate function's
// mergeable state fields side by side, one row per group.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/plan/aggregate.h"

namespace sluice::physical {

class BatchStream;
class GroupedAggregation;
struct StatefulContext;

using Accumulators = std::vector<std::unique_ptr<expr::GroupedAccumulator>>;

/// The groups a batch's rows fall into: the key values of each group (one array per grouping
/// key, in grouping order; none for a global aggregation) and its partial states (laid out as
/// ExportStates lays them out).
struct BatchGroups {
  int64_t num_groups = 0;
  arrow::ArrayVector keys;
  arrow::ArrayVector states;
};

/// Every row of `input` (a micro-batch's rows for the stateful aggregation `operator_id`)
/// folded per group. The hash table starts as large as the operator's last batch needed:
/// batches of a stream tend to have about as many groups as the one before.
arrow::Result<std::unique_ptr<GroupedAggregation>> AggregateBatch(
    const plan::Aggregate& aggregate, int64_t operator_id, BatchStream& input,
    const StatefulContext& stateful, const expr::EvalContext& eval);

/// Fresh accumulators of every aggregate of `aggregate`, holding `num_groups` empty groups.
arrow::Result<Accumulators> MakeAccumulators(const plan::Aggregate& aggregate,
                                             int64_t num_groups, arrow::MemoryPool* pool);

/// Folds partial states (`states`: every function's state fields side by side, as
/// ExportStates lays them out, one row per entry of `ids`) into the groups `ids`.
arrow::Status MergeStates(const plan::Aggregate& aggregate, const std::vector<uint32_t>& ids,
                          const arrow::ArrayVector& states, Accumulators* into,
                          const expr::EvalContext& eval);

/// The state fields of every accumulator side by side, one row per group.
arrow::Result<arrow::ArrayVector> ExportStates(const Accumulators& accumulators);

/// The finalized value of every aggregate for `num_rows` rows of partial states (laid out as
/// ExportStates lays them out): one array per aggregate function.
arrow::Result<arrow::ArrayVector> FinalizeStates(const plan::Aggregate& aggregate,
                                                 const arrow::ArrayVector& states,
                                                 int64_t num_rows,
                                                 const expr::EvalContext& eval);

/// The state fields of every function of `aggregate`, one after another under their own names,
/// as Spark names the aggregation buffers in its state schema (names may repeat: count(1) and
/// sum(v) of an avg both hold a `count`).
arrow::FieldVector StateFields(const plan::Aggregate& aggregate);

}  // namespace sluice::physical
