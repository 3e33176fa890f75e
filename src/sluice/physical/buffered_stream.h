// An operator stream that computes its whole output at the first Next() and then yields it
// batch by batch: the stateful operators that must see all of a micro-batch's input before
// they can emit (and commit their state) before the first row leaves.
#pragma once

#include <memory>
#include <vector>

#include "sluice/physical/batch_stream.h"

namespace sluice::physical {

class BufferedStream : public BatchStream {
 public:
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() final {
    if (!ran_) {
      ran_ = true;
      ARROW_RETURN_NOT_OK(Run());
    }
    if (next_ >= output_.size()) return nullptr;
    return std::move(output_[next_++]);
  }

 protected:
  /// Computes the output, handing each batch of it to Output.
  virtual arrow::Status Run() = 0;
  void Output(std::shared_ptr<arrow::RecordBatch> batch) { output_.push_back(std::move(batch)); }

 private:
  bool ran_ = false;
  std::vector<std::shared_ptr<arrow::RecordBatch>> output_;
  size_t next_ = 0;
};

}  // namespace sluice::physical
