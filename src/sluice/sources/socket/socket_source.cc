#include "sluice/sources/socket/socket_source.h"

#include <string>
#include <vector>

#include <arrow/builder.h>

#include "sluice/common/errors.h"
#include "sluice/sources/arrival_source.h"
#include "sluice/sources/long_offset.h"
#include "sluice/sources/socket/socket_line_reader.h"
#include "sluice/sources/socket/socket_options.h"
#include "sluice/types/spark_types.h"

namespace sluice::sources {

namespace {

std::shared_ptr<arrow::Schema> SocketSchema(bool include_timestamp) {
  std::vector<std::shared_ptr<arrow::Field>> fields = {arrow::field("value", arrow::utf8())};
  if (include_timestamp) fields.push_back(arrow::field("timestamp", types::TimestampLtzType()));
  return arrow::schema(std::move(fields));
}

// The record batch of `lines`, dealt round-robin into the partitions and read back partition
// after partition, as Spark's socket source yields them.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> LinesBatch(
    const std::vector<ReceivedLine>& lines, const SocketOptions& options,
    const std::shared_ptr<arrow::Schema>& schema) {
  arrow::StringBuilder values;
  arrow::TimestampBuilder arrivals(types::TimestampLtzType(), arrow::default_memory_pool());
  int64_t bytes = 0;
  for (const auto& line : lines) bytes += static_cast<int64_t>(line.text.size());
  ARROW_RETURN_NOT_OK(values.Reserve(static_cast<int64_t>(lines.size())));
  ARROW_RETURN_NOT_OK(values.ReserveData(bytes));
  ARROW_RETURN_NOT_OK(arrivals.Reserve(static_cast<int64_t>(lines.size())));
  const size_t partitions = static_cast<size_t>(options.num_partitions);
  for (size_t partition = 0; partition < partitions; ++partition) {
    for (size_t i = partition; i < lines.size(); i += partitions) {
      values.UnsafeAppend(lines[i].text);
      arrivals.UnsafeAppend(lines[i].arrival_micros);
    }
  }
  std::vector<std::shared_ptr<arrow::Array>> columns(1);
  ARROW_RETURN_NOT_OK(values.Finish(&columns[0]));
  if (options.include_timestamp) {
    columns.emplace_back();
    ARROW_RETURN_NOT_OK(arrivals.Finish(&columns[1]));
  }
  return arrow::RecordBatch::Make(schema, static_cast<int64_t>(lines.size()),
                                  std::move(columns));
}

/// One query's socket source. Offset N stands for lines 0..N of the connection; -1 for none.
class TextSocketSource final : public ArrivalSource {
 public:
  TextSocketSource(const SocketOptions& options, const Clock* clock)
      : options_(options), clock_(clock), schema_(SocketSchema(options.include_timestamp)) {}

  ~TextSocketSource() override { Stop(); }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  std::string Describe() const override {
    return "TextSocketV2[host: " + options_.host + ", port: " + std::to_string(options_.port) +
           "]";
  }

  // Before the first batch connects, this is -1, which differs from "nothing processed" and so
  // makes the loop run batch 0, the one that connects, as in Spark.
  arrow::Result<std::string> ArrivedOffset(const std::optional<std::string>& start) override {
    const int64_t received = reader_ ? reader_->lines_received() : 0;
    return LongOffsetJson(received - 1);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(LongOffsetRange range,
                          ParseLongOffsetRange(start, end, Describe(), /*first_start=*/-1));
    if (reader_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(reader_,
                            SocketLineReader::Connect(options_.host, options_.port, clock_));
    }
    std::vector<ReceivedLine> lines = reader_->Lines(range.start + 1, range.end + 1);
    ARROW_ASSIGN_OR_RAISE(auto batch, LinesBatch(lines, options_, schema_));
    return arrow::RecordBatchReader::Make({std::move(batch)}, schema_);
  }

  arrow::Status Commit(const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(int64_t committed, ParseLongOffset(end, Describe()));
    if (committed < last_committed_) {
      return arrow::Status::Invalid("Offsets committed out of order: ", last_committed_,
                                    " followed by ", end, " (", Describe(), ")");
    }
    if (reader_ != nullptr) reader_->ForgetBefore(committed + 1);
    last_committed_ = committed;
    return arrow::Status::OK();
  }

  void Stop() override {
    if (reader_ != nullptr) reader_->Stop();
  }

 private:
  const SocketOptions options_;
  const Clock* clock_;
  const std::shared_ptr<arrow::Schema> schema_;
  std::unique_ptr<SocketLineReader> reader_;
  int64_t last_committed_ = -1;
};

class SocketSourceProvider final : public StreamSourceProvider {
 public:
  explicit SocketSourceProvider(SocketOptions options)
      : options_(std::move(options)), schema_(SocketSchema(options_.include_timestamp)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  std::string Describe() const override {
    return "Socket[" + options_.host + ":" + std::to_string(options_.port) + "]";
  }

  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    if (context.clock == nullptr) {
      return SparkError("INTERNAL_ERROR", "The socket source needs the query's clock.");
    }
    return std::make_unique<TextSocketSource>(options_, context.clock);
  }

 private:
  SocketOptions options_;
  std::shared_ptr<arrow::Schema> schema_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeSocketSourceProvider(
    const formats::OptionMap& options) {
  ARROW_ASSIGN_OR_RAISE(SocketOptions parsed, ParseSocketOptions(options));
  return std::make_shared<const SocketSourceProvider>(std::move(parsed));
}

}  // namespace sluice::sources
