// Triggers over a source that always has data (rate-micro-batch), on a manual clock.
#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class TriggerTest : public StreamTest {
 protected:
  DataFrame Rate() {
    return spark_->readStream()
        .format("rate-micro-batch")
        .option("rowsPerBatch", int64_t{2})
        .load()
        .select({F::col("value")});
  }
};

TEST_F(TriggerTest, ProcessingTimeRunsOneBatchPerInterval) {
  auto clock = std::make_shared<ManualClock>(0);
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(500);
  options.clock = clock;
  TestStream(Rate(), {StartStream(options), CheckAnswer({"[0]", "[1]"}), AdvanceClock(499),
                      CheckAnswer({"[0]", "[1]"}), AdvanceClock(1), CheckNewAnswer({"[2]", "[3]"}),
                      // A missed boundary starts the next batch at once, then realigns.
                      AdvanceClock(1200), CheckNewAnswer({"[4]", "[5]"}),
                      AssertOnQuery("batches at 0, 500 and 1700", [](StreamingQuery& query) {
                        std::vector<int64_t> starts;
                        for (const auto& progress : query.recentProgress()) {
                          starts.push_back(progress.timestamp_ms);
                        }
                        EXPECT_EQ(starts, (std::vector<int64_t>{0, 500, 1700}));
                      })});
}

// Found by fuzzing the option parsers: an interval past int64 milliseconds (or "inf", "nan")
// was converted from double as undefined behaviour; it is an error naming the interval.
TEST_F(TriggerTest, AnIntervalOutOfRangeIsRefused) {
  for (const char* interval : {"1e40 seconds", "inf days", "nan hours", "-1e30 milliseconds"}) {
    SCOPED_TRACE(interval);
    auto trigger = Trigger::ProcessingTime(interval);
    ASSERT_FALSE(trigger.ok());
    EXPECT_TRUE(HasErrorClass(trigger.status(), "INVALID_INTERVAL_FORMAT.INVALID_UNIT"));
    EXPECT_NE(trigger.status().message().find(interval), std::string::npos);
  }
  EXPECT_EQ(Trigger::ProcessingTime("1.5 seconds")->interval_ms, 1500);
}

TEST_F(TriggerTest, OnceRunsOneBatchThenStops) {
  StartOptions options;
  options.trigger = Trigger::Once();
  options.clock = std::make_shared<ManualClock>(0);
  TestStream(Rate(), {StartStream(options),
                      AssertOnQuery("stopped", [](StreamingQuery& query) {
                        ASSERT_TRUE(query.awaitTermination().ok());
                      }),
                      CheckAnswer({"[0]", "[1]"}), StartStream(options),
                      AssertOnQuery("stopped again", [](StreamingQuery& query) {
                        ASSERT_TRUE(query.awaitTermination().ok());
                      }),
                      CheckAnswer({"[0]", "[1]", "[2]", "[3]"})});
}

}  // namespace
}  // namespace sluice::testing
