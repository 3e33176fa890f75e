#include "sluice/sources/kafka/kafka_topic_partition.h"

namespace sluice::sources::kafka {

PartitionSet KeysOf(const PartitionOffsets& offsets) {
  PartitionSet keys;
  for (const auto& [partition, offset] : offsets) keys.insert(partition);
  return keys;
}

std::string SetText(const PartitionSet& partitions) {
  std::string text = "Set(";
  bool first = true;
  for (const auto& partition : partitions) {
    if (!first) text += ", ";
    first = false;
    text += partition.ToString();
  }
  return text + ")";
}

std::string MapText(const PartitionOffsets& offsets) {
  std::string text = "Map(";
  bool first = true;
  for (const auto& [partition, offset] : offsets) {
    if (!first) text += ", ";
    first = false;
    text += partition.ToString() + " -> " + std::to_string(offset);
  }
  return text + ")";
}

}  // namespace sluice::sources::kafka
