#include "sluice/physical/generate_operator.h"

#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>

#include "sluice/common/unread_columns.h"

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;

class GenerateStream final : public BatchStream {
 public:
  GenerateStream(const plan::Generate& node, plan::ColumnMask required, BatchStreamPtr input,
                 const ExecContext& context)
      : collection_(node.collection()),
        outer_(node.outer()),
        with_position_(node.with_position()),
        inline_(node.is_inline()),
        schema_(expr::ToSchema(node.output())),
        required_(std::move(required)),
        input_(std::move(input)),
        context_(context),
        unread_(context.eval.pool) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    arrow::MemoryPool* pool = context_.eval.pool;
    ARROW_ASSIGN_OR_RAISE(auto collection,
                          expr::EvaluateToArray(*collection_, *batch, context_.eval));
    // Maps are lists of key/value structs underneath.
    const auto& lists = static_cast<const arrow::ListArray&>(*collection);
    arrow::Int64Builder parents(pool), elements(pool);
    arrow::Int32Builder positions(pool);
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      const int32_t length = lists.IsNull(i) ? 0 : lists.value_length(i);
      if (length == 0) {
        if (!outer_) continue;
        ARROW_RETURN_NOT_OK(parents.Append(i));
        ARROW_RETURN_NOT_OK(elements.AppendNull());
        ARROW_RETURN_NOT_OK(positions.AppendNull());
        continue;
      }
      const int64_t offset = lists.value_offset(i);
      for (int32_t k = 0; k < length; ++k) {
        ARROW_RETURN_NOT_OK(parents.Append(i));
        ARROW_RETURN_NOT_OK(elements.Append(offset + k));
        ARROW_RETURN_NOT_OK(positions.Append(k));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto parent_indices, parents.Finish());
    ARROW_ASSIGN_OR_RAISE(auto element_indices, elements.Finish());
    const int64_t rows = parent_indices->length();
    // Each column read above is repeated (or generated); the others are left unread.
    arrow::ArrayVector columns;
    auto add = [&](const std::shared_ptr<arrow::Array>& values,
                   const std::shared_ptr<arrow::Array>& indices) -> arrow::Status {
      const size_t at = columns.size();
      if (required_[at]) {
        ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(*values, *indices));
        columns.push_back(std::move(taken));
      } else {
        ARROW_ASSIGN_OR_RAISE(auto unread,
                              unread_.Get(schema_->field(static_cast<int>(at))->type(), rows));
        columns.push_back(std::move(unread));
      }
      return arrow::Status::OK();
    };
    for (const auto& column : batch->columns()) ARROW_RETURN_NOT_OK(add(column, parent_indices));
    if (with_position_) {
      ARROW_ASSIGN_OR_RAISE(auto pos, positions.Finish());
      columns.push_back(std::move(pos));
    }
    const auto& values = lists.values();
    arrow::ArrayVector generated;
    if (collection->type_id() == arrow::Type::MAP) {
      const auto& map = static_cast<const arrow::MapArray&>(*collection);
      generated = {map.keys(), map.items()};
    } else if (inline_) {
      const auto& structs = static_cast<const arrow::StructArray&>(*values);
      for (int f = 0; f < structs.num_fields(); ++f) {
        ARROW_ASSIGN_OR_RAISE(auto field, structs.GetFlattenedField(f, pool));
        generated.push_back(std::move(field));
      }
    } else {
      generated = {values};
    }
    for (const auto& values_column : generated) {
      ARROW_RETURN_NOT_OK(add(values_column, element_indices));
    }
    return arrow::RecordBatch::Make(schema_, rows, std::move(columns));
  }

 private:
  expr::BoundExprPtr collection_;
  bool outer_;
  bool with_position_;
  bool inline_;
  std::shared_ptr<arrow::Schema> schema_;
  plan::ColumnMask required_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  UnreadColumns unread_;
};

}  // namespace

BatchStreamPtr MakeGenerate(const plan::Generate& generate, plan::ColumnMask required,
                            BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<GenerateStream>(generate, std::move(required), std::move(input),
                                          context);
}

}  // namespace sluice::physical
