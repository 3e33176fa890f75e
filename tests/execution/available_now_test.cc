// Trigger.AvailableNow and Trigger.Once over a file stream, end to end: availableNow fixes the
// files at start and runs as many batches as maxFilesPerTrigger needs, a batch a crash left
// uncommitted goes first with exactly its logged offsets and timestamp, and once takes every
// file in one batch.
//
// Expected batchings come from Spark 4.0.1 (local[1]) over three one-row JSON files read with
// maxFilesPerTrigger=1 into foreachBatch: availableNow gave {0: [1], 1: [2], 2: [3]}, once gave
// {0: [1, 2, 3]}.
#include <map>
#include <mutex>
#include <vector>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/execution/query_listener.h"

namespace sluice::testing {
namespace {

using execution::CrashPoint;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;

/// Lands a file from the listener thread when batch `batch_id` reports its progress, once,
/// and records the batch ids of every progress report.
class LandingListener final : public execution::StreamingQueryListener {
 public:
  LandingListener(int64_t batch_id, std::function<void()> land)
      : batch_id_(batch_id), land_(std::move(land)) {}

  void onQueryProgress(const execution::QueryProgressEvent& event) override {
    std::lock_guard<std::mutex> lock(mutex_);
    batches_.push_back(event.progress.batch_id);
    if (event.progress.batch_id == batch_id_ && land_) {
      land_();
      land_ = nullptr;
    }
  }
  std::vector<int64_t> batches() {
    std::lock_guard<std::mutex> lock(mutex_);
    return batches_;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    batches_.clear();
  }

 private:
  std::mutex mutex_;
  int64_t batch_id_;
  std::function<void()> land_;
  std::vector<int64_t> batches_;
};

class AvailableNowTest : public EndToEndTest {
 protected:
  void SetUp() override {
    EndToEndTest::SetUp();
    for (int i = 0; i < 3; ++i) LandRow(i + 1);
  }

  /// Lands in/<id>.json holding the row {"id": id}, each file newer than the one before.
  void LandRow(int id) {
    LandJson("in/" + std::to_string(id) + ".json", {"{\"id\":" + std::to_string(id) + "}"},
             kFirstMtimeMs + id * 1000);
  }

  DataFrame Stream() const {
    return spark_->readStream()
        .format("json")
        .schema("id INT")
        .option("maxFilesPerTrigger", "1")
        .load(Path("in"));
  }

  arrow::Result<std::shared_ptr<StreamingQuery>> StartParquet(const DataFrame& df,
                                                              Trigger trigger) {
    return df.writeStream()
        .format("parquet")
        .option("checkpointLocation", Path("ckpt"))
        .trigger(trigger)
        .start(Path("out"));
  }

  std::vector<std::string> Output() { return CollectRows(spark_->read().parquet(Path("out"))); }

  /// The ids of the rows each batch of the last run read, from its progress reports.
  static std::map<int64_t, int64_t> InputRowsByBatch(const StreamingQuery& query) {
    std::map<int64_t, int64_t> rows;
    for (const auto& progress : query.recentProgress()) {
      rows[progress.batch_id] = progress.sources.at(0).num_input_rows;
    }
    return rows;
  }
};

TEST_F(AvailableNowTest, RunsTheBatchesTheLimitNeedsThenStops) {
  auto query = StartParquet(Stream(), Trigger::AvailableNow());
  auto ended = Finish(query);
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  EXPECT_EQ(InputRowsByBatch(**query), (std::map<int64_t, int64_t>{{0, 1}, {1, 1}, {2, 1}}));
  EXPECT_FALSE((*query)->isActive());
  EXPECT_EQ(Output(), SortedRows({"[1]", "[2]", "[3]"}));
}

TEST_F(AvailableNowTest, EachReportCountsTheFilesTakenOfTheRunsBacklog) {
  auto query = StartParquet(Stream(), Trigger::AvailableNow());
  ASSERT_TRUE(Finish(query).ok());
  std::vector<std::pair<int64_t, int64_t>> backlog;
  for (const auto& progress : (*query)->recentProgress()) {
    ASSERT_TRUE(progress.sources.at(0).backlog.has_value());
    backlog.emplace_back(progress.sources[0].backlog->done, progress.sources[0].backlog->total);
  }
  EXPECT_EQ(backlog, (std::vector<std::pair<int64_t, int64_t>>{{1, 3}, {2, 3}, {3, 3}}));
  // Not part of Spark's report.
  EXPECT_EQ((*query)->lastProgress()->Json().find("backlog"), std::string::npos);

  // The next run's backlog is what landed since; a run with a plain trigger has none.
  LandRow(4);
  auto next = StartParquet(Stream(), Trigger::AvailableNow());
  ASSERT_TRUE(Finish(next).ok());
  ASSERT_EQ((*next)->recentProgress().size(), 1u);
  EXPECT_EQ((*next)->lastProgress()->sources[0].backlog->total, 1);
  LandRow(5);
  auto once = StartParquet(Stream(), Trigger::Once());
  ASSERT_TRUE(Finish(once).ok());
  EXPECT_FALSE((*once)->lastProgress()->sources[0].backlog.has_value());
}

TEST_F(AvailableNowTest, AFileLandingAfterStartWaitsForTheNextRun) {
  // Batch 1 is planned after batch 0's progress event: a file landed from the listener is
  // there when the source looks for batch 1's files, yet the run was fixed at start.
  auto listener = std::make_shared<LandingListener>(0, [this] { LandRow(4); });
  spark_->streams()->addListener(listener);
  auto first = StartParquet(Stream(), Trigger::AvailableNow());
  auto first_ended = Finish(first);
  ASSERT_TRUE(first_ended.ok()) << first_ended.ToString();
  EXPECT_TRUE(std::filesystem::exists(Path("in/4.json")));
  EXPECT_EQ(listener->batches(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(Output(), SortedRows({"[1]", "[2]", "[3]"}));

  listener->Clear();
  auto second = StartParquet(Stream(), Trigger::AvailableNow());
  auto second_ended = Finish(second);
  ASSERT_TRUE(second_ended.ok()) << second_ended.ToString();
  EXPECT_EQ(listener->batches(), (std::vector<int64_t>{3}));
  EXPECT_EQ(Output(), SortedRows({"[1]", "[2]", "[3]", "[4]"}));
  spark_->streams()->removeListener(listener);
}

// Spark 4.0.1: two files run by availableNow (batches 0 and 1, with unix_millis of
// current_timestamp()), then commits/1 and _spark_metadata/1 removed, two more files landed and
// availableNow started again: the progress reports were batch 1 ({"logOffset":1}, the logged
// offsets/1 unchanged), then 2 and 3 with one row each, and the second file's row carried
// offsets/1's batchTimestampMs.
TEST_F(AvailableNowTest, AnUncommittedBatchGoesFirstWithItsLoggedOffsetsAndTimestamp) {
  auto stamped = Stream().selectExpr({"id", "unix_millis(current_timestamp()) AS t"});
  auto start = [&](std::shared_ptr<ManualClock> clock, execution::CrashHook hook) {
    return stamped.writeStream()
        .format("parquet")
        .option("checkpointLocation", Path("ckpt"))
        .trigger(Trigger::AvailableNow())
        .clock(clock)
        .crashHook(std::move(hook))
        .start(Path("out"));
  };
  // First run: batch 0 at 1000000; the clock then moves to 2000000, so batch 1 is logged with
  // that timestamp, and the query dies right after writing offsets/1.
  auto first_clock = std::make_shared<ManualClock>(1'000'000);
  auto kill = KillOnceAt(CrashPoint::kAfterOffsetsWrite, 1);
  auto killed = Finish(start(first_clock, [&](CrashPoint point, int64_t batch) {
    if (point == CrashPoint::kAfterCommit && batch == 0) first_clock->SetTime(2'000'000);
    return kill(point, batch);
  }));
  ASSERT_TRUE(killed.IsCancelled()) << killed.ToString();
  std::string logged = ReadWhole(Path("ckpt/offsets/1"));
  ASSERT_NE(logged.find("\"batchTimestampMs\":2000000"), std::string::npos) << logged;
  ASSERT_EQ(logged.substr(logged.rfind('\n') + 1), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/commits")), BatchIdsUpTo(0));

  // A fourth file lands while the query is down; the restart's clock reads 5000000 and moves
  // on by 1000 after every commit.
  LandRow(4);
  auto second_clock = std::make_shared<ManualClock>(5'000'000);
  auto restarted = start(second_clock, [&](CrashPoint point, int64_t) {
    if (point == CrashPoint::kAfterCommit) second_clock->Advance(1000);
    return false;
  });
  auto resumed = Finish(restarted);
  ASSERT_TRUE(resumed.ok()) << resumed.ToString();

  EXPECT_EQ(ReadWhole(Path("ckpt/offsets/1")), logged);
  auto progress = (*restarted)->recentProgress();
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress[0].batch_id, 1);
  EXPECT_EQ(progress[0].sources.at(0).end_offset, std::optional<std::string>("{\"logOffset\":1}"));
  EXPECT_EQ(InputRowsByBatch(**restarted),
            (std::map<int64_t, int64_t>{{1, 1}, {2, 1}, {3, 1}}));
  // Batch 1 keeps its logged timestamp; the batches after it take the new clock's.
  EXPECT_EQ(Output(), SortedRows({"[1,1000000]", "[2,2000000]", "[3,5001000]", "[4,5002000]"}));
}

TEST_F(AvailableNowTest, OnceTakesEveryFileInOneBatch) {
  auto query = StartParquet(Stream(), Trigger::Once());
  auto ended = Finish(query);
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  EXPECT_EQ(InputRowsByBatch(**query), (std::map<int64_t, int64_t>{{0, 3}}));
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/offsets")), BatchIdsUpTo(0));
  EXPECT_EQ(Output(), SortedRows({"[1]", "[2]", "[3]"}));
}

}  // namespace
}  // namespace sluice::testing
