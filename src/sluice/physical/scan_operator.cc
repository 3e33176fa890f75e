#include "sluice/physical/scan_operator.h"

#include "sluice/common/errors.h"
#include "sluice/expr/attribute.h"

namespace sluice::physical {

namespace {

class ScanStream final : public BatchStream {
 public:
  ScanStream(std::shared_ptr<arrow::RecordBatchReader> reader,
             std::shared_ptr<arrow::Schema> schema, std::string description)
      : reader_(std::move(reader)),
        schema_(std::move(schema)),
        description_(std::move(description)) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, reader_->Next());
    if (batch == nullptr) return batch;
    if (batch->num_columns() != schema_->num_fields()) {
      return SparkError("INTERNAL_ERROR", "The source " + description_ + " yielded " +
                                              std::to_string(batch->num_columns()) +
                                              " columns where the plan expects " +
                                              std::to_string(schema_->num_fields()) + ".");
    }
    // Names may differ in case or by alias; positions and types are what the plan relies on.
    return arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns());
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> reader_;
  std::shared_ptr<arrow::Schema> schema_;
  std::string description_;
};

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenSource(
    const plan::DataSource& source, const plan::ColumnUses& required,
    const ExecContext& context) {
  if (!source.is_streaming()) return source.Open();
  if (context.stream_inputs != nullptr) {
    auto input = context.stream_inputs->find(&source);
    if (input != context.stream_inputs->end()) {
      return input->second(*plan::ReadSchema(*source.schema(), required));
    }
  }
  // Without micro-batch inputs this is a batch action on a streaming plan: the source's
  // Open() says so in Spark's words.
  return source.Open();
}

}  // namespace

arrow::Result<BatchStreamPtr> MakeScan(const plan::Relation& relation,
                                       const plan::ColumnUses& required,
                                       const ExecContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto reader, OpenSource(relation.source(), required, context));
  return std::make_unique<ScanStream>(std::move(reader), expr::ToSchema(relation.output()),
                                      relation.source().Describe());
}

}  // namespace sluice::physical
