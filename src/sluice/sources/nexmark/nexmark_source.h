// The "nexmark" streaming source: the Nexmark benchmark's events (nexmark_generator.h), as fast
// as the query takes them or paced at their rate. Each run yields the same events; writing them
// with a file sink gives another engine the very same input.
#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format("nexmark"). Options:
///   numEvents            how many events there are; 0 (default): no end
///   eventsPerSecond      the event-time rate (10000): event i happens i / eventsPerSecond
///                        seconds after baseTime
///   baseTime             the event time of the first event, in ms since the epoch
///                        (1436918400000, 2015-07-15T00:00:00Z, as the reference generator)
///   maxEventsPerTrigger  the most events one micro-batch takes (1000000)
///   paced                true: events arrive in wall-clock time at eventsPerSecond from the
///                        start of the run; false (default): all at once
///   seed                 the run's seed (0): the same seed, the same events
/// Offsets are {"events":N}: the first N events were read. Bad options fail here naming them.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeNexmarkSourceProvider(
    const formats::OptionMap& options);

}  // namespace sluice::sources
