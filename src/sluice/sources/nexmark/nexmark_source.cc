#include "sluice/sources/nexmark/nexmark_source.h"

#include <algorithm>
#include <limits>
#include <string>

#include <simdjson.h>

#include "sluice/common/errors.h"
#include "sluice/sources/long_offset.h"
#include "sluice/sources/nexmark/nexmark_generator.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources {

namespace {

using nexmark::GenerateEvents;
using nexmark::GeneratorConfig;
using nexmark::NexmarkSchema;

/// Events per record batch: large enough to amortize the per-batch work, small enough to stay
/// in cache for the operators downstream.
constexpr int64_t kEventsPerRecordBatch = 64 * 1024;

struct NexmarkOptions {
  int64_t num_events = 0;  // 0: no end
  int64_t events_per_second = 10'000;
  int64_t base_time_ms = 1'436'918'400'000;
  int64_t max_events_per_trigger = 1'000'000;
  bool paced = false;
  int64_t seed = 0;

  int64_t limit() const {
    return num_events > 0 ? num_events : std::numeric_limits<int64_t>::max();
  }
  GeneratorConfig generator() const {
    GeneratorConfig config;
    config.base_time_ms = base_time_ms;
    config.inter_event_delay_us = 1'000'000.0 / static_cast<double>(events_per_second);
    config.seed = seed;
    return config;
  }
};

arrow::Status MustBe(const std::string& option, int64_t value, const std::string& rule) {
  return SparkError("INVALID_OPTION_VALUE",
                    "Invalid value '" + std::to_string(value) + "' of the nexmark option '" +
                        option + "': it must be " + rule + ".");
}

arrow::Result<NexmarkOptions> ParseOptions(const formats::OptionMap& options) {
  NexmarkOptions parsed;
  ARROW_ASSIGN_OR_RAISE(parsed.num_events, LongOption(options, "numEvents", 0));
  if (parsed.num_events < 0) return MustBe("numEvents", parsed.num_events, "0 or more");
  ARROW_ASSIGN_OR_RAISE(parsed.events_per_second, LongOption(options, "eventsPerSecond", 10'000));
  if (parsed.events_per_second <= 0) {
    return MustBe("eventsPerSecond", parsed.events_per_second, "positive");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.base_time_ms,
                        LongOption(options, "baseTime", parsed.base_time_ms));
  ARROW_ASSIGN_OR_RAISE(parsed.max_events_per_trigger,
                        LongOption(options, "maxEventsPerTrigger", parsed.max_events_per_trigger));
  if (parsed.max_events_per_trigger <= 0) {
    return MustBe("maxEventsPerTrigger", parsed.max_events_per_trigger, "positive");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.paced, BooleanOption(options, "paced", false));
  ARROW_ASSIGN_OR_RAISE(parsed.seed, LongOption(options, "seed", 0));
  return parsed;
}

std::string OffsetJson(int64_t events) { return "{\"events\":" + std::to_string(events) + "}"; }

std::string Describe(const NexmarkOptions& options) {
  return "Nexmark[numEvents=" + std::to_string(options.num_events) +
         ", eventsPerSecond=" + std::to_string(options.events_per_second) +
         ", baseTime=" + std::to_string(options.base_time_ms) +
         ", maxEventsPerTrigger=" + std::to_string(options.max_events_per_trigger) +
         ", paced=" + (options.paced ? "true" : "false") +
         ", seed=" + std::to_string(options.seed) + "]";
}

/// The events [begin, end), record batch after record batch.
class EventReader final : public arrow::RecordBatchReader {
 public:
  EventReader(GeneratorConfig config, int64_t begin, int64_t end)
      : config_(config), next_(begin), end_(end) {}

  std::shared_ptr<arrow::Schema> schema() const override { return NexmarkSchema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (next_ >= end_) return arrow::Status::OK();
    const int64_t stop = std::min(end_, next_ + kEventsPerRecordBatch);
    ARROW_ASSIGN_OR_RAISE(*batch, GenerateEvents(config_, next_, stop));
    next_ = stop;
    return arrow::Status::OK();
  }

 private:
  GeneratorConfig config_;
  int64_t next_;
  int64_t end_;
};

class NexmarkSource final : public StreamSource {
 public:
  NexmarkSource(NexmarkOptions options, const Clock* clock)
      : options_(options), clock_(clock) {}

  std::shared_ptr<arrow::Schema> schema() const override { return NexmarkSchema(); }
  std::string Describe() const override { return sources::Describe(options_); }

  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) override {
    ARROW_ASSIGN_OR_RAISE(const int64_t from, EventsOf(start));
    if (!run_start_) run_start_ = std::make_pair(from, Now());
    int64_t available = Available(from);
    if (available_now_) {
      if (!available_now_end_) available_now_end_ = available;
      available = std::min(available, *available_now_end_);
    }
    // Trigger.Once takes all there is, but an endless unpaced stream has no "all".
    const bool endless = options_.num_events == 0 && !options_.paced;
    int64_t end = available;
    if (mode == ReadLimitMode::kRespectLimits || endless) {
      end = std::min(available, SaturatingAdd(from, options_.max_events_per_trigger));
    }
    latest_ = available;
    if (end <= from) return start;
    return OffsetJson(end);
  }

  arrow::Status PrepareForAvailableNow() override {
    available_now_ = true;
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(const int64_t from, EventsOf(start));
    ARROW_ASSIGN_OR_RAISE(const int64_t to, EventsOf(end));
    if (to < from) {
      return SparkError("INTERNAL_ERROR", "The batch of " + Describe() + " starts at event " +
                                              std::to_string(from) + ", after its end " +
                                              std::to_string(to) + ".");
    }
    return std::make_shared<EventReader>(options_.generator(), from, to);
  }

  std::optional<std::string> ReportLatestOffset() const override {
    if (!latest_) return std::nullopt;
    return OffsetJson(*latest_);
  }

 private:
  int64_t Now() const { return clock_ != nullptr ? clock_->NowMillis() : 0; }

  /// How many events exist: all of them, or, paced, those whose time has come since the run
  /// started (counting from where it resumed).
  int64_t Available(int64_t from) const {
    if (!options_.paced) return options_.limit();
    const auto& [resumed_at, started_ms] = *run_start_;
    const double elapsed_s = static_cast<double>(std::max<int64_t>(Now() - started_ms, 0)) / 1000;
    const double arrived = elapsed_s * static_cast<double>(options_.events_per_second);
    const int64_t reached =
        arrived >= static_cast<double>(std::numeric_limits<int64_t>::max() / 2)
            ? std::numeric_limits<int64_t>::max()
            : SaturatingAdd(resumed_at, static_cast<int64_t>(arrived));
    return std::max(from, std::min(options_.limit(), reached));
  }

  arrow::Result<int64_t> EventsOf(const std::optional<std::string>& offset) const {
    if (!offset) return 0;
    simdjson::dom::parser parser;
    simdjson::dom::element document;
    int64_t events = 0;
    if (parser.parse(*offset).get(document) != simdjson::SUCCESS ||
        document["events"].get_int64().get(events) != simdjson::SUCCESS || events < 0) {
      return arrow::Status::Invalid("The offset '", *offset, "' of ", Describe(),
                                    " is not {\"events\":<count>}: the checkpoint's offsets "
                                    "log does not belong to this source.");
    }
    return events;
  }

  const NexmarkOptions options_;
  const Clock* clock_;
  /// Where this run resumed and the wall-clock time it started, for pacing.
  std::optional<std::pair<int64_t, int64_t>> run_start_;
  bool available_now_ = false;
  std::optional<int64_t> available_now_end_;
  std::optional<int64_t> latest_;
};

class NexmarkSourceProvider final : public StreamSourceProvider {
 public:
  explicit NexmarkSourceProvider(NexmarkOptions options) : options_(options) {}

  std::shared_ptr<arrow::Schema> schema() const override { return NexmarkSchema(); }
  std::string Describe() const override { return sources::Describe(options_); }

  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    return std::make_unique<NexmarkSource>(options_, context.clock);
  }

 private:
  NexmarkOptions options_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeNexmarkSourceProvider(
    const formats::OptionMap& options) {
  ARROW_ASSIGN_OR_RAISE(NexmarkOptions parsed, ParseOptions(options));
  return std::make_shared<const NexmarkSourceProvider>(parsed);
}

}  // namespace sluice::sources
