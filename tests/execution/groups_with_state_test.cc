// mapGroupsWithState / flatMapGroupsWithState on streams: the state a function keeps per key
// across batches and restarts, event-time and processing-time timeouts, the checks Spark
// makes, and the same calls in a batch query. The cases follow Spark's
// FlatMapGroupsWithStateSuite.
#include <gtest/gtest.h>

#include <arrow/builder.h>
#include <arrow/scalar.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;
using plan::GroupState;

std::shared_ptr<arrow::Schema> CountState() {
  return arrow::schema({arrow::field("count", arrow::int64())});
}

std::shared_ptr<arrow::StructScalar> CountRow(int64_t count) {
  return std::make_shared<arrow::StructScalar>(
      arrow::ScalarVector{std::make_shared<arrow::Int64Scalar>(count)},
      std::make_shared<arrow::StructType>(CountState()->fields()));
}

int64_t CountOf(const GroupState& state) {
  if (!state.exists()) return 0;
  return std::static_pointer_cast<arrow::Int64Scalar>(state.getOption()->value[0])->value;
}

std::string KeyOf(const std::shared_ptr<arrow::StructScalar>& key) {
  return std::static_pointer_cast<arrow::StringScalar>(key->value[0])->ToString();
}

/// Rows (key, count, state), one per call.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> Row(const std::string& key, int64_t count,
                                                       const std::string& what) {
  arrow::StringBuilder keys, whats;
  arrow::Int64Builder counts;
  ARROW_RETURN_NOT_OK(keys.Append(key));
  ARROW_RETURN_NOT_OK(counts.Append(count));
  ARROW_RETURN_NOT_OK(whats.Append(what));
  ARROW_ASSIGN_OR_RAISE(auto a, keys.Finish());
  ARROW_ASSIGN_OR_RAISE(auto b, counts.Finish());
  ARROW_ASSIGN_OR_RAISE(auto c, whats.Finish());
  return arrow::RecordBatch::Make(
      arrow::schema({arrow::field("k", arrow::utf8()), arrow::field("count", arrow::int64()),
                     arrow::field("what", arrow::utf8())}),
      1, {a, b, c});
}

std::shared_ptr<arrow::Schema> RowSchema() { return Row("", 0, "").ValueOrDie()->schema(); }

class GroupsWithStateTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "3").ok());
  }
};

// A running count per key: each call adds its rows and emits the new count.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> RunningCount(
    const std::shared_ptr<arrow::StructScalar>& key,
    const std::shared_ptr<arrow::RecordBatch>& rows, GroupState& state) {
  const int64_t count = CountOf(state) + rows->num_rows();
  if (count >= 3) {
    state.remove();  // counted out: start again
    return Row(KeyOf(key), count, "done");
  }
  ARROW_RETURN_NOT_OK(state.update(CountRow(count)));
  return Row(KeyOf(key), count, "counting");
}

TEST_F(GroupsWithStateTest, KeepsEachKeysStateAcrossBatchesAndRestarts) {
  auto input = MemoryStream("k STRING");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).flatMapGroupsWithState(
      RunningCount, RowSchema(), CountState(), "update");
  TestStream(counts,
             {AddData(input, {"[\"a\", \"b\", \"a\"]"}),
              CheckLastBatch({"[\"a\",2,\"counting\"]", "[\"b\",1,\"counting\"]"}),
              StopStream(), StartStream(), AddData(input, {"[\"a\", \"b\"]"}),
              CheckLastBatch({"[\"a\",3,\"done\"]", "[\"b\",2,\"counting\"]"}),
              AssertOnQuery("state rows", [](StreamingQuery& query) {
                const auto progress = query.lastProgress();
                ASSERT_TRUE(progress.has_value());
                const auto& op = progress->state_operators.at(0);
                EXPECT_EQ(op.operator_name, "flatMapGroupsWithState");
                EXPECT_EQ(op.num_rows_total, 1);
                EXPECT_EQ(op.num_rows_updated, 1);
                EXPECT_EQ(op.num_rows_removed, 1);
              }),
              AddData(input, {"[\"a\"]"}), CheckLastBatch({"[\"a\",1,\"counting\"]"})},
             "update");
}

TEST_F(GroupsWithStateTest, MapGroupsWithStateEmitsOneRowPerCall) {
  auto input = MemoryStream("k STRING");
  auto out_schema = arrow::schema({arrow::field("k", arrow::utf8()),
                                   arrow::field("count", arrow::int64())});
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).mapGroupsWithState(
      [&](const std::shared_ptr<arrow::StructScalar>& key,
          const std::shared_ptr<arrow::RecordBatch>& rows,
          GroupState& state) -> arrow::Result<std::shared_ptr<arrow::StructScalar>> {
        const int64_t count = CountOf(state) + rows->num_rows();
        ARROW_RETURN_NOT_OK(state.update(CountRow(count)));
        return std::make_shared<arrow::StructScalar>(
            arrow::ScalarVector{key->value[0],
                                              std::make_shared<arrow::Int64Scalar>(count)},
            std::make_shared<arrow::StructType>(out_schema->fields()));
      },
      out_schema, CountState());
  TestStream(counts,
             {AddData(input, {"[\"a\", \"a\"]"}), CheckLastBatch({"[\"a\",2]"}),
              AddData(input, {"[\"a\", \"b\"]"}), CheckLastBatch({"[\"a\",3]", "[\"b\",1]"})},
             "update");
}

// Sessions by event time: a key's rows extend its timeout to 10 s after its latest row; once
// the watermark passes it, the key is called without rows and emits its count.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> Session(
    const std::shared_ptr<arrow::StructScalar>& key,
    const std::shared_ptr<arrow::RecordBatch>& rows, GroupState& state) {
  if (state.hasTimedOut()) {
    const int64_t count = CountOf(state);
    state.remove();
    return Row(KeyOf(key), count, "expired");
  }
  const auto& times = static_cast<const arrow::TimestampArray&>(*rows->GetColumnByName("ts"));
  int64_t latest_ms = 0;
  for (int64_t i = 0; i < times.length(); ++i) latest_ms = std::max(latest_ms, times.Value(i) / 1000);
  ARROW_RETURN_NOT_OK(state.update(CountRow(CountOf(state) + rows->num_rows())));
  ARROW_RETURN_NOT_OK(state.setTimeoutTimestamp(latest_ms + 10'000));
  return nullptr;
}

TEST_F(GroupsWithStateTest, EventTimeTimeoutsFireOnceTheWatermarkPassesThem) {
  auto input = MemoryStream("k STRING, t INT");
  auto sessions = spark_->readStream()
                      .load(input)
                      .withColumn("ts", F::timestamp_seconds(F::col("t")))
                      .withWatermark("ts", "10 seconds")
                      .groupBy({F::col("k")})
                      .flatMapGroupsWithState(Session, RowSchema(), CountState(), "append",
                                              "EventTimeTimeout");
  TestStream(sessions,
             {AddData(input, {"[\"a\", \"a\", \"b\"]", "[10, 12, 15]"}), CheckNewAnswer({}),
              // The watermark reaches 30 s: a (timeout 22 s) and b (25 s) expire.
              AddData(input, {"[\"c\"]", "[40]"}),
              CheckNewAnswer({"[\"a\",2,\"expired\"]", "[\"b\",1,\"expired\"]"}),
              // A row at 5 s is late: dropped, nothing is called for d.
              AddData(input, {"[\"d\", \"c\"]", "[5, 45]"}), CheckNewAnswer({}),
              AssertOnQuery("late rows", [](StreamingQuery& query) {
                int64_t dropped = 0;
                for (const auto& progress : query.recentProgress()) {
                  for (const auto& op : progress.state_operators) {
                    dropped += op.num_rows_dropped_by_watermark;
                  }
                }
                EXPECT_EQ(dropped, 1);
              }),
              AddData(input, {"[\"e\"]", "[100]"}),
              CheckNewAnswer({"[\"c\",2,\"expired\"]"})});
}

TEST_F(GroupsWithStateTest, ProcessingTimeTimeoutsFireWithoutNewData) {
  auto input = MemoryStream("k STRING");
  auto clock = std::make_shared<ManualClock>(1'000);
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(1'000);
  options.clock = clock;
  auto idle = spark_->readStream().load(input).groupBy({F::col("k")}).flatMapGroupsWithState(
      [](const std::shared_ptr<arrow::StructScalar>& key,
         const std::shared_ptr<arrow::RecordBatch>& rows,
         GroupState& state) -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
        if (state.hasTimedOut()) {
          const int64_t count = CountOf(state);
          state.remove();
          return Row(KeyOf(key), count, "idle");
        }
        ARROW_RETURN_NOT_OK(state.update(CountRow(CountOf(state) + rows->num_rows())));
        ARROW_RETURN_NOT_OK(state.setTimeoutDuration("5 seconds"));
        return nullptr;
      },
      RowSchema(), CountState(), "update", "ProcessingTimeTimeout");
  TestStream(idle,
             {StartStream(options), AddData(input, {"[\"a\"]"}), AdvanceClock(1'000),
              CheckNewAnswer({}), AdvanceClock(3'000), CheckNewAnswer({}),
              // 6 s after the row: a timed out in a batch without data.
              AdvanceClock(3'000), CheckNewAnswer({"[\"a\",1,\"idle\"]"})},
             "update");
}


class GroupsWithStateCrashTest
    : public GroupsWithStateTest,
      public ::testing::WithParamInterface<std::tuple<execution::CrashPoint, int64_t>> {};

// Batches: 0 data, 1 no-data (the watermark moved to 5 s), 2 data, 3 no-data where a and b
// expire. A crash anywhere, then a restart, gives the output of an uninterrupted run.
TEST_P(GroupsWithStateCrashTest, RestartGivesTheOutputOfAnUninterruptedRun) {
  auto [point, batch] = GetParam();
  auto input = MemoryStream("k STRING, t INT");
  auto sessions = spark_->readStream()
                      .load(input)
                      .withColumn("ts", F::timestamp_seconds(F::col("t")))
                      .withWatermark("ts", "10 seconds")
                      .groupBy({F::col("k")})
                      .flatMapGroupsWithState(Session, RowSchema(), CountState(), "append",
                                              "EventTimeTimeout");
  StartOptions crashing;
  crashing.crash_hook = KillOnceAt(point, batch);
  auto run_or_die = AssertOnQuery("runs or dies",
                                  [](StreamingQuery& query) { (void)query.processAllAvailable(); });
  TestStream(sessions,
             {StartStream(crashing), AddData(input, {"[\"a\", \"a\", \"b\"]", "[10, 12, 15]"}),
              run_or_die, AddData(input, {"[\"c\"]", "[40]"}), run_or_die, StopStream(),
              StartStream(), AddData(input, {"[\"e\"]", "[100]"}),
              CheckAnswer({"[\"a\",2,\"expired\"]", "[\"b\",1,\"expired\"]",
                           "[\"c\",1,\"expired\"]"})});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCrashPoint, GroupsWithStateCrashTest,
    ::testing::Combine(::testing::Values(execution::CrashPoint::kBeforeOffsetsWrite,
                                         execution::CrashPoint::kAfterOffsetsWrite,
                                         execution::CrashPoint::kBeforeAddBatch,
                                         execution::CrashPoint::kAfterAddBatch,
                                         execution::CrashPoint::kAfterCommit),
                       ::testing::Values(int64_t{0}, int64_t{2}, int64_t{3})));

TEST_F(GroupsWithStateTest, AvailableNowEndsWithProcessingTimeTimeoutsPending) {
  auto input = MemoryStream("k STRING");
  StartOptions options;
  options.trigger = Trigger::AvailableNow();
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).flatMapGroupsWithState(
      [](const std::shared_ptr<arrow::StructScalar>& key,
         const std::shared_ptr<arrow::RecordBatch>& rows,
         GroupState& state) -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
        ARROW_RETURN_NOT_OK(state.update(CountRow(CountOf(state) + rows->num_rows())));
        ARROW_RETURN_NOT_OK(state.setTimeoutDuration(1'000));
        return Row(KeyOf(key), CountOf(state), "counting");
      },
      RowSchema(), CountState(), "update", "ProcessingTimeTimeout");
  TestStream(counts,
             {AddData(input, {"[\"a\"]"}), StartStream(options),
              AssertOnQuery("ends", [](StreamingQuery& query) {
                EXPECT_TRUE(query.awaitTermination().ok());
                EXPECT_FALSE(query.isActive());
              }),
              CheckAnswer({"[\"a\",1,\"counting\"]"})},
             "update");
}

TEST_F(GroupsWithStateTest, StateReadsBackInSparksLayout) {
  auto input = MemoryStream("k STRING");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).flatMapGroupsWithState(
      RunningCount, RowSchema(), CountState(), "update");
  TestStream(counts, {AddData(input, {"[\"a\", \"b\", \"b\"]"}),
                      CheckLastBatch({"[\"a\",1,\"counting\"]", "[\"b\",2,\"counting\"]"})},
             "update");
  DataFrameReader reader = spark_->read();
  reader.format("statestore");
  auto state = reader.load(checkpoint_).drop({"partition_id"}).collect();
  ASSERT_TRUE(state.ok()) << state.status().ToString();
  auto rows = RowsOf(**state);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"[[\"a\"],[[1], -1]]", "[[\"b\"],[[2], -1]]"}));
  EXPECT_EQ((*state)->schema()->field(1)->type()->ToString(),
            "struct<groupState: struct<count: int64>, timeoutTimestamp: int64 not null>");
}

TEST_F(GroupsWithStateTest, RunsOncePerKeyInABatchQuery) {
  auto table = spark_->range(0, 5).withColumn("k", F::col("id") % F::lit(2));
  auto counts = table.groupBy({F::col("k").cast("string").alias("k")})
                    .flatMapGroupsWithState(RunningCount, RowSchema(), CountState(), "update")
                    .collect();
  ASSERT_TRUE(counts.ok()) << counts.status().ToString();
  auto rows = RowsOf(**counts);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"[\"0\",3,\"done\"]", "[\"1\",2,\"counting\"]"}));
}

TEST_F(GroupsWithStateTest, RefusesWhatSparkRefuses) {
  auto input = MemoryStream("k STRING, t INT");
  auto df = spark_->readStream().load(input);
  auto start = [&](const DataFrame& query, const std::string& mode) {
    return query.writeStream().format("memory").queryName("refused").outputMode(mode).start();
  };
  auto map = df.groupBy({F::col("k")}).mapGroupsWithState(
      [](const auto&, const auto&, GroupState&)
          -> arrow::Result<std::shared_ptr<arrow::StructScalar>> { return nullptr; },
      RowSchema(), CountState());
  auto refused = start(map, "append");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "mapGroupsWithState is not supported with Append output mode"),
            std::string::npos)
      << refused.status().ToString();
  auto update_in_append = df.groupBy({F::col("k")}).flatMapGroupsWithState(
      RunningCount, RowSchema(), CountState(), "update");
  refused = start(update_in_append, "append");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "flatMapGroupsWithState in update mode is not supported with Append output mode"),
            std::string::npos)
      << refused.status().ToString();
  auto no_watermark = df.groupBy({F::col("k")}).flatMapGroupsWithState(
      RunningCount, RowSchema(), CountState(), "append", "EventTimeTimeout");
  refused = start(no_watermark, "append");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("Event-time timeout not supported without watermark"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_FALSE(df.groupBy({F::col("k")})
                   .flatMapGroupsWithState(RunningCount, RowSchema(), CountState(), "append",
                                           "Sometimes")
                   .ok());
}

TEST(GroupStateTest, ChecksItsArguments) {
  GroupState none(nullptr, false, plan::GroupStateTimeout::kNone, 1'000, std::nullopt);
  EXPECT_FALSE(none.get().ok());
  EXPECT_FALSE(none.update(nullptr).ok());
  EXPECT_NE(none.setTimeoutDuration(1'000).message().find("processing time timeout"),
            std::string::npos);
  EXPECT_FALSE(none.getCurrentWatermarkMs().ok());
  GroupState processing(nullptr, false, plan::GroupStateTimeout::kProcessingTime, 1'000,
                        std::nullopt);
  EXPECT_FALSE(processing.setTimeoutDuration(0).ok());
  ASSERT_TRUE(processing.setTimeoutDuration("2 seconds").ok());
  EXPECT_EQ(processing.timeout_timestamp_ms(), 3'000);
  GroupState event(nullptr, false, plan::GroupStateTimeout::kEventTime, 1'000, 50'000);
  EXPECT_NE(event.setTimeoutTimestamp(40'000).message().find("cannot be earlier than the current watermark"),
            std::string::npos);
  ASSERT_TRUE(event.setTimeoutTimestamp(60'000).ok());
  EXPECT_EQ(*event.getCurrentWatermarkMs(), 50'000);
}

}  // namespace
}  // namespace sluice::testing
