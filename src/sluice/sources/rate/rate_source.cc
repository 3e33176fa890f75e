#include "sluice/sources/rate/rate_source.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/common/errors.h"
#include "sluice/sources/arrival_source.h"
#include "sluice/sources/long_offset.h"
#include "sluice/sources/rate/rate_options.h"
#include "sluice/sources/rate/rate_rows.h"

namespace sluice::sources {

namespace {

// The version of the start-time file, as Spark's RateStreamProvider.VERSION.
constexpr int kStartTimeLogVersion = 1;

// The start time of the source: read from sources/<i>/0 when an earlier run wrote it, else
// now, written there (Spark keeps it in the same one-entry HDFSMetadataLog). Without a
// metadata path (no checkpoint) the start time is simply now.
arrow::Result<int64_t> LoadOrRecordStartTime(const SourceContext& context) {
  if (context.metadata_path.empty()) return context.clock->NowMillis();
  checkpoint::BatchLog log(context.metadata_path);
  ARROW_ASSIGN_OR_RAISE(std::optional<std::string> contents, log.Get(0));
  if (!contents) {
    const int64_t now_ms = context.clock->NowMillis();
    ARROW_RETURN_NOT_OK(
        log.Add(0, checkpoint::WithVersionLine(kStartTimeLogVersion, LongOffsetJson(now_ms))));
    return now_ms;
  }
  const std::string path = log.PathOf(0);
  ARROW_ASSIGN_OR_RAISE(auto lines,
                        checkpoint::SplitVersionedLog(*contents, kStartTimeLogVersion, path));
  int64_t start_ms = 0;
  if (lines.size() != 1 ||
      std::from_chars(lines[0].data(), lines[0].data() + lines[0].size(), start_ms).ptr !=
          lines[0].data() + lines[0].size()) {
    return checkpoint::MalformedLogFile(path, "it should hold the rate source's start time");
  }
  return start_ms;
}

/// One query's rate source. Offsets count whole seconds since creation_ms_.
class RateStreamSource final : public ArrivalSource {
 public:
  RateStreamSource(const RateOptions& options, const Clock* clock, int64_t creation_ms)
      : options_(options),
        clock_(clock),
        creation_ms_(creation_ms),
        last_time_ms_(creation_ms),
        max_seconds_(std::numeric_limits<int64_t>::max() / options.rows_per_second) {}

  std::shared_ptr<arrow::Schema> schema() const override { return RateSchema(); }

  // Spark's text, including its missing closing bracket.
  std::string Describe() const override {
    return "RateStreamV2[rowsPerSecond=" + std::to_string(options_.rows_per_second) +
           ", rampUpTimeSeconds=" + std::to_string(options_.ramp_up_time_seconds) +
           ", numPartitions=" + options_.num_partitions_text;
  }

  // Batch 0 may be empty (offset 0), as in Spark. After a restart the offset never falls
  // behind the processed one, even if the clock does.
  arrow::Result<std::string> ArrivedOffset(const std::optional<std::string>& start) override {
    if (start) {
      ARROW_ASSIGN_OR_RAISE(int64_t start_seconds, ParseLongOffset(*start, Describe()));
      last_time_ms_ = std::max(last_time_ms_, creation_ms_ + start_seconds * 1000);
    }
    last_time_ms_ = std::max(last_time_ms_, clock_->NowMillis());
    return LongOffsetJson((last_time_ms_ - creation_ms_) / 1000);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(LongOffsetRange seconds,
                          ParseLongOffsetRange(start, end, Describe(), /*first_start=*/0));
    const int64_t start_seconds = seconds.start;
    const int64_t end_seconds = seconds.end;
    if (start_seconds > end_seconds) {
      return SparkError("INTERNAL_ERROR", "startSeconds(" + std::to_string(start_seconds) +
                                              ") > endSeconds(" + std::to_string(end_seconds) +
                                              ") in " + Describe());
    }
    if (end_seconds > max_seconds_) {
      return SparkError("INTERNAL_ERROR",
                        "Max offset with " + std::to_string(options_.rows_per_second) +
                            " rowsPerSecond is " + std::to_string(max_seconds_) +
                            ", but it's " + std::to_string(end_seconds) + " now.");
    }
    // After a restart the clock may lag the logged offsets: never go back before them.
    last_time_ms_ = std::max(last_time_ms_, creation_ms_ + end_seconds * 1000);

    RateRange range;
    range.range_start = ValueAt(start_seconds);
    range.range_end = ValueAt(end_seconds);
    range.num_partitions = options_.num_partitions;
    range.start_time_ms = creation_ms_ + start_seconds * 1000;
    if (range.range_end > range.range_start) {
      range.ms_per_value = static_cast<double>((end_seconds - start_seconds) * 1000) /
                           static_cast<double>(range.range_end - range.range_start);
    }
    return MakeRateReader(range);
  }

 private:
  int64_t ValueAt(int64_t seconds) const {
    return RateValueAtSecond(seconds, options_.rows_per_second, options_.ramp_up_time_seconds);
  }

  const RateOptions options_;
  const Clock* clock_;
  const int64_t creation_ms_;
  int64_t last_time_ms_;
  const int64_t max_seconds_;
};

class RateSourceProvider final : public StreamSourceProvider {
 public:
  explicit RateSourceProvider(RateOptions options) : options_(std::move(options)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return RateSchema(); }

  std::string Describe() const override {
    return "RateStream(rowsPerSecond=" + std::to_string(options_.rows_per_second) +
           ", rampUpTimeSeconds=" + std::to_string(options_.ramp_up_time_seconds) +
           ", numPartitions=" + std::to_string(options_.num_partitions) + ")";
  }

  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    if (context.clock == nullptr) {
      return SparkError("INTERNAL_ERROR", "The rate source needs the query's clock.");
    }
    const int64_t max_seconds =
        std::numeric_limits<int64_t>::max() / options_.rows_per_second;
    if (options_.ramp_up_time_seconds > max_seconds) {
      return SparkError("INCORRECT_RAMP_UP_RATE",
                        "Max offset with " + std::to_string(options_.rows_per_second) +
                            " rowsPerSecond is " + std::to_string(max_seconds) +
                            ", but 'rampUpTimeSeconds' is " +
                            std::to_string(options_.ramp_up_time_seconds) + ".");
    }
    ARROW_ASSIGN_OR_RAISE(int64_t creation_ms, LoadOrRecordStartTime(context));
    return std::make_unique<RateStreamSource>(options_, context.clock, creation_ms);
  }

 private:
  RateOptions options_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeRateSourceProvider(
    const formats::OptionMap& options) {
  ARROW_ASSIGN_OR_RAISE(RateOptions parsed, ParseRateOptions(options));
  return std::make_shared<const RateSourceProvider>(std::move(parsed));
}

}  // namespace sluice::sources
