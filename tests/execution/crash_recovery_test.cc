// A query killed between any two steps of the batch loop and restarted produces exactly the
// output of an uninterrupted run: nothing lost, nothing written twice.
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class CrashRecoveryTest : public StreamTest,
                          public ::testing::WithParamInterface<execution::CrashPoint> {};


TEST_P(CrashRecoveryTest, MemorySinkSeesEveryRowOnce) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input).select({(F::col("a") + 100).alias("b")});
  StartOptions crashing;
  crashing.crash_hook = KillOnceAt(GetParam(), 1);
  TestStream(df, {StartStream(crashing), AddData(input, {"[1, 2]"}), CheckAnswer({"[101]", "[102]"}),
                  AddData(input, {"[3]"}),
                  AssertOnQuery("killed in batch 1",
                                [](StreamingQuery& query) {
                                  auto status = query.awaitTermination();
                                  EXPECT_TRUE(status.IsCancelled()) << status.ToString();
                                }),
                  StartStream(), AddData(input, {"[4]"}),
                  CheckAnswer({"[101]", "[102]", "[103]", "[104]"})});
}

TEST_P(CrashRecoveryTest, ForeachBatchSeesTheSameBatchesAsAnUninterruptedRun) {
  auto input = sources::MemoryStream::Make(Table("a INT", {"[]"})->schema());
  auto df = spark_->readStream().load(input);
  std::mutex mutex;
  // What an idempotent foreachBatch writes: the rows of each batch id (a re-run replaces).
  std::map<int64_t, int64_t> rows_by_batch;
  std::map<int64_t, int> calls_by_batch;
  auto start = [&](execution::CrashHook hook) {
    return df.writeStream()
        .foreachBatch([&](const DataFrame& batch, int64_t id) -> arrow::Status {
          ARROW_ASSIGN_OR_RAISE(int64_t count, batch.count());
          std::lock_guard<std::mutex> lock(mutex);
          rows_by_batch[id] = count;
          ++calls_by_batch[id];
          return arrow::Status::OK();
        })
        .option("checkpointLocation", checkpoint_)
        .crashHook(std::move(hook))
        .start();
  };
  ASSERT_TRUE(input->AddData(Table("a INT", {"[1, 2]"})).ok());
  auto query = start(KillOnceAt(GetParam(), 1));
  ASSERT_TRUE(query.ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE(input->AddData(Table("a INT", {"[3, 4, 5]"})).ok());
  EXPECT_TRUE((*query)->awaitTermination().IsCancelled());
  query = start(nullptr);
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  std::map<int64_t, int64_t> expected{{0, 2}, {1, 3}};
  EXPECT_EQ(rows_by_batch, expected);
  // Batch 1 is handed over again only when the kill came after the sink got it.
  int expected_calls = GetParam() == execution::CrashPoint::kAfterAddBatch ? 2 : 1;
  EXPECT_EQ(calls_by_batch[1], expected_calls);
}

INSTANTIATE_TEST_SUITE_P(EveryStep, CrashRecoveryTest,
                         ::testing::ValuesIn(execution::kAllCrashPoints),
                         CrashPointTestName);

}  // namespace
}  // namespace sluice::testing
