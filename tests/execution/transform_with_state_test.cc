// transformWithState on streams: value, list and map state per key across batches and
// restarts, timers in event and processing time, time to live, crashes at every step of the
// batch loop, and the same processor in a batch query. The cases follow Spark's
// TransformWithStateSuite.
#include <cstdio>
#include <tuple>

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
using plan::StateRow;

std::shared_ptr<arrow::Schema> LongSchema(const std::string& name) {
  return arrow::schema({arrow::field(name, arrow::int64())});
}

StateRow LongRow(const std::string& name, int64_t value) {
  return std::make_shared<arrow::StructScalar>(
      arrow::ScalarVector{std::make_shared<arrow::Int64Scalar>(value)},
      std::make_shared<arrow::StructType>(LongSchema(name)->fields()));
}

int64_t LongOf(const StateRow& row) {
  return row == nullptr ? 0 : std::static_pointer_cast<arrow::Int64Scalar>(row->value[0])->value;
}

std::string KeyOf(const StateRow& key) {
  return std::static_pointer_cast<arrow::StringScalar>(key->value[0])->ToString();
}

std::shared_ptr<arrow::Schema> OutputSchema() {
  return arrow::schema({arrow::field("k", arrow::utf8()), arrow::field("a", arrow::int64()),
                        arrow::field("b", arrow::int64()), arrow::field("c", arrow::int64())});
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> Out(const std::string& key, int64_t a,
                                                       int64_t b, int64_t c) {
  arrow::StringBuilder keys;
  arrow::Int64Builder as, bs, cs;
  ARROW_RETURN_NOT_OK(keys.Append(key));
  ARROW_RETURN_NOT_OK(as.Append(a));
  ARROW_RETURN_NOT_OK(bs.Append(b));
  ARROW_RETURN_NOT_OK(cs.Append(c));
  arrow::ArrayVector columns(4);
  ARROW_RETURN_NOT_OK(keys.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(as.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(bs.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(cs.Finish(&columns[3]));
  return arrow::RecordBatch::Make(OutputSchema(), 1, columns);
}

// Per key: the number of rows (value state), every v seen (list state) and how often each v
// was seen (map state); emits (k, rows, values kept, distinct values).
class Tally final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    ARROW_ASSIGN_OR_RAISE(count_, handle.getValueState("count", LongSchema("count")));
    ARROW_ASSIGN_OR_RAISE(seen_, handle.getListState("seen", LongSchema("v")));
    ARROW_ASSIGN_OR_RAISE(per_value_,
                          handle.getMapState("perValue", LongSchema("v"), LongSchema("n")));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues&) override {
    ARROW_ASSIGN_OR_RAISE(auto count, count_->get());
    const int64_t total = LongOf(count) + rows->num_rows();
    ARROW_RETURN_NOT_OK(count_->update(LongRow("count", total)));
    const auto& values = static_cast<const arrow::Int32Array&>(*rows->GetColumnByName("v"));
    for (int64_t i = 0; i < values.length(); ++i) {
      auto value = LongRow("v", values.Value(i));
      ARROW_RETURN_NOT_OK(seen_->appendValue(value));
      ARROW_ASSIGN_OR_RAISE(auto n, per_value_->getValue(value));
      ARROW_RETURN_NOT_OK(per_value_->updateValue(value, LongRow("n", LongOf(n) + 1)));
    }
    ARROW_ASSIGN_OR_RAISE(auto seen, seen_->get());
    ARROW_ASSIGN_OR_RAISE(auto entries, per_value_->iterator());
    if (total >= 4) {  // enough: forget the key
      ARROW_RETURN_NOT_OK(count_->clear());
      ARROW_RETURN_NOT_OK(seen_->clear());
      ARROW_RETURN_NOT_OK(per_value_->clear());
    }
    return Out(KeyOf(key), total, static_cast<int64_t>(seen.size()),
               static_cast<int64_t>(entries.size()));
  }

 private:
  std::shared_ptr<plan::ValueState> count_;
  std::shared_ptr<plan::ListState> seen_;
  std::shared_ptr<plan::MapState> per_value_;
};

class TransformWithStateTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "3").ok());
  }
};

TEST_F(TransformWithStateTest, KeepsValueListAndMapStateAcrossBatchesAndRestarts) {
  auto input = MemoryStream("k STRING, v INT");
  auto tallies = spark_->readStream().load(input).groupBy({F::col("k")}).transformWithState(
      std::make_shared<Tally>(), OutputSchema(), "update");
  TestStream(tallies,
             {AddData(input, {"[\"a\", \"a\", \"b\"]", "[1, 2, 1]"}),
              CheckLastBatch({"[\"a\",2,2,2]", "[\"b\",1,1,1]"}), StopStream(), StartStream(),
              AddData(input, {"[\"a\", \"b\"]", "[2, 5]"}),
              CheckLastBatch({"[\"a\",3,3,2]", "[\"b\",2,2,2]"}),
              AddData(input, {"[\"a\"]", "[7]"}), CheckLastBatch({"[\"a\",4,4,3]"}),
              // a was forgotten at 4 rows.
              AddData(input, {"[\"a\"]", "[7]"}), CheckLastBatch({"[\"a\",1,1,1]"})},
             "update");
}

// Counts a key's rows until its event-time timer, 10 s after its latest row, expires.
class EventTimeSessions final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    handle_ = &handle;
    ARROW_ASSIGN_OR_RAISE(count_, handle.getValueState("count", LongSchema("count")));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow&, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues&) override {
    ARROW_ASSIGN_OR_RAISE(auto count, count_->get());
    ARROW_RETURN_NOT_OK(count_->update(LongRow("count", LongOf(count) + rows->num_rows())));
    const auto& times = static_cast<const arrow::TimestampArray&>(*rows->GetColumnByName("ts"));
    int64_t latest_ms = 0;
    for (int64_t i = 0; i < times.length(); ++i) {
      latest_ms = std::max(latest_ms, times.Value(i) / 1000);
    }
    ARROW_ASSIGN_OR_RAISE(auto timers, handle_->listTimers());
    for (int64_t timer : timers) ARROW_RETURN_NOT_OK(handle_->deleteTimer(timer));
    ARROW_RETURN_NOT_OK(handle_->registerTimer(latest_ms + 10'000));
    return nullptr;
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleExpiredTimer(
      const StateRow& key, const plan::TimerValues& values,
      const plan::ExpiredTimerInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(auto count, count_->get());
    ARROW_RETURN_NOT_OK(count_->clear());
    return Out(KeyOf(key), LongOf(count), info.expiry_time_ms / 1000,
               values.current_watermark_ms.value_or(-1) / 1000);
  }

 private:
  plan::StatefulProcessorHandle* handle_ = nullptr;
  std::shared_ptr<plan::ValueState> count_;
};

DataFrame Sessions(const DataFrame& input) {
  return input.withColumn("ts", F::timestamp_seconds(F::col("t")))
      .withWatermark("ts", "10 seconds")
      .groupBy({F::col("k")})
      .transformWithState(std::make_shared<EventTimeSessions>(), OutputSchema(), "append",
                          "EventTime");
}

TEST_F(TransformWithStateTest, EventTimeTimersExpireOnceTheWatermarkPassesThem) {
  auto input = MemoryStream("k STRING, t INT");
  TestStream(Sessions(spark_->readStream().load(input)),
             {AddData(input, {"[\"a\", \"a\", \"b\"]", "[10, 12, 15]"}), CheckNewAnswer({}),
              // The watermark reaches 30 s: a's timer (22 s) and b's (25 s) expire.
              AddData(input, {"[\"c\"]", "[40]"}),
              CheckNewAnswer({"[\"a\",2,22,30]", "[\"b\",1,25,30]"}),
              // A row at 5 s is late and dropped.
              AddData(input, {"[\"d\", \"c\"]", "[5, 45]"}), CheckNewAnswer({}),
              AddData(input, {"[\"e\"]", "[100]"}), CheckNewAnswer({"[\"c\",2,55,90]"})});
}


class TransformWithStateCrashTest
    : public TransformWithStateTest,
      public ::testing::WithParamInterface<std::tuple<execution::CrashPoint, int64_t>> {};

TEST_P(TransformWithStateCrashTest, RestartGivesTheOutputOfAnUninterruptedRun) {
  auto [point, batch] = GetParam();
  auto input = MemoryStream("k STRING, t INT");
  StartOptions crashing;
  crashing.crash_hook = KillOnceAt(point, batch);
  auto run_or_die = AssertOnQuery("runs or dies",
                                  [](StreamingQuery& query) { (void)query.processAllAvailable(); });
  // The watermark a timer fires at depends on how a crash regroups the input into batches;
  // the rows and the timers do not.
  TestStream(Sessions(spark_->readStream().load(input)).drop({"c"}),
             {StartStream(crashing), AddData(input, {"[\"a\", \"a\", \"b\"]", "[10, 12, 15]"}),
              run_or_die, AddData(input, {"[\"c\"]", "[40]"}), run_or_die, StopStream(),
              StartStream(), AddData(input, {"[\"e\"]", "[100]"}),
              CheckAnswer({"[\"a\",2,22]", "[\"b\",1,25]", "[\"c\",1,50]"})});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCrashPoint, TransformWithStateCrashTest,
    ::testing::Combine(::testing::Values(execution::CrashPoint::kBeforeOffsetsWrite,
                                         execution::CrashPoint::kAfterOffsetsWrite,
                                         execution::CrashPoint::kBeforeAddBatch,
                                         execution::CrashPoint::kAfterAddBatch,
                                         execution::CrashPoint::kAfterCommit),
                       ::testing::Values(int64_t{0}, int64_t{2}, int64_t{3})));

// Remembers the latest v of a key for 5 s of processing time, and reports it with a timer.
class Remember final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    handle_ = &handle;
    ARROW_ASSIGN_OR_RAISE(last_, handle.getValueState("last", LongSchema("v"), 5'000));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues& values) override {
    ARROW_ASSIGN_OR_RAISE(auto before, last_->get());
    const auto& v = static_cast<const arrow::Int32Array&>(*rows->GetColumnByName("v"));
    ARROW_RETURN_NOT_OK(last_->update(LongRow("v", v.Value(v.length() - 1))));
    ARROW_RETURN_NOT_OK(handle_->registerTimer(values.current_processing_time_ms + 3'000));
    return Out(KeyOf(key), before == nullptr ? -1 : LongOf(before), 0, 0);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleExpiredTimer(
      const StateRow& key, const plan::TimerValues&, const plan::ExpiredTimerInfo&) override {
    ARROW_ASSIGN_OR_RAISE(auto last, last_->get());
    return Out(KeyOf(key), last == nullptr ? -1 : LongOf(last), 1, 0);
  }

 private:
  plan::StatefulProcessorHandle* handle_ = nullptr;
  std::shared_ptr<plan::ValueState> last_;
};

/// Remember over `input`, keyed by k.
DataFrame Remembered(SparkSession& spark, const std::shared_ptr<sources::MemoryStream>& input,
                     const std::string& time_mode) {
  return spark.readStream().load(input).groupBy({F::col("k")}).transformWithState(
      std::make_shared<Remember>(), OutputSchema(), "update", time_mode);
}

/// A processing-time trigger every second of a manual clock that starts at 1 s.
StartOptions EverySecondOfAManualClock() {
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(1'000);
  options.clock = std::make_shared<ManualClock>(1'000);
  return options;
}

TEST_F(TransformWithStateTest, ProcessingTimeTimersAndTimeToLive) {
  auto input = MemoryStream("k STRING, v INT");
  const StartOptions options = EverySecondOfAManualClock();
  auto remembered = Remembered(*spark_, input, "ProcessingTime");
  TestStream(remembered,
             {StartStream(options), AddData(input, {"[\"a\"]", "[7]"}), AdvanceClock(1'000),
              CheckNewAnswer({"[\"a\",-1,0,0]"}),
              // The timer set at 2 s fires at 5 s; the value lives until 7 s.
              AdvanceClock(3'000), CheckNewAnswer({"[\"a\",7,1,0]"}),
              AdvanceClock(3'000), AddData(input, {"[\"a\"]", "[8]"}), AdvanceClock(1'000),
              CheckNewAnswer({"[\"a\",-1,0,0]"})},
             "update");
}

TEST_F(TransformWithStateTest, StateReadersReadItsVariablesAndTimers) {
  auto input = MemoryStream("k STRING, v INT");
  const StartOptions options = EverySecondOfAManualClock();
  auto remembered = Remembered(*spark_, input, "ProcessingTime");
  TestStream(remembered,
             {StartStream(options), AddData(input, {"[\"a\"]", "[7]"}), AdvanceClock(1'000),
              CheckNewAnswer({"[\"a\",-1,0,0]"})},
             "update");
  auto read = [&](std::vector<std::pair<std::string, std::string>> settings) {
    DataFrameReader reader = spark_->read();
    reader.format("statestore");
    for (const auto& [key, value] : settings) reader.option(key, value);
    return reader.load(checkpoint_).collect();
  };

  // Spark's operator properties: the modes and the variables, the timers last.
  DataFrameReader metadata = spark_->read();
  metadata.format("state-metadata");
  auto described = metadata.load(checkpoint_).drop({"maxBatchId"}).collect();
  ASSERT_TRUE(described.ok()) << described.status().ToString();
  EXPECT_EQ(RowsOf(**described),
            (std::vector<std::string>{
                R"([0,"transformWithStateExec","default",3,0,"{"timeMode":"ProcessingTime",)"
                R"("outputMode":"Update","stateVariables":[{"stateName":"last",)"
                R"("stateVariableType":"ValueState","ttlEnabled":true},)"
                R"({"stateName":"$procTimers_keyToTimestamp","stateVariableType":"TimerState",)"
                R"("ttlEnabled":false}]}"])"}));

  // A value with a time to live is the row and its expiry.
  auto value = read({{"stateVarName", "last"}});
  ASSERT_TRUE(value.ok()) << value.status().ToString();
  EXPECT_EQ((*value)->schema()->ToString(),
            "key: struct<k: string>\n"
            "value: struct<value: struct<v: int64>, ttlExpirationMs: int64 not null>\n"
            "partition_id: int32 not null");
  auto timers = read({{"readRegisteredTimers", "true"}});
  ASSERT_TRUE(timers.ok()) << timers.status().ToString();
  EXPECT_EQ((*timers)->schema()->ToString(),
            "key: struct<k: string>\nexpiration_timestamp_ms: int64\n"
            "partition_id: int32 not null");
  // The timer was set 3 s after the batch's time, the expiry 5 s after it (whether the batch
  // ran at 1 s or 2 s of the manual clock).
  ASSERT_EQ((*value)->num_rows(), 1);
  ASSERT_EQ((*timers)->num_rows(), 1);
  const std::string value_row = RowsOf(**value)[0];
  const std::string timer_row = RowsOf(**timers)[0];
  long long v = 0, expiry = 0, timer = 0;
  ASSERT_EQ(std::sscanf(value_row.c_str(), R"([["a"],[[%lld], %lld],2])", &v, &expiry), 2)
      << value_row;
  ASSERT_EQ(std::sscanf(timer_row.c_str(), R"([["a"],%lld,2])", &timer), 1) << timer_row;
  EXPECT_EQ(v, 7);
  EXPECT_EQ(expiry - timer, 2'000) << value_row << " " << timer_row;

  for (const auto& [settings, error_class, mentions] :
       std::vector<std::tuple<std::vector<std::pair<std::string, std::string>>, std::string,
                              std::string>>{
           {{}, "STDS_REQUIRED_OPTION_UNSPECIFIED", "'stateVarName' must be specified"},
           {{{"stateVarName", "nothing"}},
            "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE",
            "State variable nothing is not defined"},
           {{{"stateVarName", "last"}, {"readRegisteredTimers", "true"}},
            "STDS_CONFLICT_OPTIONS",
            "readRegisteredTimers"}}) {
    auto refused = read(settings);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(HasErrorClass(refused.status(), error_class)) << refused.status().ToString();
    EXPECT_NE(refused.status().message().find(mentions), std::string::npos)
        << refused.status().ToString();
  }
}

TEST_F(TransformWithStateTest, TimeToLiveNeedsProcessingTime) {
  auto input = MemoryStream("k STRING, v INT");
  auto remembered = Remembered(*spark_, input, "None");
  TestStream(remembered,
             {AddData(input, {"[\"a\"]", "[7]"}),
              ExpectFailure("STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL")},
             "update");
}

// Counts rows per key, starting from the counts of an initial state.
class CountFromInitialState final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    ARROW_ASSIGN_OR_RAISE(count_, handle.getValueState("count", LongSchema("count")));
    return arrow::Status::OK();
  }

  arrow::Status handleInitialState(const StateRow&, const std::shared_ptr<arrow::RecordBatch>& rows,
                                   const plan::TimerValues&) override {
    const auto& counts = static_cast<const arrow::Int64Array&>(*rows->GetColumnByName("n"));
    int64_t total = 0;
    for (int64_t i = 0; i < counts.length(); ++i) total += counts.Value(i);
    return count_->update(LongRow("count", total));
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues&) override {
    ARROW_ASSIGN_OR_RAISE(auto count, count_->get());
    const int64_t total = LongOf(count) + rows->num_rows();
    ARROW_RETURN_NOT_OK(count_->update(LongRow("count", total)));
    return Out(KeyOf(key), total, 0, 0);
  }

 private:
  std::shared_ptr<plan::ValueState> count_;
};

TEST_F(TransformWithStateTest, AnInitialStateSeedsTheFirstBatchOnly) {
  auto input = MemoryStream("k STRING");
  auto initial =
      spark_->sql("SELECT * FROM VALUES ('a', 10L), ('b', 20L), ('b', 1L) AS t(key, n)");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).transformWithState(
      std::make_shared<CountFromInitialState>(), OutputSchema(), "update", "None",
      initial.groupBy({F::col("key")}));
  TestStream(counts,
             {AddData(input, {"[\"a\", \"c\"]"}),
              CheckLastBatch({"[\"a\",11,0,0]", "[\"c\",1,0,0]"}), StopStream(),
              StartStream(), AddData(input, {"[\"a\", \"b\"]"}),
              CheckLastBatch({"[\"a\",12,0,0]", "[\"b\",22,0,0]"})},
             "update");
}

TEST_F(TransformWithStateTest, RunsOncePerKeyInABatchQuery) {
  auto rows = spark_->sql("SELECT * FROM VALUES ('a', 1), ('a', 2), ('b', 3) AS t(k, v)")
                  .groupBy({F::col("k")})
                  .transformWithState(std::make_shared<Tally>(), OutputSchema(), "update")
                  .collect();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  auto found = RowsOf(**rows);
  std::sort(found.begin(), found.end());
  EXPECT_EQ(found, (std::vector<std::string>{"[\"a\",2,2,2]", "[\"b\",1,1,1]"}));
}

}  // namespace
}  // namespace sluice::testing
