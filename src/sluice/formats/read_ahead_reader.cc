#include "sluice/formats/read_ahead_reader.h"

#include <arrow/io/interfaces.h>

#include "sluice/common/read_ahead.h"

namespace sluice::formats {

namespace {

class ReadAheadReader final : public arrow::RecordBatchReader {
 public:
  explicit ReadAheadReader(std::shared_ptr<arrow::RecordBatchReader> source)
      : source_(std::move(source)),
        ahead_([source = source_.get()] { return source->Next(); },
               arrow::io::default_io_context().executor()) {}

  std::shared_ptr<arrow::Schema> schema() const override { return source_->schema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    return ahead_.Next().Value(batch);
  }

  arrow::Status Close() override {
    ahead_.Stop();
    return source_->Close();
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> source_;
  // Declared after the source: destroyed first, it waits for the read under way.
  BatchReadAhead ahead_;
};

}  // namespace

std::shared_ptr<arrow::RecordBatchReader> ReadAhead(
    std::shared_ptr<arrow::RecordBatchReader> source) {
  return std::make_shared<ReadAheadReader>(std::move(source));
}

}  // namespace sluice::formats
