#include "sluice/physical/sort_operator.h"

#include <cmath>

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/table.h>

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;

// For a floating point key: true where the value is NaN (null where it is null), so sorting by
// it first puts NaN above every number, as Spark orders them.
template <typename ArrayType>
arrow::Result<std::shared_ptr<arrow::Array>> NaNFlags(const arrow::Array& values,
                                                      arrow::MemoryPool* pool) {
  const auto& typed = static_cast<const ArrayType&>(values);
  arrow::BooleanBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(values.length()));
  for (int64_t i = 0; i < values.length(); ++i) {
    if (typed.IsNull(i)) {
      builder.UnsafeAppendNull();
    } else {
      builder.UnsafeAppend(std::isnan(typed.Value(i)));
    }
  }
  return builder.Finish();
}

class SortStream final : public BatchStream {
 public:
  SortStream(std::vector<plan::SortKey> keys, BatchStreamPtr input, const ExecContext& context)
      : keys_(std::move(keys)), input_(std::move(input)), context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*input_));
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch(context_.eval.pool));
    if (batch->num_rows() <= 1) return batch;
    arrow::FieldVector fields;
    arrow::ArrayVector columns;
    std::vector<cp::SortKey> sort_keys;
    auto add = [&](std::shared_ptr<arrow::Array> column, bool ascending, bool nulls_first) {
      const std::string name = "k" + std::to_string(columns.size());
      fields.push_back(arrow::field(name, column->type()));
      columns.push_back(std::move(column));
      sort_keys.emplace_back(arrow::FieldRef(name),
                             ascending ? cp::SortOrder::Ascending : cp::SortOrder::Descending,
                             nulls_first ? cp::NullPlacement::AtStart : cp::NullPlacement::AtEnd);
    };
    for (const auto& key : keys_) {
      ARROW_ASSIGN_OR_RAISE(auto column, expr::EvaluateToArray(*key.expr, *batch, context_.eval));
      const auto id = column->type_id();
      if (id == arrow::Type::DOUBLE || id == arrow::Type::FLOAT) {
        std::shared_ptr<arrow::Array> flags;
        if (id == arrow::Type::DOUBLE) {
          ARROW_ASSIGN_OR_RAISE(flags, NaNFlags<arrow::DoubleArray>(*column, context_.eval.pool));
        } else {
          ARROW_ASSIGN_OR_RAISE(flags, NaNFlags<arrow::FloatArray>(*column, context_.eval.pool));
        }
        add(std::move(flags), key.ascending, key.nulls_first);
      }
      add(std::move(column), key.ascending, key.nulls_first);
    }
    auto key_batch =
        arrow::RecordBatch::Make(arrow::schema(fields), batch->num_rows(), std::move(columns));
    ARROW_ASSIGN_OR_RAISE(auto indices,
                          cp::SortIndices(arrow::Datum(key_batch), cp::SortOptions(sort_keys)));
    ARROW_ASSIGN_OR_RAISE(auto sorted, cp::Take(arrow::Datum(batch), arrow::Datum(indices)));
    return sorted.record_batch();
  }

 private:
  std::vector<plan::SortKey> keys_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  bool done_ = false;
};

}  // namespace

BatchStreamPtr MakeSort(const plan::Sort& sort, BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<SortStream>(sort.keys(), std::move(input), context);
}

}  // namespace sluice::physical
