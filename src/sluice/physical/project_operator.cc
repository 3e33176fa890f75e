#include "sluice/physical/project_operator.h"

#include <arrow/compute/api.h>

#include "sluice/expr/attribute.h"

namespace sluice::physical {

namespace {

class ProjectStream final : public BatchStream {
 public:
  ProjectStream(std::vector<expr::BoundExprPtr> exprs, std::shared_ptr<arrow::Schema> schema,
                BatchStreamPtr input, const ExecContext& context)
      : exprs_(std::move(exprs)),
        schema_(std::move(schema)),
        input_(std::move(input)),
        context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    arrow::ArrayVector columns;
    columns.reserve(exprs_.size());
    for (const auto& expr : exprs_) {
      ARROW_ASSIGN_OR_RAISE(auto column, expr::EvaluateToArray(*expr, *batch, context_.eval));
      columns.push_back(std::move(column));
    }
    return arrow::RecordBatch::Make(schema_, batch->num_rows(), std::move(columns));
  }

 private:
  std::vector<expr::BoundExprPtr> exprs_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr input_;
  const ExecContext& context_;
};

class FilterStream final : public BatchStream {
 public:
  FilterStream(expr::BoundExprPtr condition, BatchStreamPtr input, const ExecContext& context)
      : condition_(std::move(condition)), input_(std::move(input)), context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    ARROW_ASSIGN_OR_RAISE(auto mask, condition_->Evaluate(*batch, context_.eval));
    if (mask.is_scalar()) {
      const auto& keep = mask.scalar_as<arrow::BooleanScalar>();
      if (keep.is_valid && keep.value) return batch;
      return batch->Slice(0, 0);
    }
    // Filter drops rows whose mask is null, as WHERE does.
    ARROW_ASSIGN_OR_RAISE(auto filtered,
                          arrow::compute::Filter(arrow::Datum(batch), mask,
                                                 arrow::compute::FilterOptions::Defaults()));
    return filtered.record_batch();
  }

 private:
  expr::BoundExprPtr condition_;
  BatchStreamPtr input_;
  const ExecContext& context_;
};

}  // namespace

BatchStreamPtr MakeProject(const plan::Project& project, BatchStreamPtr input,
                           const ExecContext& context) {
  std::vector<expr::BoundExprPtr> exprs;
  for (const auto& named : project.exprs()) exprs.push_back(named.expr);
  return std::make_unique<ProjectStream>(std::move(exprs), expr::ToSchema(project.output()),
                                         std::move(input), context);
}

BatchStreamPtr MakeFilter(const plan::Filter& filter, BatchStreamPtr input,
                          const ExecContext& context) {
  return MakeFilter(filter.condition(), std::move(input), context);
}

BatchStreamPtr MakeFilter(expr::BoundExprPtr condition, BatchStreamPtr input,
                          const ExecContext& context) {
  return std::make_unique<FilterStream>(std::move(condition), std::move(input), context);
}

}  // namespace sluice::physical
