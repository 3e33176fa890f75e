// The initial offsets file of the Kafka source (sources/<i>/0): Spark's bytes, read back, kept
// across restarts, and a corrupt file named in the error.
#include "sluice/sources/kafka/kafka_initial_offsets.h"

#include <gtest/gtest.h>

#include "support/scratch_dir.h"

namespace sluice::sources::kafka {
namespace {

TEST(KafkaInitialOffsetsTest, WritesSparksBytes) {
  const std::string contents = InitialOffsetsFileContents({{{"t", 0}, 5}, {{"t", 1}, 7}});
  EXPECT_EQ(contents, std::string("\0v1\n{\"t\":{\"0\":5,\"1\":7}}", 23));
}

TEST(KafkaInitialOffsetsTest, ReadsSparksFormsBack) {
  const PartitionOffsets offsets{{{"t", 0}, 5}};
  auto current = ParseInitialOffsetsFile(InitialOffsetsFileContents(offsets), "f");
  ASSERT_TRUE(current.ok()) << current.status().ToString();
  EXPECT_EQ(*current, offsets);
  // Spark 2.1 wrote the JSON alone.
  auto old = ParseInitialOffsetsFile(std::string("\0{\"t\":{\"0\":5}}", 14), "f");
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(*old, offsets);
  auto corrupt = ParseInitialOffsetsFile(std::string("\0v1\n{\"t\"", 8), "/ckpt/sources/0/0");
  ASSERT_FALSE(corrupt.ok());
  EXPECT_NE(corrupt.status().message().find("/ckpt/sources/0/0"), std::string::npos);
  auto newer = ParseInitialOffsetsFile(std::string("\0v2\n{}", 6), "/ckpt/sources/0/0");
  ASSERT_FALSE(newer.ok());
}

TEST(KafkaInitialOffsetsTest, ResolvesOnceAndKeepsTheOffsets) {
  testing::ScratchDir dir;
  const std::string path = dir / "sources/0";
  int resolved = 0;
  auto resolve = [&]() -> arrow::Result<PartitionOffsets> {
    ++resolved;
    return PartitionOffsets{{{"t", 0}, 10 * resolved}};
  };
  auto first = LoadOrRecordInitialOffsets(path, resolve);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  auto second = LoadOrRecordInitialOffsets(path, resolve);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_EQ(resolved, 1);
  EXPECT_EQ(*second, (PartitionOffsets{{{"t", 0}, 10}}));
}

}  // namespace
}  // namespace sluice::sources::kafka
