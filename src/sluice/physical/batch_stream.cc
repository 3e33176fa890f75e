#include "sluice/physical/batch_stream.h"

#include <arrow/table.h>

namespace sluice::physical {

arrow::Result<std::shared_ptr<arrow::Table>> CollectTable(BatchStream& stream) {
  arrow::RecordBatchVector batches;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream.Next());
    if (batch == nullptr) break;
    if (batch->num_rows() > 0) batches.push_back(std::move(batch));
  }
  return arrow::Table::FromRecordBatches(stream.schema(), std::move(batches));
}

arrow::Result<arrow::RecordBatchVector> CollectSlices(BatchStream& stream, int64_t max_rows,
                                                      arrow::MemoryPool* pool) {
  // Slices of no rows would never get through a batch.
  if (max_rows < 1) return arrow::Status::Invalid("Slices need at least one row: ", max_rows);
  arrow::RecordBatchVector slices, pending;
  int64_t pending_rows = 0;
  auto flush = [&]() -> arrow::Status {
    if (pending.size() == 1) {
      slices.push_back(std::move(pending[0]));
    } else if (pending.size() > 1) {
      ARROW_ASSIGN_OR_RAISE(auto together,
                            arrow::Table::FromRecordBatches(stream.schema(), pending));
      ARROW_ASSIGN_OR_RAISE(auto batch, together->CombineChunksToBatch(pool));
      slices.push_back(std::move(batch));
    }
    pending.clear();
    pending_rows = 0;
    return arrow::Status::OK();
  };
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto batch, stream.Next());
    if (batch == nullptr) break;
    for (int64_t at = 0; at < batch->num_rows(); at += max_rows) {
      auto piece = batch->Slice(at, max_rows);
      if (pending_rows + piece->num_rows() > max_rows) ARROW_RETURN_NOT_OK(flush());
      pending_rows += piece->num_rows();
      pending.push_back(std::move(piece));
    }
  }
  ARROW_RETURN_NOT_OK(flush());
  return slices;
}

}  // namespace sluice::physical
