// Feeding a sink from memory: a BatchStream over record batches made from JSON literals, as the
// sink tests hand a sink one micro-batch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/physical/batch_stream.h"

namespace sluice::testing {

/// A BatchStream over record batches held in memory. After the last batch it ends, or fails
/// with `failure` when that is not OK (an upstream error in the middle of a batch). Counts how
/// many batches it handed out, so a test can tell whether a sink read its input at all.
class InMemoryBatchStream final : public physical::BatchStream {
 public:
  InMemoryBatchStream(std::shared_ptr<arrow::Schema> schema,
                      std::vector<std::shared_ptr<arrow::RecordBatch>> batches,
                      arrow::Status failure = arrow::Status::OK())
      : schema_(std::move(schema)), batches_(std::move(batches)), failure_(std::move(failure)) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (next_ < batches_.size()) return batches_[next_++];
    if (!failure_.ok()) return failure_;
    return nullptr;
  }
  size_t pulled() const { return next_; }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches_;
  arrow::Status failure_;
  size_t next_ = 0;
};

/// A record batch of `schema` from one JSON array literal per column.
inline std::shared_ptr<arrow::RecordBatch> MakeBatch(
    const std::shared_ptr<arrow::Schema>& schema, const std::vector<std::string>& json_columns) {
  arrow::ArrayVector columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    columns.push_back(
        arrow::json::ArrayFromJSONString(schema->field(i)->type(), json_columns.at(i))
            .ValueOrDie());
  }
  return arrow::RecordBatch::Make(schema, columns.empty() ? 0 : columns[0]->length(), columns);
}

}  // namespace sluice::testing
