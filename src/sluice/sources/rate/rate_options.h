// The options of the two rate sources, parsed once from readStream's string options with
// Spark's defaults, checks and messages. Unknown keys are ignored, as in Spark.
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// Options of the "rate" source (Spark's RateStreamProvider).
struct RateOptions {
  /// rowsPerSecond: rows generated per second once ramped up; > 0. Default 1.
  int64_t rows_per_second = 1;
  /// rampUpTime: how long, in whole seconds, the speed takes to reach rows_per_second; >= 0.
  /// Default 0s. Finer units are truncated to seconds, as Spark does.
  int64_t ramp_up_time_seconds = 0;
  /// numPartitions: how many partitions Spark spreads the rows over; > 0. Sluice generates
  /// the rows in Spark's partition order. Default 1 (Spark's default parallelism under
  /// local[1]).
  int32_t num_partitions = 1;
  /// The numPartitions text as given, or "default": Spark prints it in the source's
  /// description.
  std::string num_partitions_text = "default";
};

/// Options of the "rate-micro-batch" source (Spark's RatePerMicroBatchProvider).
struct RatePerMicroBatchOptions {
  /// rowsPerBatch: rows of every micro-batch; required, > 0.
  int64_t rows_per_batch = 0;
  /// numPartitions: as for the rate source; > 0. Default 1.
  int32_t num_partitions = 1;
  /// startTimestamp: the timestamp of batch 0's rows, in milliseconds since the epoch; >= 0.
  /// Default 0.
  int64_t start_timestamp_ms = 0;
  /// advanceMillisPerBatch: how far the timestamp moves from one batch to the next; >= 0.
  /// Default 1000.
  int32_t advance_millis_per_batch = 1000;
};

/// Reads and checks the rate source's options. Errors are Spark's ("Invalid value '0'. The
/// option 'rowsPerSecond' must be positive", Java's number format messages) and name the
/// option.
arrow::Result<RateOptions> ParseRateOptions(const formats::OptionMap& options);

/// Reads and checks the rate-micro-batch source's options; a missing rowsPerBatch reads as 0
/// and fails as not positive, as in Spark.
arrow::Result<RatePerMicroBatchOptions> ParseRatePerMicroBatchOptions(
    const formats::OptionMap& options);

}  // namespace sluice::sources
