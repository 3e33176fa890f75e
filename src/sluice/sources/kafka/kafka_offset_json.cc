#include "sluice/sources/kafka/kafka_offset_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include <simdjson.h>

#include "sluice/common/json_string.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources::kafka {

namespace {

// ---- The iteration order of Scala 2.13's mutable.HashMap --------------------------------
//
// Spark builds the offsets JSON by inserting partitions, sorted, into mutable.HashMaps and
// letting Jackson walk them. Their order is the map's bucket order: a key's bucket is its
// improved hash masked by the table size (16, doubled whenever an insertion would reach 3/4
// of it), and a bucket's keys are kept by ascending hash, ties in insertion order. This class
// replays those insertions and yields the same order.
class ScalaHashMapOrder {
 public:
  /// One put(key) of the map, new key or not: like Scala, every put may grow the table.
  void Put(int32_t key_hash, size_t key_index) {
    if (static_cast<int64_t>(entries_.size()) + 1 >= threshold_) {
      table_length_ *= 2;
      threshold_ = table_length_ * 3 / 4;
    }
    for (const auto& entry : entries_) {
      if (entry.key_index == key_index) return;
    }
    const uint32_t unsigned_hash = static_cast<uint32_t>(key_hash);
    const int32_t improved = static_cast<int32_t>(unsigned_hash ^ (unsigned_hash >> 16));
    entries_.push_back({improved, key_index, entries_.size()});
  }

  /// The key indexes in iteration order.
  std::vector<size_t> Order() const {
    std::vector<Entry> sorted = entries_;
    const uint32_t mask = static_cast<uint32_t>(table_length_ - 1);
    std::stable_sort(sorted.begin(), sorted.end(), [mask](const Entry& a, const Entry& b) {
      return std::make_tuple(static_cast<uint32_t>(a.hash) & mask, a.hash, a.sequence) <
             std::make_tuple(static_cast<uint32_t>(b.hash) & mask, b.hash, b.sequence);
    });
    std::vector<size_t> order;
    for (const auto& entry : sorted) order.push_back(entry.key_index);
    return order;
  }

 private:
  struct Entry {
    int32_t hash;
    size_t key_index;
    size_t sequence;
  };
  std::vector<Entry> entries_;
  int64_t table_length_ = 16;
  int64_t threshold_ = 12;
};

// java.lang.String.hashCode over UTF-16 units; topic names are ASCII (Kafka's legal
// characters), where bytes and units agree.
int32_t JavaStringHash(std::string_view text) {
  uint32_t hash = 0;
  for (unsigned char c : text) hash = hash * 31 + c;
  return static_cast<int32_t>(hash);
}

constexpr std::string_view kOffsetsExample =
    R"(Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}, got )";
constexpr std::string_view kTimestampsExample =
    "Expected e.g. {\"topicA\": {\"0\": 123456789, \"1\": 123456789},\n"
    "\"topicB\": {\"0\": 123456789, \"1\": 123456789}}, got ";
constexpr std::string_view kAssignExample =
    R"(Expected e.g. {"topicA":[0,1],"topicB":[0,1]}, got )";

arrow::Status Expected(std::string_view example, std::string_view json) {
  return arrow::Status::Invalid(example, json);
}

// The JSON of `{"topic":{"partition":long}}`, or nullopt when it has another shape.
std::optional<PartitionOffsets> ReadNestedMap(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) return {};
  simdjson::dom::object topics;
  if (root.get_object().get(topics) != simdjson::SUCCESS) return {};
  PartitionOffsets offsets;
  for (auto topic : topics) {
    simdjson::dom::object partitions;
    if (topic.value.get_object().get(partitions) != simdjson::SUCCESS) return {};
    for (auto partition : partitions) {
      // Jackson reads an Int map key with Integer.parseInt.
      std::optional<int32_t> number = ParseJavaInt(partition.key);
      int64_t value = 0;
      if (!number || partition.value.get_int64().get(value) != simdjson::SUCCESS) return {};
      offsets[TopicPartition{std::string(topic.key), *number}] = value;
    }
  }
  return offsets;
}

}  // namespace

std::string PartitionOffsetsJson(const PartitionOffsets& offsets) {
  // Replays Spark's insertions: partitions in sorted order (PartitionOffsets' order); the
  // outer map gets a put of the topic for every partition.
  std::vector<std::string> topics;
  std::vector<std::vector<std::pair<int32_t, int64_t>>> partitions;
  ScalaHashMapOrder topic_order;
  std::vector<ScalaHashMapOrder> partition_orders;
  for (const auto& [partition, offset] : offsets) {
    if (topics.empty() || topics.back() != partition.topic) {
      topics.push_back(partition.topic);
      partitions.emplace_back();
      partition_orders.emplace_back();
    }
    partition_orders.back().Put(partition.partition, partitions.back().size());
    partitions.back().emplace_back(partition.partition, offset);
    topic_order.Put(JavaStringHash(partition.topic), topics.size() - 1);
  }
  std::string json = "{";
  bool first_topic = true;
  for (size_t t : topic_order.Order()) {
    if (!first_topic) json += ',';
    first_topic = false;
    AppendJsonString(topics[t], &json);
    json += ":{";
    bool first_partition = true;
    for (size_t p : partition_orders[t].Order()) {
      if (!first_partition) json += ',';
      first_partition = false;
      json += '"';
      json += std::to_string(partitions[t][p].first);
      json += "\":";
      json += std::to_string(partitions[t][p].second);
    }
    json += '}';
  }
  json += '}';
  return json;
}

arrow::Result<PartitionOffsets> ParsePartitionOffsets(std::string_view json) {
  auto offsets = ReadNestedMap(json);
  if (!offsets) return Expected(kOffsetsExample, json);
  return std::move(*offsets);
}

arrow::Result<PartitionOffsets> ParsePartitionTimestamps(std::string_view json) {
  auto timestamps = ReadNestedMap(json);
  if (!timestamps) return Expected(kTimestampsExample, json);
  return std::move(*timestamps);
}

arrow::Result<std::vector<TopicPartition>> ParseAssignedPartitions(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::object topics;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS ||
      root.get_object().get(topics) != simdjson::SUCCESS) {
    return Expected(kAssignExample, json);
  }
  std::vector<TopicPartition> assigned;
  PartitionSet seen;
  for (auto topic : topics) {
    simdjson::dom::array partitions;
    if (topic.value.get_array().get(partitions) != simdjson::SUCCESS) {
      return Expected(kAssignExample, json);
    }
    for (auto partition : partitions) {
      int64_t number = 0;
      if (partition.get_int64().get(number) != simdjson::SUCCESS ||
          number < std::numeric_limits<int32_t>::min() ||
          number > std::numeric_limits<int32_t>::max()) {
        return Expected(kAssignExample, json);
      }
      TopicPartition assigned_partition{std::string(topic.key), static_cast<int32_t>(number)};
      if (seen.insert(assigned_partition).second) assigned.push_back(assigned_partition);
    }
  }
  return assigned;
}

}  // namespace sluice::sources::kafka
