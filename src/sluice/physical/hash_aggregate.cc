#include "sluice/physical/hash_aggregate.h"

#include <arrow/array/array_base.h>
#include <arrow/type.h>

#include "sluice/expr/call_memos.h"
#include "sluice/physical/grouped_aggregation.h"

namespace sluice::physical {

namespace {

class HashAggregateStream final : public BatchStream {
 public:
  HashAggregateStream(const plan::Aggregate& plan, BatchStreamPtr input,
                      const ExecContext& context)
      : plan_(plan),
        schema_(expr::ToSchema(plan.output())),
        input_(std::move(input)),
        context_(context),
        eval_(context.eval) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    ARROW_ASSIGN_OR_RAISE(auto aggregation,
                          GroupedAggregation::Make(plan_, context_.eval.pool));
    ARROW_RETURN_NOT_OK(aggregation->ConsumeAll(*input_, eval_.get()));
    ARROW_ASSIGN_OR_RAISE(auto keys, aggregation->GroupKeys());
    ARROW_ASSIGN_OR_RAISE(auto values, aggregation->Finalize(context_.eval));
    return AggregateOutput(plan_, keys, values, aggregation->num_groups(), context_);
  }

 private:
  const plan::Aggregate& plan_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  expr::OperatorEvalContext eval_;
  bool done_ = false;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatch>> AggregateOutput(
    const plan::Aggregate& aggregate, const arrow::ArrayVector& keys,
    const arrow::ArrayVector& values, int64_t num_groups, const ExecContext& context) {
  const auto& layout = aggregate.intermediate();
  const auto& sources = aggregate.intermediate_sources();
  arrow::ArrayVector columns;
  arrow::FieldVector fields = expr::ToSchema(layout)->fields();
  for (size_t c = 0; c < layout.size(); ++c) {
    const auto& source = sources[c];
    switch (source.kind) {
      case plan::Aggregate::Source::Kind::kKey:
        columns.push_back(keys[source.index]);
        break;
      case plan::Aggregate::Source::Kind::kAggregate:
        columns.push_back(values[source.index]);
        break;
      case plan::Aggregate::Source::Kind::kNull:
        // An input column that is not a grouping key: the analysis lets no result read it
        // (MISSING_AGGREGATION), so it holds its place as a column of the null type, which
        // needs no memory. Nulls of its own type took a zeroed buffer of a value per group:
        // 4% of the time of a batch of 10M new groups, most of it the page faults.
        fields[c] = fields[c]->WithType(arrow::null());
        columns.push_back(std::make_shared<arrow::NullArray>(num_groups));
        break;
    }
  }
  auto intermediate =
      arrow::RecordBatch::Make(arrow::schema(std::move(fields)), num_groups, std::move(columns));
  arrow::ArrayVector outputs;
  for (const auto& result : aggregate.results()) {
    ARROW_ASSIGN_OR_RAISE(auto column,
                          expr::EvaluateToArray(*result.expr, *intermediate, context.eval));
    outputs.push_back(std::move(column));
  }
  return arrow::RecordBatch::Make(expr::ToSchema(aggregate.output()), num_groups,
                                  std::move(outputs));
}

BatchStreamPtr MakeHashAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                 const ExecContext& context) {
  return std::make_unique<HashAggregateStream>(aggregate, std::move(input), context);
}

}  // namespace sluice::physical
