#include "sluice/physical/union_operator.h"

namespace sluice::physical {

namespace {

class UnionStream final : public BatchStream {
 public:
  UnionStream(std::shared_ptr<arrow::Schema> schema, std::vector<BatchStreamPtr> inputs)
      : schema_(std::move(schema)), inputs_(std::move(inputs)) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    while (current_ < inputs_.size()) {
      ARROW_ASSIGN_OR_RAISE(auto batch, inputs_[current_]->Next());
      if (batch == nullptr) {
        inputs_[current_].reset();
        ++current_;
        continue;
      }
      return arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns());
    }
    return nullptr;
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<BatchStreamPtr> inputs_;
  size_t current_ = 0;
};

}  // namespace

BatchStreamPtr MakeUnion(const plan::Union& node, std::vector<BatchStreamPtr> inputs) {
  return std::make_unique<UnionStream>(expr::ToSchema(node.output()), std::move(inputs));
}

}  // namespace sluice::physical
