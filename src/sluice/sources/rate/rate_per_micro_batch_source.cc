#include "sluice/sources/rate/rate_per_micro_batch_source.h"

#include <string>

#include <simdjson.h>

#include "sluice/common/errors.h"
#include "sluice/sources/long_offset.h"
#include "sluice/sources/rate/rate_options.h"
#include "sluice/sources/rate/rate_rows.h"

namespace sluice::sources {

namespace {

/// Spark's RatePerMicroBatchStreamOffset: the number of values generated so far and the
/// timestamp (ms) of the next batch's rows.
struct RatePerMicroBatchOffset {
  int64_t offset = 0;
  int64_t timestamp_ms = 0;

  // As json4s writes the case class.
  std::string Json() const {
    return "{\"offset\":" + std::to_string(offset) +
           ",\"timestamp\":" + std::to_string(timestamp_ms) + "}";
  }
};

arrow::Result<RatePerMicroBatchOffset> ParseOffset(const std::string& json,
                                                   const std::string& source_description) {
  simdjson::dom::parser parser;
  simdjson::dom::element document;
  RatePerMicroBatchOffset parsed;
  if (parser.parse(json).get(document) != simdjson::SUCCESS ||
      document["offset"].get_int64().get(parsed.offset) != simdjson::SUCCESS ||
      document["timestamp"].get_int64().get(parsed.timestamp_ms) != simdjson::SUCCESS) {
    return arrow::Status::Invalid("The offset '", json, "' of ", source_description,
                                  " is not {\"offset\":<long>,\"timestamp\":<long>}: the "
                                  "checkpoint's offsets log does not belong to this source.");
  }
  return parsed;
}

/// One query's rate-micro-batch source; its batches depend on the offsets only.
class RatePerMicroBatchSource final : public StreamSource {
 public:
  explicit RatePerMicroBatchSource(const RatePerMicroBatchOptions& options)
      : options_(options) {}

  std::shared_ptr<arrow::Schema> schema() const override { return RateSchema(); }

  std::string Describe() const override {
    return "RatePerMicroBatchStream[rowsPerBatch=" + std::to_string(options_.rows_per_batch) +
           ", numPartitions=" + std::to_string(options_.num_partitions) +
           ", startTimestamp=" + std::to_string(options_.start_timestamp_ms) +
           ", advanceMsPerBatch=" + std::to_string(options_.advance_millis_per_batch) + "]";
  }

  // Spark ignores the read limit, Trigger.Once's "everything" included: there is no backlog,
  // each batch is simply the next rowsPerBatch values.
  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) override {
    if (available_now_end_) return available_now_end_;
    ARROW_ASSIGN_OR_RAISE(RatePerMicroBatchOffset from, StartOf(start));
    RatePerMicroBatchOffset next;
    next.offset = SaturatingAdd(from.offset, options_.rows_per_batch);
    next.timestamp_ms = static_cast<int64_t>(static_cast<uint64_t>(from.timestamp_ms) +
                                             options_.advance_millis_per_batch);
    std::optional<std::string> end = next.Json();
    if (available_now_) available_now_end_ = end;
    return end;
  }

  // Trigger.AvailableNow: the first end offset computed from now on is the last one.
  arrow::Status PrepareForAvailableNow() override {
    available_now_ = true;
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(RatePerMicroBatchOffset from, StartOf(start));
    ARROW_ASSIGN_OR_RAISE(RatePerMicroBatchOffset to, ParseOffset(end, Describe()));
    if (from.offset > to.offset || from.timestamp_ms > to.timestamp_ms) {
      return SparkError("INTERNAL_ERROR", "The batch of " + Describe() + " starts at " +
                                              from.Json() + ", after its end " + to.Json() +
                                              ".");
    }
    RateRange range;
    range.range_start = from.offset;
    range.range_end = to.offset;
    range.num_partitions = options_.num_partitions;
    range.start_time_ms = from.timestamp_ms;
    int64_t start_micros = 0;
    if (__builtin_mul_overflow(from.timestamp_ms, int64_t{1000}, &start_micros)) {
      return arrow::Status::Invalid("long overflow: the timestamp ", from.timestamp_ms,
                                    " ms of ", Describe(),
                                    " does not fit a TIMESTAMP in microseconds.");
    }
    return MakeRateReader(range);
  }

 private:
  arrow::Result<RatePerMicroBatchOffset> StartOf(const std::optional<std::string>& start) const {
    if (start) return ParseOffset(*start, Describe());
    return RatePerMicroBatchOffset{0, options_.start_timestamp_ms};
  }

  const RatePerMicroBatchOptions options_;
  bool available_now_ = false;
  std::optional<std::string> available_now_end_;
};

class RatePerMicroBatchSourceProvider final : public StreamSourceProvider {
 public:
  explicit RatePerMicroBatchSourceProvider(RatePerMicroBatchOptions options)
      : options_(options) {}

  std::shared_ptr<arrow::Schema> schema() const override { return RateSchema(); }

  // Spark's table name, including its missing blank after "numPartitions=N,".
  std::string Describe() const override {
    return "RatePerMicroBatch(rowsPerBatch=" + std::to_string(options_.rows_per_batch) +
           ", numPartitions=" + std::to_string(options_.num_partitions) +
           ",startTimestamp=" + std::to_string(options_.start_timestamp_ms) +
           ", advanceMillisPerBatch=" + std::to_string(options_.advance_millis_per_batch) + ")";
  }

  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    return std::make_unique<RatePerMicroBatchSource>(options_);
  }

 private:
  RatePerMicroBatchOptions options_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeRatePerMicroBatchSourceProvider(
    const formats::OptionMap& options) {
  ARROW_ASSIGN_OR_RAISE(RatePerMicroBatchOptions parsed, ParseRatePerMicroBatchOptions(options));
  return std::make_shared<const RatePerMicroBatchSourceProvider>(parsed);
}

}  // namespace sluice::sources
