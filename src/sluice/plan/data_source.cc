#include "sluice/plan/data_source.h"

#include <arrow/table.h>

namespace sluice::plan {

std::shared_ptr<arrow::Schema> InMemorySource::schema() const { return table_->schema(); }

std::string InMemorySource::Describe() const {
  return "LocalRelation [" + std::to_string(table_->num_rows()) + " rows]";
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> InMemorySource::Open() const {
  return std::make_shared<arrow::TableBatchReader>(table_);
}

}  // namespace sluice::plan
