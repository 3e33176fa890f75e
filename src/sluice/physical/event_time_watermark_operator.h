#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/event_time_watermark.h"

namespace sluice::physical {

/// Passes its input through unchanged; in a micro-batch it records the event times of the
/// rows in context.event_times for the loop's watermark.
BatchStreamPtr MakeEventTimeWatermark(const plan::EventTimeWatermark& node, BatchStreamPtr input,
                                      const ExecContext& context);

/// The statistics of the event times (microseconds) of `times`, nulls left out, as Spark
/// computes them for one partition, except for the mean: exact here, where Spark keeps a
/// running mean; the two differ by rounding only.
EventTimeStats EventTimeStatsOf(const arrow::TimestampArray& times);

}  // namespace sluice::physical
