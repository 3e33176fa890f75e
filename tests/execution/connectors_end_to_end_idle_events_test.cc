// The idle events a listener receives from a query whose processingTime triggers find no data,
// on a manual clock: at most one per spark.sql.streaming.noDataProgressEventInterval.
//
// The rule is Spark 4.0.1's (ProgressReporter.updateIdleness and ProgressContext.finishTrigger
// in spark-sql_2.13-4.0.1.jar): a trigger without data posts QueryIdleEvent when at least the
// interval passed since the last idle check that passed or the last batch, except for the very
// first such check of a run, which only starts the count; a batch restarts the count at its
// end. A Spark run (local[1], processingTime 100 ms, interval 1000 ms, no data at first) showed
// the start of it: no idle event for the first trigger at ...39.701, then events for the
// triggers at ...40.800, ...41.900, ...42.902 and ...43.902.
#include <mutex>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/execution/query_listener.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

/// Records the timestamps of the idle events.
class IdleListener final : public execution::StreamingQueryListener {
 public:
  void onQueryIdle(const execution::QueryIdleEvent& event) override {
    std::lock_guard<std::mutex> lock(mutex_);
    timestamps_.push_back(event.timestamp);
  }
  std::vector<std::string> timestamps() {
    std::lock_guard<std::mutex> lock(mutex_);
    return timestamps_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> timestamps_;
};

class IdleEventsTest : public StreamTest {};

TEST_F(IdleEventsTest, AreThrottledByTheNoDataProgressEventInterval) {
  ASSERT_TRUE(
      spark_->conf().set("spark.sql.streaming.noDataProgressEventInterval", "1000ms").ok());
  auto listener = std::make_shared<IdleListener>();
  spark_->streams()->addListener(listener);
  auto input = MemoryStream("a INT");
  auto clock = std::make_shared<ManualClock>(0);
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(100);
  options.clock = clock;

  auto idle_events = [&](std::vector<std::string> expected) {
    return AssertOnQuery("idle events", [&listener, expected](StreamingQuery&) {
      EXPECT_EQ(listener->timestamps(), expected);
    });
  };
  // Triggers at 0, 100, ..., 2500 find nothing: events at 1000 and 2000, none at 0.
  std::vector<StreamAction> actions{StartStream(options)};
  for (int step = 0; step < 25; ++step) actions.push_back(AdvanceClock(100));
  actions.push_back(
      idle_events({"1970-01-01T00:00:01.000Z", "1970-01-01T00:00:02.000Z"}));
  // The trigger at 2600 runs a batch; the next idle event is due a full interval later.
  actions.push_back(AddData(input, {"[1]"}));
  actions.push_back(AdvanceClock(100));
  actions.push_back(CheckAnswer({"[1]"}));
  for (int step = 0; step < 9; ++step) actions.push_back(AdvanceClock(100));
  actions.push_back(
      idle_events({"1970-01-01T00:00:01.000Z", "1970-01-01T00:00:02.000Z"}));
  actions.push_back(AdvanceClock(100));
  actions.push_back(idle_events({"1970-01-01T00:00:01.000Z", "1970-01-01T00:00:02.000Z",
                                 "1970-01-01T00:00:03.600Z"}));
  TestStream(spark_->readStream().load(input), actions);
  spark_->streams()->removeListener(listener);
}

}  // namespace
}  // namespace sluice::testing
