// The checkpoint's files, byte for byte as Spark 4.0.1 writes them, and the recovery decision.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint.h"
#include "sluice/checkpoint/compactible_log.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/checkpoint/recovery.h"
#include "sluice/execution/streaming_settings.h"
#include "sluice/formats/partitioned_writer.h"
#include "support/session_fixture.h"

namespace sluice::checkpoint {
namespace {

namespace fs = std::filesystem;

// offsets/0 of a file-source query run by pyspark 4.0.1 with spark.sql.shuffle.partitions=2.
constexpr const char* kSparkOffsets =
    "v1\n"
    "{\"batchWatermarkMs\":0,\"batchTimestampMs\":1796060373596,\"conf\":{"
    "\"spark.sql.streaming.stateStore.providerClass\":\"org.apache.spark.sql.execution."
    "streaming.state.HDFSBackedStateStoreProvider\","
    "\"spark.sql.streaming.stateStore.rocksdb.formatVersion\":\"5\","
    "\"spark.sql.streaming.stateStore.encodingFormat\":\"unsaferow\","
    "\"spark.sql.streaming.statefulOperator.useStrictDistribution\":\"true\","
    "\"spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion\":\"2\","
    "\"spark.sql.streaming.multipleWatermarkPolicy\":\"min\","
    "\"spark.sql.streaming.aggregation.stateFormatVersion\":\"2\","
    "\"spark.sql.shuffle.partitions\":\"2\","
    "\"spark.sql.streaming.join.stateFormatVersion\":\"2\","
    "\"spark.sql.streaming.stateStore.compression.codec\":\"lz4\","
    "\"spark.sql.optimizer.pruneFiltersCanPruneStreamingSubplan\":\"false\"}}\n"
    "{\"logOffset\":0}";

class CheckpointLogsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = (fs::temp_directory_path() / ("sluice-checkpoint-" + formats::RandomUuid()))
                  .string();
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string folder_;
};

TEST_F(CheckpointLogsTest, OffsetsMatchSparkByteForByte) {
  SessionConfig config;
  ASSERT_TRUE(config.Set("spark.sql.shuffle.partitions", "2").ok());
  OffsetSeq seq;
  seq.metadata.batch_timestamp_ms = 1796060373596;
  seq.metadata.conf = execution::PinnedConfOf(config);
  seq.offsets = {std::string("{\"logOffset\":0}")};
  // Spark's settings in Spark's order, then Sluice's own (which Spark ignores).
  std::string expected = kSparkOffsets;
  expected.insert(expected.find("}}"),
                  ",\"sluice.sql.streaming.statePartitioningVersion\":\"3\"");
  EXPECT_EQ(SerializeOffsetSeq(seq), expected);
  auto parsed = ParseOffsetSeq(kSparkOffsets, "offsets/0");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(SerializeOffsetSeq(*parsed), kSparkOffsets);
  // A source without an offset yet is "-".
  seq.offsets.push_back(std::nullopt);
  parsed = ParseOffsetSeq(SerializeOffsetSeq(seq), "offsets/0");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->offsets[1], std::nullopt);
}

TEST_F(CheckpointLogsTest, ACheckpointWithoutThePartitioningVersionKeepsTheFirstOne) {
  // Checkpoints written before Sluice pinned how it partitions state spread keys by the hash
  // of their encoded bytes (version 1); they must keep doing so, whatever the session says.
  auto written_before = ParseOffsetSeq(kSparkOffsets, "offsets/0");
  ASSERT_TRUE(written_before.ok());
  SessionConfig config;
  ASSERT_TRUE(config.Set(execution::kStatePartitioningKey, "2").ok());
  ASSERT_TRUE(execution::RestorePinnedConf(written_before->metadata.conf, &config).ok());
  auto settings = execution::StreamingSettings::FromConfig(config);
  ASSERT_TRUE(settings.ok());
  EXPECT_EQ(settings->state_partitioning_version, 1);

  SessionConfig fresh;
  ASSERT_TRUE(execution::RestorePinnedConf(execution::PinnedConfOf(fresh), &fresh).ok());
  EXPECT_EQ(execution::StreamingSettings::FromConfig(fresh)->state_partitioning_version, 3);

  ASSERT_TRUE(fresh.Set(execution::kStatePartitioningKey, "4").ok());
  auto refused = execution::StreamingSettings::FromConfig(fresh);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("statePartitioningVersion"), std::string::npos);
}

TEST_F(CheckpointLogsTest, CommitsAndMetadataMatchSpark) {
  EXPECT_EQ(SerializeCommitMetadata(CommitMetadata{}), "v1\n{\"nextBatchWatermarkMs\":0}");
  EXPECT_EQ(SerializeQueryMetadata("ef3f4134-f11b-41ec-9cfb-5fd698983ea9"),
            "{\"id\":\"ef3f4134-f11b-41ec-9cfb-5fd698983ea9\"}");
  auto commit = ParseCommitMetadata("v1\n{\"nextBatchWatermarkMs\":5000}", "commits/3");
  ASSERT_TRUE(commit.ok());
  EXPECT_EQ(commit->next_batch_watermark_ms, 5000);
}

TEST_F(CheckpointLogsTest, DamagedFilesNameThemselves) {
  for (const char* damaged : {"", "v1", "v1\n{\"batchWat", "x1\n{}", "v2\n{}"}) {
    auto parsed = ParseOffsetSeq(damaged, "/ckpt/offsets/7");
    ASSERT_FALSE(parsed.ok()) << damaged;
    EXPECT_NE(parsed.status().message().find("/ckpt/offsets/7"), std::string::npos);
  }
  EXPECT_TRUE(testing::HasErrorClass(ParseOffsetSeq("v2\n{}", "f").status(),
                                     "INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION"));
  EXPECT_TRUE(testing::HasErrorClass(ParseCommitMetadata("v1\nnot json", "f").status(),
                                     "MALFORMED_LOG_FILE"));
}

TEST_F(CheckpointLogsTest, ABatchIsWrittenOnceAndAtomically) {
  BatchLog log(folder_ + "/offsets");
  ASSERT_TRUE(log.Add(0, "v1\nfirst").ok());
  EXPECT_TRUE(testing::HasErrorClass(log.Add(0, "v1\nsecond"), "CONCURRENT_STREAM_LOG_UPDATE"));
  auto contents = log.Get(0);
  ASSERT_TRUE(contents.ok());
  EXPECT_EQ(**contents, "v1\nfirst");
  // No temporary file is left behind, and names that are not batch ids are ignored.
  std::ofstream(folder_ + "/offsets/.hidden") << "x";
  std::ofstream(folder_ + "/offsets/notes.txt") << "x";
  ASSERT_TRUE(log.Add(1, "v1\nsecond").ok());
  auto ids = log.BatchIds();
  ASSERT_TRUE(ids.ok());
  EXPECT_EQ(*ids, (std::vector<int64_t>{0, 1}));
  int files = 0;
  for (const auto& entry : fs::directory_iterator(folder_ + "/offsets")) {
    files += entry.path().filename().string().find(".tmp") == std::string::npos;
  }
  EXPECT_EQ(files, 4);
  ASSERT_TRUE(log.PurgeBefore(1).ok());
  EXPECT_EQ(*log.BatchIds(), (std::vector<int64_t>{1}));
}

TEST_F(CheckpointLogsTest, CompactsEveryIntervalAndKeepsItsInterval) {
  auto log = CompactibleLog::Open(folder_, 3);
  ASSERT_TRUE(log.ok());
  for (int64_t batch = 0; batch < 5; ++batch) {
    ASSERT_TRUE((*log)->Add(batch, {"{\"b\":" + std::to_string(batch) + "}"}).ok());
  }
  EXPECT_TRUE(fs::exists(folder_ + "/2.compact"));
  EXPECT_FALSE(fs::exists(folder_ + "/2"));
  auto compact = (*log)->Get(2);
  ASSERT_TRUE(compact.ok());
  EXPECT_EQ(**compact, (std::vector<std::string>{"{\"b\":0}", "{\"b\":1}", "{\"b\":2}"}));
  auto all = (*log)->AllEntries();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 5u);
  // Reopened with another interval, it stays on the compaction batches already written
  // (Spark's deriveCompactInterval: the largest divisor of 3 that is at most 10 is 3).
  auto reopened = CompactibleLog::Open(folder_, 10);
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ((*reopened)->compact_interval(), 3);
  // An empty entry is the version line alone, as Spark writes it.
  ASSERT_TRUE((*reopened)->Add(6, {}).ok());
  EXPECT_EQ(*ReadWholeFile(folder_ + "/6"), "v1");
}

TEST(RecoveryTest, DecidesWhereToResume) {
  auto decide = [](std::optional<int64_t> offsets, std::optional<int64_t> commit) {
    return DecideResumePoint(LogHeads{offsets, commit}, "/ckpt");
  };
  auto fresh = decide(std::nullopt, std::nullopt);
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(fresh->next_batch_id, 0);
  EXPECT_FALSE(fresh->rerun);
  auto committed = decide(4, 4);
  ASSERT_TRUE(committed.ok());
  EXPECT_EQ(committed->next_batch_id, 5);
  EXPECT_FALSE(committed->rerun);
  EXPECT_EQ(committed->previous_batch_id, 4);
  auto uncommitted = decide(4, 3);
  ASSERT_TRUE(uncommitted.ok());
  EXPECT_EQ(uncommitted->next_batch_id, 4);
  EXPECT_TRUE(uncommitted->rerun);
  EXPECT_EQ(uncommitted->previous_batch_id, 3);
  auto first_uncommitted = decide(0, std::nullopt);
  ASSERT_TRUE(first_uncommitted.ok());
  EXPECT_TRUE(first_uncommitted->rerun);
  EXPECT_EQ(first_uncommitted->previous_batch_id, std::nullopt);
  EXPECT_TRUE(testing::HasErrorClass(decide(3, 5).status(), "MALFORMED_LOG_FILE"));
  EXPECT_TRUE(testing::HasErrorClass(decide(std::nullopt, 0).status(), "MALFORMED_LOG_FILE"));
}

TEST_F(CheckpointLogsTest, AnOpenCheckpointIsLockedAndKeepsItsQueryId) {
  auto first = Checkpoint::Open(folder_, "id-1");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)->query_id(), "id-1");
  EXPECT_TRUE(testing::HasErrorClass(Checkpoint::Open(folder_, "id-2").status(),
                                     "CONCURRENT_QUERY"));
  first->reset();
  auto second = Checkpoint::Open(folder_, "id-2");
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)->query_id(), "id-1");
}

}  // namespace
}  // namespace sluice::checkpoint
