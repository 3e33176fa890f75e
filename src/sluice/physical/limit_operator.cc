#include "sluice/physical/limit_operator.h"

namespace sluice::physical {

namespace {

class LimitStream final : public BatchStream {
 public:
  LimitStream(int64_t n, BatchStreamPtr input) : remaining_(n), input_(std::move(input)) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (remaining_ <= 0) return nullptr;
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) {
      remaining_ = 0;
      return batch;
    }
    if (batch->num_rows() >= remaining_) {
      batch = batch->Slice(0, remaining_);
      remaining_ = 0;
      return batch;
    }
    remaining_ -= batch->num_rows();
    return batch;
  }

 private:
  int64_t remaining_;
  BatchStreamPtr input_;
};

}  // namespace

BatchStreamPtr MakeLimit(const plan::Limit& limit, BatchStreamPtr input) {
  return std::make_unique<LimitStream>(limit.n(), std::move(input));
}

}  // namespace sluice::physical
