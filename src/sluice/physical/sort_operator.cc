#include "sluice/physical/sort_operator.h"

#include <arrow/compute/api.h>
#include <arrow/table.h>

#include "sluice/physical/sort_indices.h"

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;

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
    std::vector<SortColumn> columns;
    for (const auto& key : keys_) {
      ARROW_ASSIGN_OR_RAISE(auto values,
                            expr::EvaluateToArray(*key.expr, *batch, context_.eval));
      columns.push_back({std::move(values), key.ascending, key.nulls_first});
    }
    ARROW_ASSIGN_OR_RAISE(auto indices,
                          SortIndices(columns, batch->num_rows(), context_.eval.pool));
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
