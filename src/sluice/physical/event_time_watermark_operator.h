#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/event_time_watermark.h"

namespace sluice::physical {

/// Passes its input through unchanged; in a micro-batch it records the event times of the
/// rows in context.event_times for the loop's watermark.
BatchStreamPtr MakeEventTimeWatermark(const plan::EventTimeWatermark& node, BatchStreamPtr input,
                                      const ExecContext& context);

}  // namespace sluice::physical
