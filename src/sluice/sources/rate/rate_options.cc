#include "sluice/sources/rate/rate_options.h"

#include "sluice/sources/typed_options.h"

namespace sluice::sources {

namespace {

// Spark's IllegalArgumentException for an out-of-range option; its text names the option.
arrow::Status InvalidValue(int64_t value, std::string_view option, std::string_view rule) {
  return arrow::Status::Invalid("Invalid value '", value, "'. The option '", option, "' must ",
                                rule);
}

}  // namespace

arrow::Result<RateOptions> ParseRateOptions(const formats::OptionMap& options) {
  RateOptions parsed;
  ARROW_ASSIGN_OR_RAISE(parsed.rows_per_second, LongOption(options, "rowsPerSecond", 1));
  if (parsed.rows_per_second <= 0) {
    return InvalidValue(parsed.rows_per_second, "rowsPerSecond", "be positive");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.ramp_up_time_seconds,
                        TimeStringOption(options, "rampUpTime", TimeStringUnit::kSeconds,
                                         parsed.ramp_up_time_seconds));
  if (parsed.ramp_up_time_seconds < 0) {
    return InvalidValue(parsed.ramp_up_time_seconds, "rampUpTime", "not be negative");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.num_partitions, IntOption(options, "numPartitions", 1));
  if (parsed.num_partitions <= 0) {
    return InvalidValue(parsed.num_partitions, "numPartitions", "be positive");
  }
  if (auto it = options.find("numPartitions"); it != options.end()) {
    parsed.num_partitions_text = it->second;
  }
  return parsed;
}

arrow::Result<RatePerMicroBatchOptions> ParseRatePerMicroBatchOptions(
    const formats::OptionMap& options) {
  RatePerMicroBatchOptions parsed;
  ARROW_ASSIGN_OR_RAISE(parsed.rows_per_batch, LongOption(options, "rowsPerBatch", 0));
  if (parsed.rows_per_batch <= 0) {
    return InvalidValue(parsed.rows_per_batch, "rowsPerBatch", "be positive");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.num_partitions, IntOption(options, "numPartitions", 1));
  if (parsed.num_partitions <= 0) {
    return InvalidValue(parsed.num_partitions, "numPartitions", "be positive");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.start_timestamp_ms, LongOption(options, "startTimestamp", 0));
  if (parsed.start_timestamp_ms < 0) {
    return InvalidValue(parsed.start_timestamp_ms, "startTimestamp", "be non-negative");
  }
  ARROW_ASSIGN_OR_RAISE(parsed.advance_millis_per_batch,
                        IntOption(options, "advanceMillisPerBatch", 1000));
  if (parsed.advance_millis_per_batch < 0) {
    return InvalidValue(parsed.advance_millis_per_batch, "advanceMillisPerBatch",
                        "be non-negative");
  }
  return parsed;
}

}  // namespace sluice::sources
