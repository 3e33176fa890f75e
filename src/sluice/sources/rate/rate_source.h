// The "rate" streaming source (Spark's RateStreamProvider): rows of (timestamp, value) at a
// fixed rate of rows per second, optionally ramping up, for tests and demos.
#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format("rate"). Options: rowsPerSecond (1), rampUpTime (0s),
/// numPartitions (1). Offsets are the whole seconds since the source was first started (a
/// LongOffset JSON number), read from SourceContext::clock; the start time is kept in the
/// checkpoint (sources/<i>/0) so that a restarted query yields the same rows for the same
/// offsets. Value v of the batch (s1, s2] is timestamped creation time + s1 seconds + v's share
/// of the batch's seconds, as Spark's RateStreamMicroBatchStream. Bad options fail here with
/// Spark's messages, naming the option.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeRateSourceProvider(
    const formats::OptionMap& options);

}  // namespace sluice::sources
