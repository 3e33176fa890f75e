// A query whose checkpoint and output live on a disk that fills up: a real file system (a tmpfs
// of one megabyte) refusing writes with ENOSPC. The query must fail with an error naming the
// file it could not write, and once the disk has room again, a restart must write every row
// exactly once. Stateless queries fill the disk with part files and logs; a deduplication
// fills it with state files too: the memory provider's deltas, RocksDB's changelogs and the
// table files it copies into snapshots (its working folder is on another file system).
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;
constexpr int kFiles = 12;
constexpr int kRowsPerFile = 2000;

class FullDiskTest : public EndToEndTest {
 protected:
  void SetUp() override {
    EndToEndTest::SetUp();
    disk_ = Path("disk");
    fs::create_directories(disk_);
    if (::mount("tmpfs", disk_.c_str(), "tmpfs", 0, "size=1m") != 0) {
      GTEST_SKIP() << "cannot mount a small tmpfs (" << std::strerror(errno)
                   << "): this test needs to run as root";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(disk_.c_str(), MNT_DETACH);
    EndToEndTest::TearDown();
  }

  /// Frees the disk: the same file system, grown to 64 MB.
  void GrowDisk() {
    ASSERT_EQ(::mount("tmpfs", disk_.c_str(), "tmpfs", MS_REMOUNT, "size=64m"), 0)
        << std::strerror(errno);
  }

  /// Lands kFiles files of kRowsPerFile rows (id, a random text that does not compress), about
  /// 3 MB of Parquet in all.
  void LandInput() {
    std::mt19937_64 random(7);
    const char* hex = "0123456789abcdef";
    for (int file = 0; file < kFiles; ++file) {
      std::vector<std::string> lines;
      for (int row = 0; row < kRowsPerFile; ++row) {
        std::string text(120, ' ');
        for (char& c : text) c = hex[random() % 16];
        lines.push_back("{\"id\":" + std::to_string(file * kRowsPerFile + row) + ",\"text\":\"" +
                        text + "\"}");
      }
      LandJson("in/" + std::to_string(file) + ".json", lines, kFirstMtimeMs + file * 1000);
    }
  }

  DataFrame Input() {
    return spark_->readStream()
        .schema("id BIGINT, text STRING")
        .option("maxFilesPerTrigger", int64_t{1})
        .json(Path("in"));
  }

  /// The ids read back from `frame`: each once, 0 to kFiles * kRowsPerFile - 1.
  void ExpectEveryIdOnce(const DataFrame& frame) {
    auto ids = frame.agg({F::count(F::col("id")).alias("rows"),
                          F::count_distinct({F::col("id")}).alias("distinct_ids"),
                          F::min(F::col("id")).alias("low"), F::max(F::col("id")).alias("high")});
    EXPECT_EQ(CollectRows(ids), std::vector<std::string>{
                                    "[" + std::to_string(kFiles * kRowsPerFile) + "," +
                                    std::to_string(kFiles * kRowsPerFile) + ",0," +
                                    std::to_string(kFiles * kRowsPerFile - 1) + "]"});
  }

  /// Runs `start` until the disk is full: it must fail naming a file on the disk.
  template <typename Start>
  void FillTheDisk(const Start& start) {
    arrow::Status full = Finish(start());
    ASSERT_FALSE(full.ok()) << "the query fit on the small disk";
    EXPECT_NE(full.message().find("No space left on device"), std::string::npos)
        << full.ToString();
    EXPECT_NE(full.message().find(disk_ + "/"), std::string::npos) << full.ToString();
  }

  /// Runs `start` until the disk is full, frees the disk and runs `start` again: the output, in
  /// `format`, must then hold every id once.
  template <typename Start>
  void FillTheDiskThenResume(const Start& start, const std::string& format) {
    FillTheDisk(start);
    GrowDisk();
    ASSERT_TRUE(Finish(start()).ok());
    ExpectEveryIdOnce(spark_->read().format(format).load(disk_ + "/out"));
  }

  std::string disk_;
  bool mounted_ = false;
};

// The sink's format: a file sink, then a Delta table.
class FullDiskSinkTest : public FullDiskTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(FullDiskSinkTest, FailsNamingTheFileAndResumesExactlyOnceWithRoom) {
  const std::string format = GetParam();
  LandInput();
  auto start = [&]() {
    return Input()
        .writeStream()
        .format(format)
        .option("checkpointLocation", disk_ + "/ckpt")
        .trigger(Trigger::AvailableNow())
        .start(disk_ + "/out");
  };
  FillTheDiskThenResume(start, format);
}

INSTANTIATE_TEST_SUITE_P(Sinks, FullDiskSinkTest, ::testing::Values("parquet", "delta"));

// The state store provider of a deduplication whose state (every text seen) fills the disk.
class FullDiskStateTest : public FullDiskTest, public ::testing::WithParamInterface<std::string> {
 protected:
  void DeduplicateOnTheFullDisk() {
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.minDeltasForSnapshot", "2").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.maintenanceInterval", "0").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
    LandInput();
    auto start = [&]() {
      return Input()
          .dropDuplicates({"text"})
          .writeStream()
          .format("parquet")
          .option("checkpointLocation", disk_ + "/ckpt")
          .trigger(Trigger::AvailableNow())
          .start(disk_ + "/out");
    };
    FillTheDiskThenResume(start, "parquet");
  }
};

TEST_P(FullDiskStateTest, FailsNamingTheFileAndResumesExactlyOnceWithRoom) {
  DeduplicateOnTheFullDisk();
}

// RocksDB's own working folder (spark.local.dir) on the full disk too: its table files and
// logs fail to be written.
TEST_P(FullDiskStateTest, WithTheWorkingFolderOnTheDiskToo) {
  ASSERT_TRUE(spark_->conf().set("spark.local.dir", disk_ + "/local").ok());
  DeduplicateOnTheFullDisk();
}

INSTANTIATE_TEST_SUITE_P(
    Providers, FullDiskStateTest,
    ::testing::Values("org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider",
                      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      return info.param.find("RocksDB") != std::string::npos ? std::string("RocksDB")
                                                             : std::string("Memory");
    });

}  // namespace
}  // namespace sluice::testing
