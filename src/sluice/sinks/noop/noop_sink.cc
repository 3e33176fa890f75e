#include "sluice/sinks/noop/noop_sink.h"

namespace sluice::sinks {

namespace {

class NoopSink final : public StreamSink {
 public:
  // Spark prints the object's identity (NoopTable$@<hash>); the hash is left out, as it
  // differs on every run.
  std::string Describe() const override {
    return "org.apache.spark.sql.execution.datasources.noop.NoopTable$";
  }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    int64_t rows = 0;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) break;
      rows += batch->num_rows();
    }
    last_output_rows_ = rows;
    return arrow::Status::OK();
  }

  int64_t last_output_rows() const override { return last_output_rows_; }
  bool WorksOnRows() const override { return false; }

 private:
  int64_t last_output_rows_ = 0;
};

}  // namespace

std::unique_ptr<StreamSink> MakeNoopSink() { return std::make_unique<NoopSink>(); }

}  // namespace sluice::sinks
