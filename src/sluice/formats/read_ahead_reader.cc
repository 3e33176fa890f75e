#include "sluice/formats/read_ahead_reader.h"

#include <arrow/io/interfaces.h>
#include <arrow/util/future.h>
#include <arrow/util/thread_pool.h>

namespace sluice::formats {

namespace {

using BatchFuture = arrow::Future<std::shared_ptr<arrow::RecordBatch>>;

class ReadAheadReader final : public arrow::RecordBatchReader {
 public:
  explicit ReadAheadReader(std::shared_ptr<arrow::RecordBatchReader> source)
      : source_(std::move(source)) {}

  ~ReadAheadReader() override { Wait(); }

  std::shared_ptr<arrow::Schema> schema() const override { return source_->schema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (done_) return arrow::Status::OK();
    if (!pending_.is_valid()) ARROW_RETURN_NOT_OK(StartRead());
    BatchFuture read = std::move(pending_);
    pending_ = BatchFuture();
    const arrow::Result<std::shared_ptr<arrow::RecordBatch>>& result = read.result();
    if (!result.ok() || *result == nullptr) {
      done_ = true;
      return result.status();
    }
    *batch = *result;
    return StartRead();
  }

  arrow::Status Close() override {
    Wait();
    done_ = true;
    return source_->Close();
  }

 private:
  arrow::Status StartRead() {
    // The task holds the source, so that a read still under way never outlives it.
    ARROW_ASSIGN_OR_RAISE(pending_, arrow::io::default_io_context().executor()->Submit(
                                        [source = source_] { return source->Next(); }));
    return arrow::Status::OK();
  }

  void Wait() {
    if (pending_.is_valid()) pending_.Wait();
    pending_ = BatchFuture();
  }

  std::shared_ptr<arrow::RecordBatchReader> source_;
  BatchFuture pending_;
  bool done_ = false;
};

}  // namespace

std::shared_ptr<arrow::RecordBatchReader> ReadAhead(
    std::shared_ptr<arrow::RecordBatchReader> source) {
  return std::make_shared<ReadAheadReader>(std::move(source));
}

}  // namespace sluice::formats
