// The Kafka source's initial offsets in its checkpoint folder (Spark's
// KafkaSourceInitialOffsetWriter): sources/<i>/0 holds a zero byte, "v1\n", then the offsets
// JSON. Written once, when a new query first resolves startingOffsets, so that a restart
// before batch 0 committed starts from the same offsets however the topic changed meanwhile.
#pragma once

#include <functional>
#include <string>

#include <arrow/result.h>

#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

/// The file's contents for `offsets`, byte for byte as Spark writes it.
std::string InitialOffsetsFileContents(const PartitionOffsets& offsets);

/// Reads a file written by InitialOffsetsFileContents (or by Spark, including Spark 2.1's
/// form without the version line). Errors name `path`.
arrow::Result<PartitionOffsets> ParseInitialOffsetsFile(std::string_view contents,
                                                        const std::string& path);

/// The initial offsets kept in `metadata_path` (sources/<i>); when there are none yet,
/// `resolve()` decides them and they are written there first. Without a metadata path (no
/// checkpoint) `resolve()` is simply called.
arrow::Result<PartitionOffsets> LoadOrRecordInitialOffsets(
    const std::string& metadata_path,
    const std::function<arrow::Result<PartitionOffsets>()>& resolve);

}  // namespace sluice::sources::kafka
