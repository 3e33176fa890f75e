// Kafka's TopicPartition and the maps of per-partition offsets the Kafka source plans with,
// printed the way Spark's messages print them (Scala's collection toString).
#pragma once

#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace sluice::sources::kafka {

/// One partition of one topic. Ordered by topic, then partition (Spark's sort order for
/// offsets JSON).
struct TopicPartition {
  std::string topic;
  int32_t partition = 0;

  auto operator<=>(const TopicPartition&) const = default;
  bool operator==(const TopicPartition&) const = default;

  /// Kafka's TopicPartition.toString: "topic-partition".
  std::string ToString() const { return topic + "-" + std::to_string(partition); }
};

/// An offset (or a timestamp) per partition.
using PartitionOffsets = std::map<TopicPartition, int64_t>;

/// A set of partitions.
using PartitionSet = std::set<TopicPartition>;

/// Kafka's sentinel offsets in startingOffsets / endingOffsets JSON.
inline constexpr int64_t kLatestOffset = -1;
inline constexpr int64_t kEarliestOffset = -2;

/// The partitions of `offsets`.
PartitionSet KeysOf(const PartitionOffsets& offsets);

/// Scala's Set.toString, as Spark's messages show partition sets: "Set(t-0, t-1)" (sorted,
/// where Scala's order is a hash order: Sluice prints a deterministic order).
std::string SetText(const PartitionSet& partitions);

/// Scala's Map.toString: "Map(t-0 -> 5, t-1 -> 7)" (sorted).
std::string MapText(const PartitionOffsets& offsets);

}  // namespace sluice::sources::kafka
