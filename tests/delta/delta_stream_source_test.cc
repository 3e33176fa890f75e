// readStream.format("delta"): a table's snapshot, then each commit's added files, in batches
// bounded by maxFilesPerTrigger / maxBytesPerTrigger, from a chosen starting version, with
// Delta's rules for commits that change or delete data; restarts go on from the checkpoint.
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/delta/delta_log.h"
#include "sluice/sources/delta/delta_source_offset.h"
#include "support/delta_rs.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

/// True when a query failed (STREAM_FAILED) with the error class `error_class` inside.
bool FailedWith(const arrow::Status& status, const std::string& error_class) {
  return !status.ok() && status.message().find("[" + error_class + "]") != std::string::npos;
}

class DeltaStreamSourceTest : public StreamTest {
 protected:
  /// Appends one commit holding `ids` (one file).
  void Append(const std::string& ids) {
    auto status = Frame("id BIGINT", {ids}).write().format("delta").mode("append").save(table_);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  /// Runs the stream with `options` and trigger availableNow until it stops, recording the
  /// rows of each batch.
  arrow::Status RunAvailableNow(const std::map<std::string, std::string>& options) {
    DataStreamReader reader = spark_->readStream().format("delta");
    for (const auto& [key, value] : options) reader.option(key, value);
    auto df = reader.load(table_);
    ARROW_RETURN_NOT_OK(df.status());
    auto query = df.writeStream()
                     .foreachBatch([this](const DataFrame& batch, int64_t id) -> arrow::Status {
                       ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
                       std::lock_guard<std::mutex> lock(mutex_);
                       batches_[id] = RowsOf(*table);
                       return arrow::Status::OK();
                     })
                     .trigger(Trigger::AvailableNow())
                     .option("checkpointLocation", checkpoint_)
                     .start();
    ARROW_RETURN_NOT_OK(query.status());
    return (*query)->awaitTermination();
  }

  std::vector<std::vector<std::string>> Batches() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::vector<std::string>> batches;
    for (auto& [id, rows] : batches_) batches.push_back(rows);
    return batches;
  }

  /// Commits a version that only removes the table's first file, as a DELETE does.
  void DeleteFirstFile() {
    delta::DeltaLog log(table_);
    auto snapshot = log.Load();
    ASSERT_TRUE(snapshot.ok());
    delta::RemoveFile remove;
    remove.path = snapshot->files.front().path;
    remove.deletion_timestamp = 1;
    ASSERT_TRUE(log.WriteCommit(snapshot->version + 1, {remove}).ok());
  }

  std::string table_ = scratch_dir_ / "table";
  std::mutex mutex_;
  std::map<int64_t, std::vector<std::string>> batches_;
};

TEST_F(DeltaStreamSourceTest, ReadsTheSnapshotThenEachCommitWithinTheFileLimit) {
  Append("[1, 2]");
  Append("[3]");
  ASSERT_TRUE(RunAvailableNow({{"maxFilesPerTrigger", "1"}}).ok());
  EXPECT_EQ(Batches(), (std::vector<std::vector<std::string>>{{"[1]", "[2]"}, {"[3]"}}));
  // Later commits come in later batches of the same query.
  Append("[4]");
  Append("[5]");
  ASSERT_TRUE(RunAvailableNow({}).ok());
  EXPECT_EQ(Batches(),
            (std::vector<std::vector<std::string>>{{"[1]", "[2]"}, {"[3]"}, {"[4]", "[5]"}}));
}

TEST_F(DeltaStreamSourceTest, OffsetsAreDeltasSourceOffsets) {
  Append("[1]");
  ASSERT_TRUE(RunAvailableNow({}).ok());
  auto table_id = delta::DeltaLog(table_).Load();
  ASSERT_TRUE(table_id.ok());
  auto offsets = checkpoint::ReadWholeFile(checkpoint_ + "/offsets/0");
  ASSERT_TRUE(offsets.ok());
  EXPECT_NE(offsets->find(R"({"sourceVersion":1,"reservoirId":")" + table_id->metadata.id +
                          R"(","reservoirVersion":0,"index":0,"isStartingVersion":true})"),
            std::string::npos)
      << *offsets;
}

TEST_F(DeltaStreamSourceTest, StartingVersionReadsCommitsFromThatVersionOn) {
  Append("[1]");
  Append("[2]");
  Append("[3]");
  ASSERT_TRUE(RunAvailableNow({{"startingVersion", "1"}}).ok());
  ASSERT_EQ(Batches().size(), 1u);
  EXPECT_EQ(Batches()[0], (std::vector<std::string>{"[2]", "[3]"}));
}

TEST_F(DeltaStreamSourceTest, StartingVersionLatestReadsOnlyNewCommits) {
  Append("[1]");
  auto query = spark_->readStream()
                   .format("delta")
                   .option("startingVersion", "latest")
                   .load(table_)
                   .writeStream()
                   .format("memory")
                   .queryName(query_name_)
                   .option("checkpointLocation", checkpoint_)
                   .start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  Append("[2]");
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  auto rows = spark_->table(query_name_).collect();
  ASSERT_TRUE((*query)->stop().ok());
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(RowsOf(**rows), (std::vector<std::string>{"[2]"}));
}

TEST_F(DeltaStreamSourceTest, ByteLimitTakesAtLeastOneFile) {
  Append("[1]");
  Append("[2]");
  Append("[3]");
  ASSERT_TRUE(RunAvailableNow({{"startingVersion", "0"}, {"maxBytesPerTrigger", "1b"}}).ok());
  EXPECT_EQ(Batches(), (std::vector<std::vector<std::string>>{{"[1]"}, {"[2]"}, {"[3]"}}));
}

TEST_F(DeltaStreamSourceTest, ACommitThatDeletesDataFailsUnlessTheOptionsSaySkip) {
  Append("[1]");
  Append("[2]");
  DeleteFirstFile();
  Append("[3]");
  auto failed = RunAvailableNow({{"startingVersion", "0"}});
  EXPECT_TRUE(FailedWith(failed, "DELTA_SOURCE_IGNORE_DELETE")) << failed.ToString();
  EXPECT_NE(failed.message().find("at version 2"), std::string::npos) << failed.message();
}

TEST_F(DeltaStreamSourceTest, IgnoreDeletesSkipsCommitsThatOnlyDelete) {
  Append("[1]");
  DeleteFirstFile();
  Append("[2]");
  ASSERT_TRUE(RunAvailableNow({{"startingVersion", "0"}, {"ignoreDeletes", "true"}}).ok());
  EXPECT_EQ(Batches(), (std::vector<std::vector<std::string>>{{"[1]", "[2]"}}));
}

TEST_F(DeltaStreamSourceTest, AnOverwriteIsAChangeCommit) {
  Append("[1]");
  ASSERT_TRUE(
      Frame("id BIGINT", {"[9]"}).write().format("delta").mode("overwrite").save(table_).ok());
  Append("[2]");
  auto failed = RunAvailableNow({{"startingVersion", "0"}});
  EXPECT_TRUE(FailedWith(failed, "DELTA_SOURCE_TABLE_IGNORE_CHANGES")) << failed.ToString();
  batches_.clear();
  checkpoint_ += "-skip";
  ASSERT_TRUE(RunAvailableNow({{"startingVersion", "0"}, {"skipChangeCommits", "true"}}).ok());
  EXPECT_EQ(Batches(), (std::vector<std::vector<std::string>>{{"[1]", "[2]"}}));
  batches_.clear();
  checkpoint_ += "-changes";
  ASSERT_TRUE(RunAvailableNow({{"startingVersion", "0"}, {"ignoreChanges", "true"}}).ok());
  // The overwrite's file comes with its commit, between the two appends.
  EXPECT_EQ(Batches(), (std::vector<std::vector<std::string>>{{"[1]", "[9]", "[2]"}}));
}

TEST_F(DeltaStreamSourceTest, ASchemaChangeFailsTheStream) {
  Append("[1]");
  auto df = spark_->readStream().format("delta").load(table_);
  ASSERT_TRUE(Frame("id BIGINT, extra STRING", {"[2]", "[\"x\"]"})
                  .write()
                  .format("delta")
                  .mode("append")
                  .option("mergeSchema", true)
                  .save(table_)
                  .ok());
  auto query = df.writeStream()
                   .format("noop")
                   .trigger(Trigger::AvailableNow())
                   .option("checkpointLocation", checkpoint_)
                   .start();
  ASSERT_TRUE(query.ok());
  auto status = (*query)->awaitTermination();
  EXPECT_TRUE(FailedWith(status, "DELTA_SCHEMA_CHANGED_WITH_VERSION")) << status.ToString();
}

TEST_F(DeltaStreamSourceTest, BadOptionsAndMissingTablesAreRefused) {
  auto missing = spark_->readStream().format("delta").load(table_);
  EXPECT_TRUE(HasErrorClass(missing.status(), "DELTA_TABLE_NOT_FOUND"));
  Append("[1]");
  auto both = spark_->readStream()
                  .format("delta")
                  .option("startingVersion", "0")
                  .option("startingTimestamp", "2024-01-01")
                  .load(table_);
  EXPECT_TRUE(HasErrorClass(both.status(), "DELTA_STARTING_VERSION_AND_TIMESTAMP_BOTH_SET"));
  auto files = spark_->readStream().format("delta").option("maxFilesPerTrigger", "0").load(table_);
  EXPECT_TRUE(HasErrorClass(files.status(), "DELTA_ILLEGAL_OPTION"));
  auto bytes = spark_->readStream().format("delta").option("maxBytesPerTrigger", "lots").load(table_);
  EXPECT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("maxBytesPerTrigger"), std::string::npos);
}

TEST_F(DeltaStreamSourceTest, DeltaToDeltaWithARestartInBetween) {
  const std::string out = scratch_dir_ / "out";
  auto start = [&]() {
    return spark_->readStream()
        .format("delta")
        .load(table_)
        .writeStream()
        .format("delta")
        .option("checkpointLocation", checkpoint_)
        .start(out);
  };
  Append("[1, 2]");
  auto query = start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  Append("[3]");
  query = start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  Append("[4]");
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  auto read = DeltaRsRead(out);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->rows, (std::vector<std::string>{"[1]", "[2]", "[3]", "[4]"}));
}

}  // namespace
}  // namespace sluice::testing
