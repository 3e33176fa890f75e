// The offsets JSON of the Kafka source against what Spark's JsonUtils writes (the expected
// texts come from generate_offsets_json_golden.py, run in a real Spark JVM), and its parsing.
#include "sluice/sources/kafka/kafka_offset_json.h"

#include <gtest/gtest.h>

namespace sluice::sources::kafka {
namespace {

PartitionOffsets Offsets(std::initializer_list<std::tuple<std::string, int32_t, int64_t>> list) {
  PartitionOffsets offsets;
  for (const auto& [topic, partition, offset] : list) offsets[{topic, partition}] = offset;
  return offsets;
}

TEST(KafkaOffsetJsonTest, WritesSparksTextForSimpleOffsets) {
  EXPECT_EQ(PartitionOffsetsJson(Offsets({{"t", 0, 1}, {"t", 1, 2}})), R"({"t":{"0":1,"1":2}})");
  EXPECT_EQ(PartitionOffsetsJson({}), "{}");
}

TEST(KafkaOffsetJsonTest, FollowsScalaHashMapOrderOfPartitions) {
  EXPECT_EQ(PartitionOffsetsJson(Offsets({{"t", 1, 3}, {"t", 16, 5}})), R"({"t":{"16":5,"1":3}})");
  EXPECT_EQ(PartitionOffsetsJson(Offsets(
                {{"t", 3, 7}, {"t", 100, 7}, {"t", 17, 7},
                 {"t", 33, 7}, {"t", 64, 7}, {"t", 65, 7}})),
            R"({"t":{"64":7,"17":7,"33":7,"65":7,"3":7,"100":7}})");
}

TEST(KafkaOffsetJsonTest, ManyPartitionsGrowTheTableAndStaySorted) {
  PartitionOffsets offsets;
  std::string expected = R"({"t":{)";
  for (int32_t p = 0; p < 40; ++p) {
    offsets[{"t", p}] = p * 10;
    if (p > 0) expected += ",";
    expected.append("\"").append(std::to_string(p)).append("\":").append(std::to_string(p * 10));
  }
  expected += "}}";
  EXPECT_EQ(PartitionOffsetsJson(offsets), expected);
}

TEST(KafkaOffsetJsonTest, FollowsScalaHashMapOrderOfTopics) {
  EXPECT_EQ(PartitionOffsetsJson(Offsets({{"a", 0, 2}, {"p", 0, 1}})),
            R"({"p":{"0":1},"a":{"0":2}})");
  EXPECT_EQ(PartitionOffsetsJson(Offsets({{"orders", 0, 5}, {"clicks", 2, -1}, {"clicks", 0, -2}})),
            R"({"clicks":{"0":-2,"2":-1},"orders":{"0":5}})");
  PartitionOffsets many;
  for (int i = 0; i < 14; ++i) many[{"topic" + std::to_string(i), 0}] = i;
  EXPECT_EQ(PartitionOffsetsJson(many),
            R"({"topic1":{"0":1},"topic2":{"0":2},"topic0":{"0":0},"topic5":{"0":5},)"
            R"("topic6":{"0":6},"topic3":{"0":3},"topic4":{"0":4},"topic12":{"0":12},)"
            R"("topic9":{"0":9},"topic13":{"0":13},"topic7":{"0":7},"topic8":{"0":8},)"
            R"("topic10":{"0":10},"topic11":{"0":11}})");
}

TEST(KafkaOffsetJsonTest, ParsesWhatItPrints) {
  PartitionOffsets offsets = Offsets({{"b", 16, 4}, {"b", 1, 9}, {"a.x", 0, -2}, {"a.x", 7, -1}});
  auto parsed = ParsePartitionOffsets(PartitionOffsetsJson(offsets));
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, offsets);
}

TEST(KafkaOffsetJsonTest, ParsesBlanksAndRepeatedKeys) {
  auto parsed = ParsePartitionOffsets(R"( { "t" : { "0" : 23 , "1" : -1, "0": 24 } } )");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, Offsets({{"t", 0, 24}, {"t", 1, -1}}));
}

TEST(KafkaOffsetJsonTest, RefusesOtherShapesWithSparksMessage) {
  for (std::string_view bad : {"", "latest", "[1]", R"({"t":[0]})", R"({"t":{"x":1}})",
                               R"({"t":{" 0":1}})", R"({"t":{"0":"a"}})", R"({"t":{"0":1})"}) {
    auto parsed = ParsePartitionOffsets(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().message(),
              std::string(R"(Expected e.g. {"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}, got )") +
                  std::string(bad));
  }
}

TEST(KafkaOffsetJsonTest, ReadsAssignedPartitionsInTheGivenOrder) {
  auto assigned = ParseAssignedPartitions(R"({"b":[1,0,1],"a":[3]})");
  ASSERT_TRUE(assigned.ok()) << assigned.status().ToString();
  EXPECT_EQ(*assigned, (std::vector<TopicPartition>{{"b", 1}, {"b", 0}, {"a", 3}}));
  auto bad = ParseAssignedPartitions(R"({"a":{"0":1}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            R"(Expected e.g. {"topicA":[0,1],"topicB":[0,1]}, got {"a":{"0":1}})");
}

TEST(KafkaOffsetJsonTest, ReadsTimestampsAndNamesTheirExample) {
  auto timestamps = ParsePartitionTimestamps(R"({"t":{"0":1700000000000}})");
  ASSERT_TRUE(timestamps.ok());
  EXPECT_EQ(*timestamps, Offsets({{"t", 0, 1700000000000}}));
  auto bad = ParsePartitionTimestamps("x");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Expected e.g. {\"topicA\": {\"0\": 123456789, \"1\": 123456789},\n"
            "\"topicB\": {\"0\": 123456789, \"1\": 123456789}}, got x");
}

TEST(KafkaTopicPartitionTest, PrintsAsScalaCollections) {
  EXPECT_EQ(SetText({{"t", 1}, {"t", 0}}), "Set(t-0, t-1)");
  EXPECT_EQ(MapText(Offsets({{"t", 0, 5}})), "Map(t-0 -> 5)");
}

}  // namespace
}  // namespace sluice::sources::kafka
