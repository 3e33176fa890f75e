// The rows the rate sources generate: Spark's formulas for how many values exist after a number
// of seconds, and a reader that fills the value and timestamp columns of a range of values in
// column-sized chunks, in the order Spark's partitions yield them.
#pragma once

#include <cstdint>
#include <memory>

#include <arrow/record_batch.h>
#include <arrow/type_fwd.h>

namespace sluice::sources {

/// The schema of both rate sources: timestamp TIMESTAMP, value BIGINT (both nullable, as
/// Spark declares them).
std::shared_ptr<arrow::Schema> RateSchema();

/// How many values the rate source has produced after `seconds` (Spark's
/// RateStreamProvider.valueAtSecond): the speed grows linearly by rows_per_second /
/// (ramp_up_seconds + 1) each second up to rows_per_second, then stays there. The caller keeps
/// `seconds` at or below Long.MAX_VALUE / rows_per_second so that nothing overflows.
int64_t RateValueAtSecond(int64_t seconds, int64_t rows_per_second, int64_t ramp_up_seconds);

/// The values [range_start, range_end) of one batch and the rule for their timestamps.
struct RateRange {
  int64_t range_start = 0;
  int64_t range_end = 0;
  /// Spark splits the values round-robin into this many partitions (value v goes to partition
  /// (v - range_start) % num_partitions) and yields partition after partition; the reader keeps
  /// that order so the rows come out as Spark's do.
  int32_t num_partitions = 1;
  /// The timestamp of value v, in milliseconds: start_time_ms + round((v - range_start) *
  /// ms_per_value), rounding half up as Java's Math.round. 0 gives every row start_time_ms.
  int64_t start_time_ms = 0;
  double ms_per_value = 0;
};

/// Rows per record batch of a rate reader: large enough to amortize the per-batch work,
/// small enough to stay in cache for the operators downstream.
inline constexpr int64_t kRateRowsPerBatch = 64 * 1024;

/// A reader of the rows of `range` in record batches of at most `max_rows` rows; batches never
/// straddle two partitions. Columns are filled in tight loops, never row by row through
/// builders. Each call starts an independent read.
std::shared_ptr<arrow::RecordBatchReader> MakeRateReader(const RateRange& range,
                                                         int64_t max_rows = kRateRowsPerBatch);

}  // namespace sluice::sources
