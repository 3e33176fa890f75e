#include "sluice/physical/grouped_aggregation.h"

namespace sluice::physical {

arrow::Result<std::unique_ptr<GroupedAggregation>> GroupedAggregation::Make(
    const plan::Aggregate& aggregate, arrow::MemoryPool* pool) {
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& key : aggregate.grouping()) types.push_back(key.expr->type());
  return Make(aggregate, std::move(types), pool);
}

arrow::Result<std::unique_ptr<GroupedAggregation>> GroupedAggregation::Make(
    const plan::Aggregate& aggregate, std::vector<std::shared_ptr<arrow::DataType>> key_types,
    arrow::MemoryPool* pool) {
  std::unique_ptr<GroupedAggregation> result(new GroupedAggregation(aggregate));
  if (!key_types.empty()) {
    ARROW_ASSIGN_OR_RAISE(result->grouper_, expr::KeyGrouper::Make(std::move(key_types), pool));
  } else {
    result->num_groups_ = 1;
  }
  for (const auto& function : aggregate.aggregates()) {
    ARROW_ASSIGN_OR_RAISE(auto accumulator, function->MakeAccumulator(pool));
    ARROW_RETURN_NOT_OK(accumulator->Resize(result->num_groups_));
    result->accumulators_.push_back(std::move(accumulator));
  }
  return result;
}

arrow::Result<arrow::ArrayVector> GroupedAggregation::EvaluateKeys(
    const arrow::RecordBatch& batch, const expr::EvalContext& eval) const {
  arrow::ArrayVector keys;
  for (const auto& key : aggregate_.grouping()) {
    ARROW_ASSIGN_OR_RAISE(auto array, expr::EvaluateToArray(*key.expr, batch, eval));
    keys.push_back(std::move(array));
  }
  return keys;
}

arrow::Status GroupedAggregation::Consume(const arrow::RecordBatch& batch,
                                          const arrow::ArrayVector& keys,
                                          const expr::EvalContext& eval) {
  const int64_t rows = batch.num_rows();
  if (rows == 0) return arrow::Status::OK();
  if (grouper_) {
    ARROW_RETURN_NOT_OK(grouper_->Consume(keys, rows, &group_ids_));
    num_groups_ = grouper_->num_groups();
  } else if (static_cast<int64_t>(group_ids_.size()) < rows) {
    group_ids_.assign(rows, 0);
  }
  std::vector<arrow::Datum> args;
  for (size_t a = 0; a < accumulators_.size(); ++a) {
    args.clear();
    for (const auto& arg : aggregate_.aggregates()[a]->args()) {
      ARROW_ASSIGN_OR_RAISE(auto value, arg->Evaluate(batch, eval));
      args.push_back(std::move(value));
    }
    ARROW_RETURN_NOT_OK(accumulators_[a]->Resize(num_groups_));
    ARROW_RETURN_NOT_OK(accumulators_[a]->Update(group_ids_.data(), rows, args, eval));
  }
  return arrow::Status::OK();
}

arrow::Status GroupedAggregation::ConsumeAll(BatchStream& input, const expr::EvalContext& eval) {
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, input.Next());
    if (batch == nullptr) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto keys, EvaluateKeys(*batch, eval));
    ARROW_RETURN_NOT_OK(Consume(*batch, keys, eval));
  }
}

arrow::Result<arrow::ArrayVector> GroupedAggregation::GroupKeys() const {
  if (!grouper_) return arrow::ArrayVector{};
  return grouper_->GetUniques();
}

arrow::Result<arrow::ArrayVector> GroupedAggregation::Finalize(const expr::EvalContext& eval) {
  arrow::ArrayVector values;
  for (auto& accumulator : accumulators_) {
    ARROW_RETURN_NOT_OK(accumulator->Resize(num_groups_));
    ARROW_ASSIGN_OR_RAISE(auto value, accumulator->Finalize(eval));
    values.push_back(std::move(value));
  }
  return values;
}

}  // namespace sluice::physical
