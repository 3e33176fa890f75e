// dropDuplicates and dropDuplicatesWithinWatermark on streams: each key's first row emitted
// once across batches and restarts, late rows dropped, keys evicted by the watermark. The
// inputs and expected rows are those of Spark's StreamingDeduplicationSuite.
#include <fstream>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/state/state_file_format.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class StreamingDeduplicationTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "5").ok());
  }

  StreamAction AssertStateRows(int64_t total, int64_t updated, int64_t dropped = -1) {
    return AssertOnQuery("state rows", [=](StreamingQuery& query) {
      auto progress = query.lastProgress();
      ASSERT_TRUE(progress.has_value());
      ASSERT_EQ(progress->state_operators.size(), 1u);
      const auto& op = progress->state_operators[0];
      EXPECT_EQ(op.num_rows_total, total);
      EXPECT_EQ(op.num_rows_updated, updated);
      if (dropped >= 0) {
        EXPECT_EQ(op.num_rows_dropped_by_watermark, dropped);
      }
    });
  }
};

TEST_F(StreamingDeduplicationTest, AllColumns) {
  auto input = MemoryStream("value STRING");
  auto df = spark_->readStream().load(input).dropDuplicates();
  TestStream(df, {AddData(input, {"[\"a\"]"}), CheckLastBatch({"[\"a\"]"}),
                  AssertStateRows(1, 1, 0), AddData(input, {"[\"a\"]"}), CheckLastBatch({}),
                  AssertStateRows(1, 0, 0), StopStream(), StartStream(),
                  AddData(input, {"[\"b\", \"a\", \"b\"]"}), CheckLastBatch({"[\"b\"]"}),
                  AssertStateRows(2, 1, 0)});
}

TEST_F(StreamingDeduplicationTest, SomeColumnsKeepTheFirstRowOfEachKey) {
  auto input = MemoryStream("k STRING, v INT");
  auto df = spark_->readStream().load(input).dropDuplicates({"k"});
  TestStream(df, {AddData(input, {"[\"a\"]", "[1]"}), CheckLastBatch({"[\"a\",1]"}),
                  AddData(input, {"[\"a\"]", "[2]"}), CheckLastBatch({}),
                  AddData(input, {"[\"b\", \"b\"]", "[1, 2]"}), CheckLastBatch({"[\"b\",1]"})});
}

TEST_F(StreamingDeduplicationTest, WithTheEventTimeInTheKeyEvictsBelowTheWatermark) {
  auto input = MemoryStream("value INT");
  auto df = spark_->readStream()
                .load(input)
                .withColumn("eventTime", F::timestamp_seconds(F::col("value")))
                .withWatermark("eventTime", "10 seconds")
                .dropDuplicates()
                .select({F::col("eventTime").cast("long")});
  std::string repeated;
  for (int copy = 0; copy < 5; ++copy) {
    for (int second = 10; second <= 15; ++second) {
      repeated += (repeated.empty() ? "" : ", ") + std::to_string(second);
    }
  }
  TestStream(df, {AddData(input, {"[" + repeated + "]"}),
                  CheckAnswer({"[10]", "[11]", "[12]", "[13]", "[14]", "[15]"}),
                  // The watermark moves to 5 s; nothing is evicted yet.
                  AddData(input, {"[25]"}), CheckNewAnswer({"[25]"}),
                  // The watermark is 15 s: rows up to 15 s left the state.
                  AssertStateRows(1, 0, 0), AddData(input, {"[10]"}), CheckNewAnswer({}),
                  AssertStateRows(1, 0, 1), AddData(input, {"[45]"}), CheckNewAnswer({"[45]"}),
                  AssertStateRows(1, 0, 0)});
}

TEST_F(StreamingDeduplicationTest, WithinWatermarkForgetsAKeyOnceItsEventTimePlusDelayPasses) {
  auto input = MemoryStream("k STRING, t INT");
  auto df = spark_->readStream()
                .load(input)
                .withColumn("eventTime", F::timestamp_seconds(F::col("t")))
                .withWatermark("eventTime", "2 seconds")
                .dropDuplicatesWithinWatermark({"k"})
                .select({F::col("k"), F::col("eventTime").cast("long")});
  TestStream(df, {AddData(input, {"[\"a\"]", "[17]"}), CheckNewAnswer({"[\"a\",17]"}),
                  // Watermark 15 s: "a" expires at 19 s.
                  AddData(input, {"[\"a\"]", "[16]"}), CheckNewAnswer({}),
                  // 13 s is behind the watermark.
                  AddData(input, {"[\"a\"]", "[13]"}), CheckNewAnswer({}),
                  AssertStateRows(1, 0, 1),
                  // Watermark 20 s: "a" expired.
                  AddData(input, {"[\"b\", \"c\"]", "[22, 21]"}),
                  CheckNewAnswer({"[\"b\",22]", "[\"c\",21]"}), AssertStateRows(2, 0),
                  AddData(input, {"[\"a\"]", "[21]"}), CheckNewAnswer({"[\"a\",21]"}),
                  AssertStateRows(3, 1)});
}

// A checkpoint written before the expiry was kept in the row codec's layout held its 8 bytes
// alone: rewrite the state so, and the key must still expire after a restart.
TEST_F(StreamingDeduplicationTest, WithinWatermarkReadsTheExpiryOfEarlierCheckpoints) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "1").ok());
  auto input = MemoryStream("k STRING, t INT");
  auto df = spark_->readStream()
                .load(input)
                .withColumn("eventTime", F::timestamp_seconds(F::col("t")))
                .withWatermark("eventTime", "2 seconds")
                .dropDuplicatesWithinWatermark({"k"})
                .select({F::col("k"), F::col("eventTime").cast("long")});
  auto to_old_layout = AssertOnQuery("old layout", [this](StreamingQuery&) {
    const std::string path = checkpoint_ + "/state/0/0/1.delta";
    auto contents = checkpoint::ReadWholeFile(path);
    ASSERT_TRUE(contents.ok()) << contents.status().ToString();
    state::StateFileWriter writer(state::StateFileKind::kDelta, 1);
    ASSERT_TRUE(state::ReadStateFile(*contents, path, "dedup", state::StateFileKind::kDelta, 1,
                                     [&](std::string_view key,
                                         std::optional<std::string_view> value) {
                                       ASSERT_TRUE(value && value->size() == 9);
                                       writer.Put(key, value->substr(1));
                                     })
                    .ok());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << writer.Finish();
  });
  TestStream(df, {AddData(input, {"[\"a\"]", "[17]"}), CheckNewAnswer({"[\"a\",17]"}),
                  StopStream(), to_old_layout, StartStream(),
                  // Watermark 20 s: "a" (expiring at 19 s) is forgotten.
                  AddData(input, {"[\"b\"]", "[22]"}), CheckNewAnswer({"[\"b\",22]"}),
                  AddData(input, {"[\"a\"]", "[21]"}), CheckNewAnswer({"[\"a\",21]"})});
}

TEST_F(StreamingDeduplicationTest, WithinWatermarkNeedsAWatermark) {
  auto input = MemoryStream("k STRING");
  auto df = spark_->readStream().load(input).dropDuplicatesWithinWatermark({"k"});
  auto started = df.writeStream().format("memory").queryName("no_watermark").start();
  ASSERT_FALSE(started.ok());
  EXPECT_TRUE(HasErrorClass(started.status(), "_LEGACY_ERROR_TEMP_3102"))
      << started.status().ToString();
}

}  // namespace
}  // namespace sluice::testing
