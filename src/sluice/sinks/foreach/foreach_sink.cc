#include "sluice/sinks/foreach/foreach_sink.h"

#include "sluice/common/errors.h"

namespace sluice::sinks {

namespace {

// Spark wraps a user function's exception unless it already is one of Spark's.
arrow::Status UserFunctionError(const arrow::Status& error) {
  if (ErrorClassOf(error)) return error;
  return SparkError("FOREACH_USER_FUNCTION_ERROR",
                    "An error occurred in the user provided function in foreach sink. Reason: " +
                        error.message());
}

arrow::Status AbortedByTaskFailure() {
  return SparkError("_LEGACY_ERROR_TEMP_2256",
                    "Foreach writer has been aborted due to a task failure.");
}

class ForeachSink final : public StreamSink {
 public:
  explicit ForeachSink(std::shared_ptr<ForeachWriter> writer) : writer_(std::move(writer)) {}

  std::string Describe() const override { return "ForeachWriterTable"; }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    auto opened = writer_->Open(/*partition_id=*/0, /*epoch_id=*/batch_id);
    if (!opened.ok()) return UserFunctionError(opened.status());

    arrow::Status failure;   // what fails the batch
    arrow::Status for_close;  // what Close is told
    int64_t rows = 0;
    while (failure.ok()) {
      auto next = data.Next();
      if (!next.ok()) {
        failure = next.status();
        for_close = AbortedByTaskFailure();
        break;
      }
      const std::shared_ptr<arrow::RecordBatch>& batch = *next;
      if (batch == nullptr) break;
      rows += batch->num_rows();
      // A writer that declined the epoch still sees the stream drained, as Spark's task runs
      // its input to the end.
      if (!*opened) continue;
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        arrow::Status processed = writer_->Process(Row(*batch, i));
        if (!processed.ok()) {
          for_close = processed;
          failure = UserFunctionError(processed);
          break;
        }
      }
    }
    arrow::Status closed = writer_->Close(for_close);
    if (failure.ok() && !closed.ok()) failure = UserFunctionError(closed);
    ARROW_RETURN_NOT_OK(failure);
    last_output_rows_ = rows;
    return arrow::Status::OK();
  }

  int64_t last_output_rows() const override { return last_output_rows_; }

 private:
  std::shared_ptr<ForeachWriter> writer_;
  int64_t last_output_rows_ = 0;
};

}  // namespace

std::unique_ptr<StreamSink> MakeForeachSink(std::shared_ptr<ForeachWriter> writer) {
  return std::make_unique<ForeachSink>(std::move(writer));
}

}  // namespace sluice::sinks
