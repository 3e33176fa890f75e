// The temporary checkpoint of a query whose sink needs none and is given none (foreachBatch,
// memory, console, noop): deleted when the query stops, kept after a failure as Spark keeps
// it, unless spark.sql.streaming.forceDeleteTempCheckpointLocation says to delete it anyway.
// Kept ones go when the process exits (python/tests/test_streaming.py shows it).
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;

/// Points the system temp folder (TMPDIR) at a folder of the test's own while it runs, so
/// that the temporary checkpoints it makes can be found and counted.
class TemporaryCheckpointTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    if (const char* previous = std::getenv("TMPDIR")) previous_tmpdir_ = previous;
    temp_folder_ = scratch_dir_ / "tmp";
    fs::create_directories(temp_folder_);
    setenv("TMPDIR", temp_folder_.c_str(), /*overwrite=*/1);
  }
  void TearDown() override {
    if (previous_tmpdir_) {
      setenv("TMPDIR", previous_tmpdir_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
    StreamTest::TearDown();
  }

  /// The temporary checkpoint folders in the test's temp folder.
  std::vector<fs::path> TemporaryCheckpoints() const {
    std::vector<fs::path> folders;
    for (const auto& entry : fs::directory_iterator(temp_folder_)) {
      if (entry.path().filename().string().rfind("temporary-", 0) == 0) {
        folders.push_back(entry.path());
      }
    }
    return folders;
  }

  /// How RunOneBatch's batch ends.
  enum class Ending { kStop, kFailure, kKill };

  /// Runs one batch of one row into foreachBatch with no checkpoint location: the query is
  /// then stopped, or the batch fails, or the query is killed after the sink took it.
  /// Returns what awaitTermination returned.
  arrow::Status RunOneBatch(Ending ending) {
    auto input = MemoryStream("a INT");
    EXPECT_TRUE(input->AddData(Table("a INT", {"[1]"})).ok());
    const bool fail = ending == Ending::kFailure;
    auto writer = spark_->readStream().load(input).writeStream().foreachBatch(
        [fail](const DataFrame&, int64_t) -> arrow::Status {
          if (fail) return arrow::Status::IOError("the target database is down");
          return arrow::Status::OK();
        });
    if (ending == Ending::kKill) {
      writer.crashHook(KillOnceAt(execution::CrashPoint::kAfterAddBatch, 0));
    }
    auto query = writer.start();
    if (!query.ok()) return query.status();
    if (ending == Ending::kStop) {
      EXPECT_TRUE((*query)->processAllAvailable().ok());
      // While the query runs, its checkpoint is a temporary folder holding the batch's offsets.
      const std::vector<fs::path> running = TemporaryCheckpoints();
      EXPECT_EQ(running.size(), 1u);
      if (running.size() == 1) {
        EXPECT_TRUE(fs::exists(running[0] / "offsets" / "0"));
      }
      EXPECT_TRUE((*query)->stop().ok());
    }
    return (*query)->awaitTermination();
  }

  std::string temp_folder_;
  std::optional<std::string> previous_tmpdir_;
};

TEST_F(TemporaryCheckpointTest, AQueryThatStopsDeletesItsTemporaryCheckpoint) {
  EXPECT_TRUE(RunOneBatch(Ending::kStop).ok());
  EXPECT_TRUE(TemporaryCheckpoints().empty());
}

TEST_F(TemporaryCheckpointTest, AFailedQueryKeepsItsTemporaryCheckpoint) {
  EXPECT_TRUE(HasErrorClass(RunOneBatch(Ending::kFailure), "STREAM_FAILED"));
  const std::vector<fs::path> kept = TemporaryCheckpoints();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_TRUE(fs::exists(kept[0] / "offsets" / "0"));
}

TEST_F(TemporaryCheckpointTest, ForceDeleteTempCheckpointLocationDeletesItAfterAFailureToo) {
  ASSERT_TRUE(
      spark_->conf().set("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true").ok());
  EXPECT_TRUE(HasErrorClass(RunOneBatch(Ending::kFailure), "STREAM_FAILED"));
  EXPECT_TRUE(TemporaryCheckpoints().empty());
}

TEST_F(TemporaryCheckpointTest, AKilledQueryLeavesItsTemporaryCheckpointEvenWhenForcedToDelete) {
  // A kill stands for the death of the process, which deletes nothing.
  ASSERT_TRUE(
      spark_->conf().set("spark.sql.streaming.forceDeleteTempCheckpointLocation", "true").ok());
  EXPECT_FALSE(RunOneBatch(Ending::kKill).ok());
  const std::vector<fs::path> kept = TemporaryCheckpoints();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_TRUE(fs::exists(kept[0] / "offsets" / "0"));
  EXPECT_FALSE(fs::exists(kept[0] / "commits" / "0"));
}

TEST_F(TemporaryCheckpointTest, AForceDeleteSettingThatIsNoBooleanIsRefusedNamingIt) {
  ASSERT_TRUE(
      spark_->conf().set("spark.sql.streaming.forceDeleteTempCheckpointLocation", "yes").ok());
  const arrow::Status status = RunOneBatch(Ending::kStop);
  EXPECT_TRUE(HasErrorClass(status, "INVALID_CONF_VALUE.TYPE_MISMATCH"));
  EXPECT_NE(status.message().find("spark.sql.streaming.forceDeleteTempCheckpointLocation"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice::testing
