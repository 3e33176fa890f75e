#include "sluice/physical/partial_states.h"

#include "sluice/physical/batch_stream.h"
#include "sluice/physical/grouped_aggregation.h"
#include "sluice/physical/stateful_context.h"

#include <numeric>

namespace sluice::physical {

namespace {

/// How many groups an aggregation's last batch had: the next batch's hash table starts that
/// large instead of growing step by step.
struct LastBatchGroups {
  int64_t groups = 0;
};

}  // namespace

arrow::Result<std::unique_ptr<GroupedAggregation>> AggregateBatch(
    const plan::Aggregate& aggregate, int64_t operator_id, BatchStream& input,
    const StatefulContext& stateful, const expr::EvalContext& eval) {
  ARROW_ASSIGN_OR_RAISE(auto aggregation, GroupedAggregation::Make(aggregate, eval.pool));
  auto last = stateful.CarriedOver<LastBatchGroups>(operator_id);
  aggregation->Reserve(last->groups);
  ARROW_RETURN_NOT_OK(aggregation->ConsumeAll(input, eval));
  last->groups = aggregation->num_groups();
  return aggregation;
}

arrow::Result<Accumulators> MakeAccumulators(const plan::Aggregate& aggregate,
                                             int64_t num_groups, arrow::MemoryPool* pool) {
  Accumulators accumulators;
  for (const auto& function : aggregate.aggregates()) {
    ARROW_ASSIGN_OR_RAISE(auto accumulator, function->MakeAccumulator(pool));
    ARROW_RETURN_NOT_OK(accumulator->Resize(num_groups));
    accumulators.push_back(std::move(accumulator));
  }
  return accumulators;
}

arrow::Status MergeStates(const plan::Aggregate& aggregate, const std::vector<uint32_t>& ids,
                          const arrow::ArrayVector& states, Accumulators* into,
                          const expr::EvalContext& eval) {
  if (ids.empty()) return arrow::Status::OK();
  size_t column = 0;
  for (size_t f = 0; f < into->size(); ++f) {
    const size_t width = aggregate.aggregates()[f]->state_fields().size();
    arrow::ArrayVector slice(states.begin() + column, states.begin() + column + width);
    ARROW_RETURN_NOT_OK(
        (*into)[f]->Merge(ids.data(), static_cast<int64_t>(ids.size()), slice, eval));
    column += width;
  }
  return arrow::Status::OK();
}

arrow::Result<arrow::ArrayVector> ExportStates(const Accumulators& accumulators) {
  arrow::ArrayVector columns;
  for (const auto& accumulator : accumulators) {
    ARROW_ASSIGN_OR_RAISE(auto states, accumulator->State());
    columns.insert(columns.end(), states.begin(), states.end());
  }
  return columns;
}

arrow::Result<arrow::ArrayVector> FinalizeStates(const plan::Aggregate& aggregate,
                                                 const arrow::ArrayVector& states,
                                                 int64_t num_rows,
                                                 const expr::EvalContext& eval) {
  ARROW_ASSIGN_OR_RAISE(auto accumulators, MakeAccumulators(aggregate, num_rows, eval.pool));
  std::vector<uint32_t> ids(num_rows);
  std::iota(ids.begin(), ids.end(), 0u);
  ARROW_RETURN_NOT_OK(MergeStates(aggregate, ids, states, &accumulators, eval));
  arrow::ArrayVector values;
  for (auto& accumulator : accumulators) {
    ARROW_ASSIGN_OR_RAISE(auto value, accumulator->Finalize(eval));
    values.push_back(std::move(value));
  }
  return values;
}

arrow::FieldVector StateFields(const plan::Aggregate& aggregate) {
  arrow::FieldVector fields;
  for (const auto& function : aggregate.aggregates()) {
    for (const auto& field : function->state_fields()) {
      fields.push_back(field);
    }
  }
  return fields;
}

}  // namespace sluice::physical
