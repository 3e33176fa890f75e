// The "noop" streaming sink (Spark's NoopTable): reads every row of each batch and writes
// nothing, to measure a query without the cost of its output.
#pragma once

#include <memory>

#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// A sink that drains each batch, counting its rows (reported as numOutputRows), in any output
/// mode. Trivially idempotent.
std::unique_ptr<StreamSink> MakeNoopSink();

}  // namespace sluice::sinks
