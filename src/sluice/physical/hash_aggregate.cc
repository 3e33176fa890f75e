#include "sluice/physical/hash_aggregate.h"

#include <arrow/array/util.h>

#include "sluice/expr/key_grouper.h"

namespace sluice::physical {

namespace {

class HashAggregateStream final : public BatchStream {
 public:
  HashAggregateStream(const plan::Aggregate& plan, BatchStreamPtr input,
                      const ExecContext& context)
      : grouping_(plan.grouping()),
        aggregates_(plan.aggregates()),
        layout_(plan.intermediate()),
        sources_(plan.intermediate_sources()),
        results_(plan.results()),
        schema_(expr::ToSchema(plan.output())),
        input_(std::move(input)),
        context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    arrow::MemoryPool* pool = context_.eval.pool;
    const auto& grouping = grouping_;
    std::unique_ptr<expr::KeyGrouper> grouper;
    if (!grouping.empty()) {
      std::vector<std::shared_ptr<arrow::DataType>> types;
      for (const auto& key : grouping) types.push_back(key.expr->type());
      ARROW_ASSIGN_OR_RAISE(grouper, expr::KeyGrouper::Make(std::move(types), pool));
    }
    std::vector<std::unique_ptr<expr::GroupedAccumulator>> accumulators;
    for (const auto& function : aggregates_) {
      ARROW_ASSIGN_OR_RAISE(auto accumulator, function->MakeAccumulator(pool));
      accumulators.push_back(std::move(accumulator));
    }
    std::vector<uint32_t> group_ids;
    int64_t num_groups = grouping.empty() ? 1 : 0;
    for (auto& accumulator : accumulators) ARROW_RETURN_NOT_OK(accumulator->Resize(num_groups));
    std::vector<arrow::Datum> args;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
      if (batch == nullptr) break;
      const int64_t rows = batch->num_rows();
      if (rows == 0) continue;
      if (grouper) {
        arrow::ArrayVector keys;
        for (const auto& key : grouping) {
          ARROW_ASSIGN_OR_RAISE(auto array,
                                expr::EvaluateToArray(*key.expr, *batch, context_.eval));
          keys.push_back(std::move(array));
        }
        ARROW_RETURN_NOT_OK(grouper->Consume(keys, rows, &group_ids));
        num_groups = grouper->num_groups();
      } else if (static_cast<int64_t>(group_ids.size()) < rows) {
        group_ids.assign(rows, 0);
      }
      for (size_t a = 0; a < accumulators.size(); ++a) {
        const auto& function = *aggregates_[a];
        args.clear();
        for (const auto& arg : function.args()) {
          ARROW_ASSIGN_OR_RAISE(auto value, arg->Evaluate(*batch, context_.eval));
          args.push_back(std::move(value));
        }
        ARROW_RETURN_NOT_OK(accumulators[a]->Resize(num_groups));
        ARROW_RETURN_NOT_OK(
            accumulators[a]->Update(group_ids.data(), rows, args, context_.eval));
      }
    }
    arrow::ArrayVector keys;
    if (grouper) {
      ARROW_ASSIGN_OR_RAISE(keys, grouper->GetUniques());
    }
    arrow::ArrayVector values;
    for (auto& accumulator : accumulators) {
      ARROW_RETURN_NOT_OK(accumulator->Resize(num_groups));
      ARROW_ASSIGN_OR_RAISE(auto value, accumulator->Finalize(context_.eval));
      values.push_back(std::move(value));
    }
    arrow::ArrayVector columns;
    const auto& layout = layout_;
    for (size_t c = 0; c < layout.size(); ++c) {
      const auto& source = sources_[c];
      switch (source.kind) {
        case plan::Aggregate::Source::Kind::kKey:
          columns.push_back(keys[source.index]);
          break;
        case plan::Aggregate::Source::Kind::kAggregate:
          columns.push_back(values[source.index]);
          break;
        case plan::Aggregate::Source::Kind::kNull: {
          ARROW_ASSIGN_OR_RAISE(auto nulls,
                                arrow::MakeArrayOfNull(layout[c].type, num_groups, pool));
          columns.push_back(std::move(nulls));
          break;
        }
      }
    }
    auto intermediate =
        arrow::RecordBatch::Make(expr::ToSchema(layout), num_groups, std::move(columns));
    arrow::ArrayVector outputs;
    for (const auto& result : results_) {
      ARROW_ASSIGN_OR_RAISE(auto column,
                            expr::EvaluateToArray(*result.expr, *intermediate, context_.eval));
      outputs.push_back(std::move(column));
    }
    return arrow::RecordBatch::Make(schema_, num_groups, std::move(outputs));
  }

 private:
  std::vector<expr::NamedExpr> grouping_;
  std::vector<expr::AggregateFunctionPtr> aggregates_;
  expr::AttributeList layout_;
  std::vector<plan::Aggregate::Source> sources_;
  std::vector<expr::NamedExpr> results_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  bool done_ = false;
};

}  // namespace

BatchStreamPtr MakeHashAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                 const ExecContext& context) {
  return std::make_unique<HashAggregateStream>(aggregate, std::move(input), context);
}

}  // namespace sluice::physical
