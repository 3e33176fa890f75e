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

}  // namespace sluice::physical
