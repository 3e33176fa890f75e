// Bad input to the micro-batch engine: each a clear error, and a restart from the checkpoint
// works once the cause is gone.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/checkpoint/atomic_file.h"
#include "support/stream_test.h"

extern char** environ;

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

class StreamingQueryErrorsTest : public StreamTest {};

TEST_F(StreamingQueryErrorsTest, BatchActionsOnAStreamingDataFrameAreRefused) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  EXPECT_TRUE(df.isStreaming());
  EXPECT_TRUE(HasErrorClass(df.collect().status(), "STREAMING_QUERY_REQUIRES_WRITE_STREAM"));
  EXPECT_TRUE(HasErrorClass(df.count().status(), "STREAMING_QUERY_REQUIRES_WRITE_STREAM"));
  auto batch = Frame("a INT", {"[1]"});
  EXPECT_TRUE(HasErrorClass(batch.writeStream().format("memory").queryName("x").start().status(),
                            "WRITE_STREAM_NOT_ALLOWED"));
}

TEST_F(StreamingQueryErrorsTest, UnsupportedModesAndOperationsFailAtStart) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  auto start = [&](const DataFrame& frame, const std::string& mode) {
    return frame.writeStream().format("memory").queryName("q").outputMode(mode).start().status();
  };
  EXPECT_TRUE(HasErrorClass(start(df, "sideways"), "STREAMING_OUTPUT_MODE.INVALID"));
  // Spark 4.0.1's classes: output-mode errors, then its checker's legacy class.
  EXPECT_TRUE(
      HasErrorClass(start(df, "complete"), "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"));
  EXPECT_TRUE(HasErrorClass(start(df.groupBy({F::col("a")}).count(), "append"),
                            "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION"));
  EXPECT_TRUE(
      HasErrorClass(start(df.orderBy({F::col("a")}), "append"), "_LEGACY_ERROR_TEMP_3102"));
  EXPECT_TRUE(HasErrorClass(start(df.union_(Frame("a INT", {"[1]"})), "append"),
                            "_LEGACY_ERROR_TEMP_3102"));
}

TEST_F(StreamingQueryErrorsTest, FileSinkNeedsACheckpointLocationAndMemorySinkAName) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  EXPECT_TRUE(HasErrorClass(df.writeStream().format("parquet").start(checkpoint_ + "/out").status(),
                            "_LEGACY_ERROR_TEMP_1298"));
  EXPECT_TRUE(
      HasErrorClass(df.writeStream().format("memory").start().status(), "_LEGACY_ERROR_TEMP_1194"));
}

TEST_F(StreamingQueryErrorsTest, ASecondRunOnACheckpointInUseIsRefused) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1]"}), CheckAnswer({"[1]"}),
                  AssertOnQuery("a second start is refused", [&](StreamingQuery&) {
                    auto second = df.writeStream()
                                      .format("memory")
                                      .queryName("second")
                                      .option("checkpointLocation", checkpoint_)
                                      .start();
                    EXPECT_TRUE(HasErrorClass(second.status(), "CONCURRENT_QUERY"));
                  })});
}

// The same against another process: flock(1) holds the lock a query of that process would.
TEST_F(StreamingQueryErrorsTest, ACheckpointInUseByAnotherProcessIsRefused) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1]"}), CheckAnswer({"[1]"}), StopStream()});
  const std::string metadata = checkpoint_ + "/metadata";
  // In a process group of its own, so that one kill ends flock and the sleep it waits for.
  const char* argv[] = {"flock", "--no-fork", metadata.c_str(), "sleep", "60", nullptr};
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t holder = 0;
  int spawned = posix_spawnp(&holder, "flock", nullptr, &attributes, const_cast<char**>(argv),
                             environ);
  posix_spawnattr_destroy(&attributes);
  ASSERT_EQ(spawned, 0);
  auto held = [&]() {
    int fd = ::open(metadata.c_str(), O_RDONLY | O_CLOEXEC);
    bool busy = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
    ::close(fd);
    return busy;
  };
  for (int waited = 0; !held() && waited < 10'000; waited += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto start = [&]() {
    return df.writeStream()
        .format("memory")
        .queryName(query_name_)
        .option("checkpointLocation", checkpoint_)
        .start();
  };
  auto refused = start();
  EXPECT_TRUE(HasErrorClass(refused.status(), "CONCURRENT_QUERY")) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find(checkpoint_), std::string::npos);
  // Once the other process is gone, the query starts.
  ::kill(-holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  for (int waited = 0; held() && waited < 10'000; waited += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  auto started = start();
  ASSERT_TRUE(started.ok()) << started.status().ToString();
  ASSERT_TRUE((*started)->stop().ok());
}

TEST_F(StreamingQueryErrorsTest, CorruptOrTruncatedLogsNameTheFile) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1]"}), CheckAnswer({"[1]"}), StopStream()});
  std::string offsets = checkpoint_ + "/offsets/0";
  auto original = checkpoint::ReadWholeFile(offsets);
  ASSERT_TRUE(original.ok());
  for (const std::string& damaged : {std::string(""), original->substr(0, 20),
                                     std::string("v9\n{}\n0")}) {
    fs::remove(offsets);
    std::ofstream(offsets) << damaged;
    auto started = df.writeStream()
                       .format("memory")
                       .queryName(query_name_)
                       .option("checkpointLocation", checkpoint_)
                       .start();
    ASSERT_FALSE(started.ok()) << "damaged offsets: '" << damaged << "'";
    EXPECT_NE(started.status().message().find(offsets), std::string::npos)
        << started.status().ToString();
  }
  // Once the file is repaired, the query resumes where it was.
  fs::remove(offsets);
  std::ofstream(offsets) << *original;
  TestStream(df, {StartStream(), AddData(input, {"[2]"}), CheckAnswer({"[1]", "[2]"})});
}

TEST_F(StreamingQueryErrorsTest, ACheckpointOfAnotherShapeIsRefused) {
  auto first = MemoryStream("a INT");
  auto second = MemoryStream("a INT");
  auto one_source = spark_->readStream().load(first);
  TestStream(one_source, {AddData(first, {"[1]"}), CheckAnswer({"[1]"}), StopStream()});
  auto two_sources = one_source.union_(spark_->readStream().load(second));
  auto started = two_sources.writeStream()
                     .format("memory")
                     .queryName("two")
                     .option("checkpointLocation", checkpoint_)
                     .start();
  EXPECT_TRUE(HasErrorClass(started.status(), "STREAMING_CHECKPOINT_SOURCES_MISMATCH"));
}

TEST_F(StreamingQueryErrorsTest, AFailedBatchStopsTheQueryAndARestartRetriesIt) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  bool fail = true;
  std::vector<int64_t> seen_batches;
  auto start = [&] {
    return df.writeStream()
        .foreachBatch([&](const DataFrame& batch, int64_t id) -> arrow::Status {
          if (fail) return arrow::Status::IOError("the target database is down");
          seen_batches.push_back(id);
          return arrow::Status::OK();
        })
        .option("checkpointLocation", checkpoint_)
        .start();
  };
  ASSERT_TRUE(input->AddData(Table("a INT", {"[1]"})).ok());
  auto query = start();
  ASSERT_TRUE(query.ok());
  auto error = (*query)->awaitTermination();
  EXPECT_TRUE(HasErrorClass(error, "STREAM_FAILED"));
  EXPECT_NE(error.message().find("the target database is down"), std::string::npos);
  EXPECT_TRUE(HasErrorClass((*query)->exception(), "STREAM_FAILED"));
  EXPECT_TRUE(fs::exists(checkpoint_ + "/offsets/0"));
  EXPECT_FALSE(fs::exists(checkpoint_ + "/commits/0"));
  fail = false;
  query = start();
  ASSERT_TRUE(query.ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_EQ(seen_batches, std::vector<int64_t>{0});
}

}  // namespace
}  // namespace sluice::testing
