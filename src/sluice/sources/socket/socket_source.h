// The "socket" streaming source (Spark's TextSocketSourceProvider): the lines a TCP server
// sends, for tutorials and debugging. Not fault tolerant: lines live only in memory.
#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format("socket"). Options: host and port (required),
/// includeTimestamp (false), numPartitions (1). Columns: value STRING, plus timestamp
/// TIMESTAMP (arrival time on SourceContext::clock) with includeTimestamp. As in Spark, the
/// connection is made when the first batch is read (batch 0, which is empty: offset -1), a
/// background thread then buffers the lines, the offset is the number of the last line
/// received (a LongOffset JSON number), Commit forgets the lines up to the committed offset
/// and Stop closes the connection. Bad options fail here with Spark's messages.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeSocketSourceProvider(
    const formats::OptionMap& options);

}  // namespace sluice::sources
