// The "rate-micro-batch" streaming source (Spark's RatePerMicroBatchProvider): a fixed number
// of rows per micro-batch, whatever the trigger or the time, so every run yields the same
// batches. The source behind the stateless throughput benchmark.
#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format("rate-micro-batch"). Options: rowsPerBatch (required,
/// > 0), numPartitions (1), startTimestamp (0 ms), advanceMillisPerBatch (1000). Batch k holds
/// values [k * rowsPerBatch, (k + 1) * rowsPerBatch), all timestamped startTimestamp + k *
/// advanceMillisPerBatch. Offsets are Spark's {"offset":N,"timestamp":T}. Every batch takes
/// exactly rowsPerBatch rows, also under Trigger.Once (Spark ignores the read limit there), and
/// Trigger.AvailableNow runs one batch. Bad options fail here with Spark's messages.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeRatePerMicroBatchSourceProvider(
    const formats::OptionMap& options);

}  // namespace sluice::sources
