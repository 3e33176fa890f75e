#include "sluice/physical/project_operator.h"

#include <arrow/array/util.h>
#include <arrow/compute/api.h>

#include "sluice/common/unread_columns.h"
#include "sluice/expr/attribute.h"
#include "sluice/expr/call_memos.h"
#include "sluice/expr/shared_subexpressions.h"
#include "sluice/physical/filter_rows.h"

namespace sluice::physical {

namespace {

// Only the required expressions are evaluated, what they share once per batch.
std::vector<expr::BoundExprPtr> RequiredOnly(std::vector<expr::BoundExprPtr> exprs,
                                             const plan::ColumnMask& required) {
  std::vector<expr::BoundExprPtr> kept;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (required[i]) kept.push_back(std::move(exprs[i]));
  }
  return kept;
}

class ProjectStream final : public BatchStream {
 public:
  ProjectStream(const std::vector<expr::BoundExprPtr>& exprs,
                std::shared_ptr<arrow::Schema> schema, plan::ColumnMask required,
                BatchStreamPtr input, const ExecContext& context)
      : exprs_(RequiredOnly(exprs, required), input->schema()->num_fields()),
        schema_(std::move(schema)),
        required_(std::move(required)),
        input_(std::move(input)),
        eval_(context.eval),
        unread_(context.eval.pool) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    ARROW_ASSIGN_OR_RAISE(auto extended, exprs_.Extend(batch, eval_.get()));
    arrow::ArrayVector columns;
    columns.reserve(required_.size());
    size_t next = 0;
    for (size_t i = 0; i < required_.size(); ++i) {
      std::shared_ptr<arrow::Array> column;
      if (required_[i]) {
        ARROW_ASSIGN_OR_RAISE(column,
                              expr::EvaluateToArray(*exprs_.exprs()[next++], *extended,
                                                    eval_.get()));
      } else {
        ARROW_ASSIGN_OR_RAISE(column, unread_.Get(schema_->field(static_cast<int>(i))->type(),
                                                  batch->num_rows()));
      }
      columns.push_back(std::move(column));
    }
    return arrow::RecordBatch::Make(schema_, batch->num_rows(), std::move(columns));
  }

 private:
  expr::SharedSubexpressions exprs_;
  std::shared_ptr<arrow::Schema> schema_;
  plan::ColumnMask required_;
  BatchStreamPtr input_;
  expr::OperatorEvalContext eval_;
  UnreadColumns unread_;
};

/// The part of `column` that `use` reads: the column itself when read whole, else (a struct
/// read through some of its fields) a struct of those fields alone, each pruned the same way,
/// with the column's validity and offset.
std::shared_ptr<arrow::Array> ReadPart(const std::shared_ptr<arrow::Array>& column,
                                       const plan::ColumnUse& use) {
  if (use.whole || column->type_id() != arrow::Type::STRUCT) return column;
  const arrow::ArrayData& data = *column->data();
  arrow::FieldVector fields;
  std::vector<std::shared_ptr<arrow::ArrayData>> children;
  for (int f = 0; f < column->type()->num_fields(); ++f) {
    const auto& field = column->type()->field(f);
    auto read = use.fields.find(field->name());
    if (read == use.fields.end()) continue;
    // Unsliced, as the struct's offset applies to its children.
    auto child =
        ReadPart(arrow::MakeArray(data.child_data[static_cast<size_t>(f)]), read->second);
    fields.push_back(field->WithType(child->type()));
    children.push_back(child->data());
  }
  auto part = arrow::ArrayData::Make(arrow::struct_(std::move(fields)), data.length,
                                     {data.buffers[0]}, data.null_count, data.offset);
  part->child_data = std::move(children);
  return arrow::MakeArray(std::move(part));
}

/// `part`, a ReadPart of a column of `type` (filtered since), back in `type`'s layout: the
/// fields not read hold nulls.
arrow::Result<std::shared_ptr<arrow::Array>> Restore(const std::shared_ptr<arrow::DataType>& type,
                                                     const std::shared_ptr<arrow::Array>& part,
                                                     const plan::ColumnUse& use,
                                                     UnreadColumns& unread) {
  if (use.whole || type->id() != arrow::Type::STRUCT) return part;
  const arrow::ArrayData& data = *part->data();
  // Children are read from the struct's offset on.
  const int64_t child_length = data.offset + data.length;
  std::vector<std::shared_ptr<arrow::ArrayData>> children;
  size_t next = 0;
  for (const auto& field : type->fields()) {
    auto read = use.fields.find(field->name());
    std::shared_ptr<arrow::Array> child;
    if (read == use.fields.end()) {
      ARROW_ASSIGN_OR_RAISE(child, unread.Get(field->type(), child_length));
    } else {
      ARROW_ASSIGN_OR_RAISE(child, Restore(field->type(),
                                           arrow::MakeArray(data.child_data[next++]),
                                           read->second, unread));
    }
    children.push_back(child->data());
  }
  auto whole = arrow::ArrayData::Make(type, data.length, {data.buffers[0]}, data.null_count,
                                      data.offset);
  whole->child_data = std::move(children);
  return arrow::MakeArray(std::move(whole));
}

class FilterStream final : public BatchStream {
 public:
  FilterStream(expr::BoundExprPtr condition, plan::ColumnUses required, BatchStreamPtr input,
               const ExecContext& context)
      : condition_({std::move(condition)}, input->schema()->num_fields()),
        required_(std::move(required)),
        input_(std::move(input)),
        context_(context),
        eval_(context.eval),
        unread_(context.eval.pool) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    ARROW_ASSIGN_OR_RAISE(auto extended, condition_.Extend(batch, eval_.get()));
    ARROW_ASSIGN_OR_RAISE(auto mask, condition_.exprs()[0]->Evaluate(*extended, eval_.get()));
    if (mask.is_scalar()) {
      const auto& keep = mask.scalar_as<arrow::BooleanScalar>();
      if (keep.is_valid && keep.value) return batch;
      return batch->Slice(0, 0);
    }
    // A row whose mask is null is dropped, as WHERE does. Only what is read above is copied:
    // the columns read, and of a struct read through some fields, those fields.
    std::vector<int> read;
    arrow::FieldVector read_fields;
    arrow::ArrayVector read_columns;
    for (int c = 0; c < batch->num_columns(); ++c) {
      const plan::ColumnUse& use = required_[static_cast<size_t>(c)];
      if (!use.read()) continue;
      read.push_back(c);
      read_columns.push_back(ReadPart(batch->column(c), use));
      read_fields.push_back(batch->schema()->field(c)->WithType(read_columns.back()->type()));
    }
    auto selected = arrow::RecordBatch::Make(arrow::schema(std::move(read_fields)),
                                             batch->num_rows(), std::move(read_columns));
    ARROW_ASSIGN_OR_RAISE(auto filtered,
                          FilterRows(selected, *mask.make_array(), context_.eval.pool));
    if (filtered->num_rows() == batch->num_rows()) return batch;
    const auto& kept = *filtered;
    arrow::ArrayVector columns(batch->num_columns());
    for (size_t k = 0; k < read.size(); ++k) {
      const int c = read[k];
      ARROW_ASSIGN_OR_RAISE(columns[c], Restore(batch->schema()->field(c)->type(),
                                                kept.column(static_cast<int>(k)),
                                                required_[static_cast<size_t>(c)], unread_));
    }
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (columns[c] != nullptr) continue;
      ARROW_ASSIGN_OR_RAISE(columns[c],
                            unread_.Get(batch->schema()->field(c)->type(), kept.num_rows()));
    }
    return arrow::RecordBatch::Make(batch->schema(), kept.num_rows(), std::move(columns));
  }

 private:
  expr::SharedSubexpressions condition_;
  plan::ColumnUses required_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  expr::OperatorEvalContext eval_;
  UnreadColumns unread_;
};

}  // namespace

BatchStreamPtr MakeProject(const plan::Project& project, plan::ColumnMask required,
                           BatchStreamPtr input, const ExecContext& context) {
  std::vector<expr::BoundExprPtr> exprs;
  for (const auto& named : project.exprs()) exprs.push_back(named.expr);
  return std::make_unique<ProjectStream>(exprs, expr::ToSchema(project.output()),
                                         std::move(required), std::move(input), context);
}

BatchStreamPtr MakeFilter(const plan::Filter& filter, plan::ColumnUses required,
                          BatchStreamPtr input, const ExecContext& context) {
  return MakeFilter(filter.condition(), std::move(required), std::move(input), context);
}

BatchStreamPtr MakeFilter(expr::BoundExprPtr condition, plan::ColumnUses required,
                          BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<FilterStream>(std::move(condition), std::move(required),
                                        std::move(input), context);
}

}  // namespace sluice::physical
