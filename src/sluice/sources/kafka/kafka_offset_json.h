// The JSON forms of Kafka offsets (Spark's JsonUtils): the per-partition offsets a Kafka source
// writes as its line of offsets/<N> and takes in startingOffsets / endingOffsets, the
// per-partition timestamps of startingOffsetsByTimestamp, and the partition lists of `assign`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

/// `{"topic":{"partition":offset,...},...}` byte for byte as Spark writes it: no blanks, and
/// topics and partitions in the iteration order of the Scala HashMaps Spark fills (sorted
/// partitions inserted into a default-sized mutable.HashMap, serialized by Jackson), so an
/// offsets log is interchangeable with Spark's. An empty map is "{}".
std::string PartitionOffsetsJson(const PartitionOffsets& offsets);

/// Reads `{"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}` (blanks allowed; a repeated key: the
/// last wins). Anything else fails with Spark's "Expected e.g. ..., got <json>".
arrow::Result<PartitionOffsets> ParsePartitionOffsets(std::string_view json);

/// Reads startingOffsetsByTimestamp / endingOffsetsByTimestamp: the same shape as offsets, the
/// values are timestamps in milliseconds. Fails with Spark's message for that option.
arrow::Result<PartitionOffsets> ParsePartitionTimestamps(std::string_view json);

/// Reads `assign`: `{"topicA":[0,1],"topicB":[0]}`, in the order given (repeats dropped).
/// Fails with Spark's message.
arrow::Result<std::vector<TopicPartition>> ParseAssignedPartitions(std::string_view json);

}  // namespace sluice::sources::kafka
