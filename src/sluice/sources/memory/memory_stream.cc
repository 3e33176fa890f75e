#include "sluice/sources/memory/memory_stream.h"

#include <atomic>

#include <arrow/table.h>

#include "sluice/common/errors.h"
#include "sluice/sources/long_offset.h"

namespace sluice::sources {

namespace {

std::atomic<int> next_stream_id{0};

/// The running source of one query over a MemoryStream.
class MemoryStreamSource final : public StreamSource {
 public:
  explicit MemoryStreamSource(std::shared_ptr<const MemoryStream> stream)
      : stream_(std::move(stream)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return stream_->schema(); }
  std::string Describe() const override { return stream_->Describe(); }

  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) override {
    int64_t latest = stream_->latest_offset();
    if (latest < 0) return std::nullopt;
    return std::optional<std::string>(LongOffsetJson(latest));
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(LongOffsetRange range,
                          ParseLongOffsetRange(start, end, Describe(), /*first_start=*/-1));
    return stream_->Read(range.start, range.end);
  }

  std::optional<std::string> ReportLatestOffset() const override {
    int64_t latest = stream_->latest_offset();
    if (latest < 0) return std::nullopt;
    return LongOffsetJson(latest);
  }

 private:
  std::shared_ptr<const MemoryStream> stream_;
};

}  // namespace

std::shared_ptr<MemoryStream> MemoryStream::Make(std::shared_ptr<arrow::Schema> schema) {
  return std::make_shared<MemoryStream>(std::move(schema), next_stream_id++);
}

arrow::Result<int64_t> MemoryStream::AddData(const std::shared_ptr<arrow::Table>& table) {
  if (!table->schema()->Equals(*schema_, /*check_metadata=*/false)) {
    return arrow::Status::Invalid("MemoryStream[", id_, "] holds rows of ",
                                  schema_->ToString(), ", not ", table->schema()->ToString());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  blocks_.push_back(table);
  return static_cast<int64_t>(blocks_.size()) - 1;
}

int64_t MemoryStream::latest_offset() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(blocks_.size()) - 1;
}

std::string MemoryStream::Describe() const { return "MemoryStream[" + std::to_string(id_) + "]"; }

arrow::Result<std::unique_ptr<StreamSource>> MemoryStream::CreateSource(
    const SourceContext& context) const {
  return std::make_unique<MemoryStreamSource>(shared_from_this());
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> MemoryStream::Read(int64_t start,
                                                                            int64_t end) const {
  std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (end >= static_cast<int64_t>(blocks_.size()) || start < -1 || start > end) {
      return SparkError("INTERNAL_ERROR",
                        Describe() + " has no data for offsets " + std::to_string(start) +
                            " to " + std::to_string(end) + ": it holds " +
                            std::to_string(blocks_.size()) + " block(s).");
    }
    for (int64_t i = start + 1; i <= end; ++i) {
      arrow::TableBatchReader reader(*blocks_[i]);
      ARROW_ASSIGN_OR_RAISE(auto block_batches, reader.ToRecordBatches());
      for (auto& batch : block_batches) batches.push_back(std::move(batch));
    }
  }
  return arrow::RecordBatchReader::Make(std::move(batches), schema_);
}

}  // namespace sluice::sources
