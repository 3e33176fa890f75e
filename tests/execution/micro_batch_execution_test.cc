// The micro-batch loop end to end: memory source to memory sink through the StreamTest DSL.
#include <filesystem>
#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/recycling_memory_pool.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

class MicroBatchExecutionTest : public StreamTest {};

TEST_F(MicroBatchExecutionTest, AppendsEachBatchAndResumesAfterRestart) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input).select({(F::col("a") * 10).alias("b")});
  TestStream(df, {AddData(input, {"[1, 2]"}), CheckAnswer({"[10]", "[20]"}),
                  AddData(input, {"[3]"}), CheckNewAnswer({"[30]"}), StopStream(),
                  AddData(input, {"[4, 5]"}), StartStream(), CheckNewAnswer({"[40]", "[50]"}),
                  CheckAnswer({"[10]", "[20]", "[30]", "[40]", "[50]"})});
}

TEST_F(MicroBatchExecutionTest, WritesSparkCheckpointLayout) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1]"}), CheckAnswer({"[1]"}), AddData(input, {"[2]"}),
                  CheckAnswer({"[1]", "[2]"})});
  auto metadata = checkpoint::ReadWholeFile(checkpoint_ + "/metadata");
  ASSERT_TRUE(metadata.ok());
  EXPECT_EQ(*metadata, "{\"id\":\"" + query_->id() + "\"}");
  auto offsets = checkpoint::ReadWholeFile(checkpoint_ + "/offsets/1");
  ASSERT_TRUE(offsets.ok());
  EXPECT_EQ(offsets->substr(0, 3), "v1\n");
  EXPECT_NE(offsets->find("{\"batchWatermarkMs\":0,\"batchTimestampMs\":"), std::string::npos);
  EXPECT_NE(offsets->find("\"spark.sql.shuffle.partitions\":\"200\""), std::string::npos);
  EXPECT_EQ(offsets->substr(offsets->rfind('\n')), "\n1");
  auto commit = checkpoint::ReadWholeFile(checkpoint_ + "/commits/1");
  ASSERT_TRUE(commit.ok());
  EXPECT_EQ(*commit, "v1\n{\"nextBatchWatermarkMs\":0}");
}

TEST_F(MicroBatchExecutionTest, ReRunsAnUncommittedBatchWithItsLoggedTimestamp) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input).select(
      {F::col("a"), F::expr("unix_millis(current_timestamp())").alias("t")});
  std::string first_timestamp;
  TestStream(df, {AddData(input, {"[1]"}),
                  AssertOnQuery("batch 0 ran",
                                [](StreamingQuery& query) {
                                  ASSERT_TRUE(query.processAllAvailable().ok());
                                }),
                  StopStream()});
  auto rows = SinkRows();
  ASSERT_EQ(rows.size(), 1u);
  // Forget that batch 0 committed: the restart must run it again with the same timestamp,
  // and the memory sink, which saw batch 0 already, must not add its rows twice.
  fs::remove(checkpoint_ + "/commits/0");
  TestStream(df, {StartStream(), CheckAnswer({rows[0]}),
                  AssertOnQuery("batch 0 ran again", [](StreamingQuery& query) {
                    ASSERT_TRUE(query.lastProgress().has_value());
                    EXPECT_EQ(query.lastProgress()->batch_id, 0);
                  })});
  EXPECT_TRUE(fs::exists(checkpoint_ + "/commits/0"));
}

TEST_F(MicroBatchExecutionTest, ProcessingTimeTriggerRunsOnIntervalBoundaries) {
  auto input = MemoryStream("a INT");
  auto clock = std::make_shared<ManualClock>(0);
  auto df = spark_->readStream().load(input);
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(1000);
  options.clock = clock;
  TestStream(df, {StartStream(options),
                  // The first trigger ran at time 0 and found nothing; the next is at 1000.
                  AssertOnQuery("waits for the next interval",
                                [&](StreamingQuery& query) {
                                  ASSERT_TRUE(clock->WaitForWaiter(std::chrono::seconds(10)));
                                  EXPECT_FALSE(query.lastProgress().has_value());
                                }),
                  AddData(input, {"[1]"}), CheckAnswer({}), AdvanceClock(1000), CheckAnswer({"[1]"}), AddData(input, {"[2]"}),
                  AdvanceClock(500), CheckAnswer({"[1]"}), AdvanceClock(500),
                  CheckAnswer({"[1]", "[2]"}),
                  AssertOnQuery("batch timestamps are trigger times", [](StreamingQuery& query) {
                    auto progress = query.recentProgress();
                    ASSERT_EQ(progress.size(), 2u);
                    EXPECT_EQ(progress[0].timestamp_ms, 1000);
                    EXPECT_EQ(progress[1].timestamp_ms, 2000);
                  })});
}

TEST_F(MicroBatchExecutionTest, OnceAndAvailableNowStopByThemselves) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  StartOptions once;
  once.trigger = Trigger::Once();
  StartOptions available_now;
  available_now.trigger = Trigger::AvailableNow();
  auto terminated = [](StreamingQuery& query) {
    ASSERT_TRUE(query.awaitTermination().ok());
    EXPECT_FALSE(query.isActive());
  };
  TestStream(df, {AddData(input, {"[1]"}), AddData(input, {"[2]"}), StartStream(once),
                  AssertOnQuery("once stops", terminated), CheckAnswer({"[1]", "[2]"}),
                  AddData(input, {"[3]"}), StartStream(available_now),
                  AssertOnQuery("availableNow stops", terminated),
                  CheckAnswer({"[1]", "[2]", "[3]"})});
}

// The batch memory pool keeps a batch's freed buffers for the next batch; a query with no
// next batch (stopped, or idle) must not hold them.
TEST_F(MicroBatchExecutionTest, AStoppedQueryLeavesNoBuffersKeptForANextBatch) {
  auto df = spark_->readStream()
                .format("rate-micro-batch")
                .option("rowsPerBatch", "200000")
                .load()
                .groupBy({(F::col("value") % 3).alias("key")})
                .agg({F::sum(F::col("value") * 2).alias("total")});
  StartOptions once;
  once.trigger = Trigger::Once();
  auto stopped_with_nothing_kept = [](StreamingQuery& query) {
    ASSERT_TRUE(query.awaitTermination().ok());
    EXPECT_EQ(BatchMemoryPool()->kept_bytes(), 0);
  };
  // The aggregation's inputs (200,000 rows of keys and doubled values) are freed within the
  // batch, and kept for a next one until the query stops.
  TestStream(df,
             {StartStream(once), AssertOnQuery("nothing kept", stopped_with_nothing_kept),
              CheckAnswer({"[0,13333266666]", "[1,13333400000]", "[2,13333133334]"})},
             "update");
}

}  // namespace
}  // namespace sluice::testing

namespace sluice::testing {
namespace {

TEST_F(MicroBatchExecutionTest, PurgesLogEntriesBeyondMinBatchesToRetain) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.minBatchesToRetain", "2").ok());
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1]"}), CheckAnswer({"[1]"}), AddData(input, {"[2]"}),
                  CheckAnswer({"[1]", "[2]"}), AddData(input, {"[3]"}),
                  CheckAnswer({"[1]", "[2]", "[3]"}), AddData(input, {"[4]"}),
                  CheckAnswer({"[1]", "[2]", "[3]", "[4]"}), StopStream()});
  for (const char* log : {"offsets", "commits"}) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(checkpoint_ + "/" + log)) {
      std::string name = entry.path().filename().string();
      if (name[0] != '.') names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"2", "3"})) << log;
  }
  // The retained entries are enough to resume.
  TestStream(df, {StartStream(), AddData(input, {"[5]"}),
                  CheckAnswer({"[1]", "[2]", "[3]", "[4]", "[5]"})});
}

TEST_F(MicroBatchExecutionTest, ExplainShowsThePlanOfTheQuery) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input).filter(F::col("a") > 1);
  TestStream(df, {AssertOnQuery("explain", [&](StreamingQuery& query) {
    std::string text = query.explainString();
    EXPECT_NE(text.find("Filter"), std::string::npos) << text;
    EXPECT_NE(text.find(input->Describe()), std::string::npos) << text;
  })});
}

}  // namespace
}  // namespace sluice::testing
