#include "sluice/sinks/memory/memory_sink.h"

#include <arrow/record_batch.h>
#include <arrow/table.h>

namespace sluice::sinks {

namespace {

class MemorySink final : public StreamSink {
 public:
  explicit MemorySink(std::shared_ptr<MemoryTable> table) : table_(std::move(table)) {}

  std::string Describe() const override { return "MemorySink"; }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    std::vector<std::shared_ptr<arrow::RecordBatch>> rows;
    int64_t count = 0;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (!batch) break;
      count += batch->num_rows();
      // The table's schema names the columns; the plan's batches carry the same types.
      rows.push_back(arrow::RecordBatch::Make(table_->schema(), batch->num_rows(),
                                              batch->columns()));
    }
    table_->AddBatch(batch_id, std::move(rows), mode == OutputMode::kComplete);
    last_output_rows_ = count;
    return arrow::Status::OK();
  }

  int64_t last_output_rows() const override { return last_output_rows_; }

 private:
  std::shared_ptr<MemoryTable> table_;
  int64_t last_output_rows_ = 0;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> MemoryTable::Open() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return arrow::RecordBatchReader::Make(rows_, schema_);
}

bool MemoryTable::AddBatch(int64_t batch_id,
                           std::vector<std::shared_ptr<arrow::RecordBatch>> rows,
                           bool replace) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (batch_id <= latest_batch_id_) return false;
  latest_batch_id_ = batch_id;
  if (replace) rows_.clear();
  rows_.insert(rows_.end(), rows.begin(), rows.end());
  last_batch_ = std::move(rows);
  return true;
}

arrow::Result<std::shared_ptr<arrow::Table>> MemoryTable::ToTable() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return arrow::Table::FromRecordBatches(schema_, rows_);
}

arrow::Result<std::shared_ptr<arrow::Table>> MemoryTable::LastBatch() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return arrow::Table::FromRecordBatches(schema_, last_batch_);
}

int64_t MemoryTable::latest_batch_id() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return latest_batch_id_;
}

std::unique_ptr<StreamSink> MakeMemorySink(std::shared_ptr<MemoryTable> table) {
  return std::make_unique<MemorySink>(std::move(table));
}

}  // namespace sluice::sinks
