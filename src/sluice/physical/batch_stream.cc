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

SliceReader::SliceReader(BatchStream& stream, int64_t max_rows, arrow::MemoryPool* pool)
    : stream_(stream), max_rows_(max_rows), pool_(pool) {}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> SliceReader::NextPiece() {
  while (batch_ == nullptr || cut_ == batch_->num_rows()) {
    if (ended_) return nullptr;
    ARROW_ASSIGN_OR_RAISE(batch_, stream_.Next());
    cut_ = 0;
    if (batch_ == nullptr) {
      ended_ = true;
      return nullptr;
    }
  }
  auto piece = batch_->Slice(cut_, max_rows_);
  cut_ += piece->num_rows();
  return piece;
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> SliceReader::Next() {
  // Slices of no rows would never get through a stream.
  if (max_rows_ < 1) return arrow::Status::Invalid("Slices need at least one row: ", max_rows_);
  arrow::RecordBatchVector pending;
  int64_t pending_rows = 0;
  while (pending_rows < max_rows_) {
    if (piece_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(piece_, NextPiece());
    }
    if (piece_ == nullptr || pending_rows + piece_->num_rows() > max_rows_) break;
    pending_rows += piece_->num_rows();
    pending.push_back(std::move(piece_));
  }
  if (pending.empty()) return nullptr;
  if (pending.size() == 1) return std::move(pending[0]);
  ARROW_ASSIGN_OR_RAISE(auto together, arrow::Table::FromRecordBatches(stream_.schema(), pending));
  return together->CombineChunksToBatch(pool_);
}

}  // namespace sluice::physical
