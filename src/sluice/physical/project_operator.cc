#include "sluice/physical/project_operator.h"

#include <arrow/array/util.h>
#include <arrow/compute/api.h>

#include "sluice/expr/attribute.h"

namespace sluice::physical {

namespace {

// A column nothing above reads, in place of its values: keeps the batch's layout (the plan's
// schema) without computing or copying them.
arrow::Result<std::shared_ptr<arrow::Array>> Unread(const std::shared_ptr<arrow::DataType>& type,
                                                    int64_t rows, const ExecContext& context) {
  return arrow::MakeArrayOfNull(type, rows, context.eval.pool);
}

class ProjectStream final : public BatchStream {
 public:
  ProjectStream(std::vector<expr::BoundExprPtr> exprs, std::shared_ptr<arrow::Schema> schema,
                plan::ColumnMask required, BatchStreamPtr input, const ExecContext& context)
      : exprs_(std::move(exprs)),
        schema_(std::move(schema)),
        required_(std::move(required)),
        input_(std::move(input)),
        context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    arrow::ArrayVector columns;
    columns.reserve(exprs_.size());
    for (size_t i = 0; i < exprs_.size(); ++i) {
      std::shared_ptr<arrow::Array> column;
      if (required_[i]) {
        ARROW_ASSIGN_OR_RAISE(column, expr::EvaluateToArray(*exprs_[i], *batch, context_.eval));
      } else {
        ARROW_ASSIGN_OR_RAISE(column, Unread(schema_->field(static_cast<int>(i))->type(),
                                             batch->num_rows(), context_));
      }
      columns.push_back(std::move(column));
    }
    return arrow::RecordBatch::Make(schema_, batch->num_rows(), std::move(columns));
  }

 private:
  std::vector<expr::BoundExprPtr> exprs_;
  std::shared_ptr<arrow::Schema> schema_;
  plan::ColumnMask required_;
  BatchStreamPtr input_;
  const ExecContext& context_;
};

class FilterStream final : public BatchStream {
 public:
  FilterStream(expr::BoundExprPtr condition, plan::ColumnMask required, BatchStreamPtr input,
               const ExecContext& context)
      : condition_(std::move(condition)),
        required_(std::move(required)),
        input_(std::move(input)),
        context_(context) {}

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
    // Filter drops rows whose mask is null, as WHERE does. Only the columns read above are
    // copied.
    std::vector<int> read;
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (required_[c]) read.push_back(c);
    }
    ARROW_ASSIGN_OR_RAISE(auto selected, batch->SelectColumns(read));
    ARROW_ASSIGN_OR_RAISE(auto filtered,
                          arrow::compute::Filter(arrow::Datum(selected), mask,
                                                 arrow::compute::FilterOptions::Defaults()));
    if (read.size() == static_cast<size_t>(batch->num_columns())) {
      return filtered.record_batch();
    }
    const auto& kept = *filtered.record_batch();
    arrow::ArrayVector columns(batch->num_columns());
    for (size_t k = 0; k < read.size(); ++k) columns[read[k]] = kept.column(static_cast<int>(k));
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (required_[c]) continue;
      ARROW_ASSIGN_OR_RAISE(columns[c], Unread(batch->schema()->field(c)->type(),
                                               kept.num_rows(), context_));
    }
    return arrow::RecordBatch::Make(batch->schema(), kept.num_rows(), std::move(columns));
  }

 private:
  expr::BoundExprPtr condition_;
  plan::ColumnMask required_;
  BatchStreamPtr input_;
  const ExecContext& context_;
};

}  // namespace

BatchStreamPtr MakeProject(const plan::Project& project, plan::ColumnMask required,
                           BatchStreamPtr input, const ExecContext& context) {
  std::vector<expr::BoundExprPtr> exprs;
  for (const auto& named : project.exprs()) exprs.push_back(named.expr);
  return std::make_unique<ProjectStream>(std::move(exprs), expr::ToSchema(project.output()),
                                         std::move(required), std::move(input), context);
}

BatchStreamPtr MakeFilter(const plan::Filter& filter, plan::ColumnMask required,
                          BatchStreamPtr input, const ExecContext& context) {
  return MakeFilter(filter.condition(), std::move(required), std::move(input), context);
}

BatchStreamPtr MakeFilter(expr::BoundExprPtr condition, plan::ColumnMask required,
                          BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<FilterStream>(std::move(condition), std::move(required),
                                        std::move(input), context);
}

}  // namespace sluice::physical
