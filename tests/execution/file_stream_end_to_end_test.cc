// A file stream written to a file sink (and to foreachBatch), killed at every step of the batch
// loop in its second batch and restarted on the same checkpoint: readers of the output see
// exactly the rows of an uninterrupted run, the manifest logs every batch once, and the files
// of a killed attempt are never read.
//
// The batching after a kill before offsets/1 was checked against Spark 4.0.1 (local[1]): three
// one-row files read with maxFilesPerTrigger=1 under availableNow, offsets/1, offsets/2,
// commits/1, commits/2, sources/0/2 and _spark_metadata/1, /2 removed (what a kill after the
// source logged its second file but before offsets/1 leaves), then restarted: the restart ran
// batch 1 with {"logOffset":2} over the second and third files, the manifest held batches 0
// and 1, and spark.read.parquet saw the rows 1, 2, 3 once each.
#include <map>
#include <mutex>
#include <set>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"

namespace sluice::testing {
namespace {

using execution::CrashPoint;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;

/// Three files of two rows each, read one file per batch: batches 0, 1, 2 when nothing fails.
class FileStreamEndToEndTest : public EndToEndTest {
 protected:
  void SetUp() override {
    EndToEndTest::SetUp();
    LandJson("in/a.json", {R"({"id":1,"name":"a1"})", R"({"id":2,"name":"a2"})"}, kFirstMtimeMs);
    LandJson("in/b.json", {R"({"id":3,"name":"b3"})", R"({"id":4})"}, kFirstMtimeMs + 1000);
    LandJson("in/c.json", {R"({"id":5,"name":"c5"})", R"({"id":6,"name":"c6"})"},
             kFirstMtimeMs + 2000);
  }

  DataFrame Stream() const {
    return spark_->readStream()
        .format("json")
        .schema("id INT, name STRING")
        .option("maxFilesPerTrigger", "1")
        .load(Path("in"))
        .selectExpr({"id", "name", "id * 10 AS tens"});
  }

  /// Starts the stream into a file sink of `format` at out/<name>, checkpointed in
  /// ckpt/<name>, under availableNow.
  arrow::Result<std::shared_ptr<StreamingQuery>> StartFileSink(const std::string& format,
                                                               const std::string& name,
                                                               execution::CrashHook hook) {
    return Stream()
        .writeStream()
        .format(format)
        .option("checkpointLocation", Path("ckpt/" + name))
        .trigger(Trigger::AvailableNow())
        .crashHook(std::move(hook))
        .start(Path("out/" + name));
  }

  /// What Spark-style readers see in out/<name>: only the files its manifest lists.
  std::vector<std::string> ReadOutput(const std::string& format, const std::string& name) {
    auto reader = spark_->read().format(format);
    if (format == "json") reader.schema("id INT, name STRING, tens INT");
    return CollectRows(reader.load(Path("out/" + name)));
  }

  /// The rows of the three input files as the query writes them.
  static std::vector<std::string> AllRows() {
    return SortedRows({R"([1,"a1",10])", R"([2,"a2",20])", R"([3,"b3",30])", "[4,null,40]",
                       R"([5,"c5",50])", R"([6,"c6",60])"});
  }

  /// The last batch id after a kill in batch 1 at `point` and a restart: a kill before
  /// offsets/1 leaves the second file logged by the source but in no batch, so the restarted
  /// batch 1 takes it together with the third file (as Spark does, see the top of the file).
  static int64_t LastBatchAfterKillAt(CrashPoint point) {
    return point == CrashPoint::kBeforeOffsetsWrite ? 1 : 2;
  }

  /// Runs the query uninterrupted into out/<format>-clean, then killed at `point` of batch 1
  /// and restarted into out/<format>-killed, and checks the two outputs and their logs.
  void CheckKillAndRestart(const std::string& format, CrashPoint point) {
    ASSERT_TRUE(Finish(StartFileSink(format, format + "-clean", nullptr)).ok());
    auto clean = ReadOutput(format, format + "-clean");
    EXPECT_EQ(clean, AllRows());
    EXPECT_EQ(LoggedBatchIds(Path("out/" + format + "-clean/_spark_metadata")), BatchIdsUpTo(2));

    std::string name = format + "-killed";
    auto killed = Finish(StartFileSink(format, name, KillOnceAt(point, 1)));
    ASSERT_TRUE(killed.IsCancelled()) << killed.ToString();
    auto restarted = Finish(StartFileSink(format, name, nullptr));
    ASSERT_TRUE(restarted.ok()) << restarted.ToString();

    EXPECT_EQ(ReadOutput(format, name), clean);
    int64_t last = LastBatchAfterKillAt(point);
    EXPECT_EQ(LoggedBatchIds(Path("out/" + name + "/_spark_metadata")), BatchIdsUpTo(last));
    EXPECT_EQ(LoggedBatchIds(Path("ckpt/" + name + "/offsets")), BatchIdsUpTo(last));
    EXPECT_EQ(LoggedBatchIds(Path("ckpt/" + name + "/commits")), BatchIdsUpTo(last));
    // No file is committed twice, and every data file in the folder is committed: no kill
    // point lies inside the sink, so no attempt left orphans.
    auto committed = ManifestFiles(Path("out/" + name));
    std::set<std::string> distinct(committed.begin(), committed.end());
    EXPECT_EQ(distinct.size(), committed.size());
    EXPECT_EQ(std::vector<std::string>(distinct.begin(), distinct.end()),
              DataFilesIn(Path("out/" + name)));
  }
};

class FileStreamKillTest : public FileStreamEndToEndTest,
                          public ::testing::WithParamInterface<CrashPoint> {};

TEST_P(FileStreamKillTest, ParquetSinkOutputEqualsAnUninterruptedRun) {
  CheckKillAndRestart("parquet", GetParam());
}

TEST_P(FileStreamKillTest, JsonSinkOutputEqualsAnUninterruptedRun) {
  CheckKillAndRestart("json", GetParam());
}

TEST_P(FileStreamKillTest, ForeachBatchSeesTheBatchesOfAnUninterruptedRun) {
  std::mutex mutex;
  // What an idempotent foreachBatch keeps: the rows of each batch id, a re-run replacing them.
  std::map<int64_t, std::vector<std::string>> rows_by_batch;
  std::map<int64_t, int> calls_by_batch;
  auto start = [&](execution::CrashHook hook) {
    return Stream()
        .writeStream()
        .foreachBatch([&](const DataFrame& batch, int64_t id) -> arrow::Status {
          ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
          std::lock_guard<std::mutex> lock(mutex);
          rows_by_batch[id] = SortedRows(RowsOf(*table));
          ++calls_by_batch[id];
          return arrow::Status::OK();
        })
        .option("checkpointLocation", Path("ckpt/foreach"))
        .trigger(Trigger::AvailableNow())
        .crashHook(std::move(hook))
        .start();
  };
  auto killed = Finish(start(KillOnceAt(GetParam(), 1)));
  ASSERT_TRUE(killed.IsCancelled()) << killed.ToString();
  auto restarted = Finish(start(nullptr));
  ASSERT_TRUE(restarted.ok()) << restarted.ToString();

  std::map<int64_t, std::vector<std::string>> expected{
      {0, SortedRows({R"([1,"a1",10])", R"([2,"a2",20])"})},
      {1, SortedRows({R"([3,"b3",30])", "[4,null,40]"})},
      {2, SortedRows({R"([5,"c5",50])", R"([6,"c6",60])"})}};
  if (GetParam() == CrashPoint::kBeforeOffsetsWrite) {
    // The second and third files form batch 1 (see LastBatchAfterKillAt).
    expected[1].insert(expected[1].end(), expected[2].begin(), expected[2].end());
    expected[1] = SortedRows(expected[1]);
    expected.erase(2);
  }
  EXPECT_EQ(rows_by_batch, expected);
  // Batch 1 is handed over a second time only when the kill came after the sink had it.
  EXPECT_EQ(calls_by_batch[1], GetParam() == CrashPoint::kAfterAddBatch ? 2 : 1);
  EXPECT_EQ(calls_by_batch[0], 1);
}

INSTANTIATE_TEST_SUITE_P(EveryStep, FileStreamKillTest,
                         ::testing::ValuesIn(execution::kAllCrashPoints), CrashPointTestName);

// A kill inside the sink, after its part files but before its manifest entry, leaves files no
// manifest lists. The sink's own step order offers no crash point there, so the test makes
// that state: it kills the query after batch 1 was written and removes batch 1's manifest
// entry, which is exactly what the earlier kill would have left.
TEST_F(FileStreamEndToEndTest, FilesOfAKilledAttemptAreNeverRead) {
  auto killed = Finish(StartFileSink("parquet", "orphans",
                                     KillOnceAt(CrashPoint::kAfterAddBatch, 1)));
  ASSERT_TRUE(killed.IsCancelled()) << killed.ToString();
  auto through_batch_one = ManifestFiles(Path("out/orphans"));
  ASSERT_TRUE(std::filesystem::remove(Path("out/orphans/_spark_metadata/1")));
  // The files batch 1 wrote, which no manifest entry lists any more.
  std::set<std::string> attempt(through_batch_one.begin(), through_batch_one.end());
  for (const auto& file : ManifestFiles(Path("out/orphans"))) attempt.erase(file);
  ASSERT_FALSE(attempt.empty()) << "batch 1 wrote no part file";

  auto restarted = Finish(StartFileSink("parquet", "orphans", nullptr));
  ASSERT_TRUE(restarted.ok()) << restarted.ToString();
  EXPECT_EQ(ReadOutput("parquet", "orphans"), AllRows());
  EXPECT_EQ(LoggedBatchIds(Path("out/orphans/_spark_metadata")), BatchIdsUpTo(2));
  // The killed attempt's files are still there, listed by no manifest entry.
  auto committed = ManifestFiles(Path("out/orphans"));
  for (const auto& orphan : attempt) {
    EXPECT_TRUE(std::filesystem::exists(orphan)) << orphan;
    EXPECT_EQ(std::count(committed.begin(), committed.end(), orphan), 0) << orphan;
  }
  EXPECT_EQ(DataFilesIn(Path("out/orphans")).size(), committed.size() + attempt.size());
}

}  // namespace
}  // namespace sluice::testing
