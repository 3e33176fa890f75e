// The streaming Kafka source (Spark's KafkaMicroBatchStream).
#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/sources/kafka/kafka_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources::kafka {

/// A running Kafka source for one query start. Offsets are Spark's
/// `{"topic":{"partition":offset}}` JSON, each offset one past the last record of the batch.
/// The first run resolves startingOffsets (or the timestamp forms) once and keeps the result
/// in sources/<i>/0, so a restart starts from the same place; a checkpoint's offsets always
/// win over startingOffsets. Partitions that appear later (new topics matching subscribe /
/// subscribePattern, partitions added to a topic) start at their earliest offset. Batches
/// honour maxOffsetsPerTrigger (split by backlog) and minOffsetsPerTrigger with maxTriggerDelay
/// (timed by the query's clock); data gone from the broker fails or warns per failOnDataLoss.
/// The source's context.clock must outlive it.
arrow::Result<std::unique_ptr<StreamSource>> MakeKafkaMicroBatchStream(
    const KafkaSourceOptions& options, const SourceContext& context);

}  // namespace sluice::sources::kafka
