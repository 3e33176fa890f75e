// df.write.format("kafka").save(): a batch query's rows into Kafka, through the streaming
// sink's validation and producer.
#pragma once

#include <arrow/status.h>

#include "sluice/formats/format_options.h"
#include "sluice/physical/batch_stream.h"

namespace sluice::sinks {

/// Writes every row of `rows` to Kafka as the streaming sink writes a micro-batch (the same
/// options and columns, Spark's errors), at-least-once as Spark's batch write: returns once
/// the broker acknowledged every record, or fails naming what was refused. Refuses
/// exactlyOnce, which needs a streaming query's checkpoint.
arrow::Status WriteKafkaBatch(const formats::OptionMap& options, physical::BatchStream& rows);

}  // namespace sluice::sinks
