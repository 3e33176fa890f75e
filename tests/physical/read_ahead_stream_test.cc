// Stateless operators run ahead of what consumes them, on another thread; only plans that
// keep nothing across batches may.
#include "sluice/physical/read_ahead_stream.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>

#include "api/relational_test_support.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

namespace F = functions;

class ReadAheadStreamTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  DataFrame Table() {
    auto session = SparkSession::builder().getOrCreate().ValueOrDie();
    auto arrays = arrow::json::ArrayFromJSONString(
                      arrow::list(arrow::field("element", arrow::int32())), "[[1, 2], null]")
                      .ValueOrDie();
    return session->createDataFrame(testing::MakeTable(
        {{"id", testing::Ints({1, 2})}, {"name", testing::Strings({"a", "b"})},
         {"arr", arrays}}));
  }
};

TEST_F(ReadAheadStreamTest, StatelessPlansMayRunAheadAndNothingThatKeepsRowsAcrossBatches) {
  DataFrame table = Table();
  auto may = [](const DataFrame& df) {
    EXPECT_TRUE(df.ok()) << df.status().ToString();
    return physical::MayRunAhead(*df.plan());
  };
  EXPECT_TRUE(may(table));
  EXPECT_TRUE(may(table.where(F::col("id") > 1).select({F::col("name"), F::explode("arr")})));
  EXPECT_TRUE(may(table.union_(table.where(F::col("id") > 1)).alias("t")));
  EXPECT_FALSE(may(table.groupBy({F::col("name")}).count()));
  EXPECT_FALSE(may(table.groupBy({F::col("name")}).count().where(F::col("count") > 1)));
  EXPECT_FALSE(may(table.union_(table.dropDuplicates())));
  EXPECT_FALSE(may(table.join(table.select({F::col("id").alias("other")}),
                              F::col("id") == F::col("other"))));
  EXPECT_FALSE(may(table.orderBy({F::col("id")})));
  EXPECT_FALSE(may(table.limit(1)));
}

/// Yields `count` batches, recording on which threads it was read and how often.
class RecordingStream final : public physical::BatchStream {
 public:
  explicit RecordingStream(int count)
      : schema_(arrow::schema({arrow::field("id", arrow::int32())})), count_(count) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    std::lock_guard lock(mutex_);
    threads_.push_back(std::this_thread::get_id());
    if (next_ == count_) return nullptr;
    return testing::MakeBatch(schema_, {"[" + std::to_string(next_++) + "]"});
  }
  std::vector<std::thread::id> threads() {
    std::lock_guard lock(mutex_);
    return threads_;
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  const int count_;
  std::mutex mutex_;
  int next_ = 0;
  std::vector<std::thread::id> threads_;
};

TEST_F(ReadAheadStreamTest, ReadsTheNextBatchOnAnotherThreadAndKeepsTheOrder) {
  auto input = std::make_unique<RecordingStream>(3);
  RecordingStream* recording = input.get();
  auto stream = physical::RunAhead(std::move(input));
  EXPECT_TRUE(stream->schema()->Equals(*recording->schema()));
  auto first = stream->Next().ValueOrDie();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->column(0)->ToString(), testing::Ints({0})->ToString());
  // The consumer holds batch 0; batch 1 is read meanwhile (and maybe more).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (recording->threads().size() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_GE(recording->threads().size(), 2u);
  for (int expected = 1; expected < 3; ++expected) {
    auto batch = stream->Next().ValueOrDie();
    ASSERT_NE(batch, nullptr);
    EXPECT_EQ(batch->column(0)->ToString(), testing::Ints({expected})->ToString());
  }
  EXPECT_EQ(stream->Next().ValueOrDie(), nullptr);
  EXPECT_EQ(stream->Next().ValueOrDie(), nullptr);
  const auto threads = recording->threads();
  EXPECT_EQ(threads.size(), 4u);  // three batches and the end, each read once
  for (std::thread::id thread : threads) EXPECT_NE(thread, std::this_thread::get_id());
}

}  // namespace
}  // namespace sluice
