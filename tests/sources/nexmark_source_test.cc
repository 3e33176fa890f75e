// The "nexmark" streaming source: micro-batches of at most maxEventsPerTrigger events, the
// generator's events in order, a restart that continues where the checkpoint stopped, paced
// arrival, and clear errors for bad options.
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/sources/nexmark/nexmark_generator.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class NexmarkSourceTest : public StreamTest {
 protected:
  /// Runs the source with availableNow, recording each batch's first and last event time and
  /// its number of bids.
  void RunAvailableNow(int64_t num_events) {
    auto events = spark_->readStream()
                      .format("nexmark")
                      .option("numEvents", num_events)
                      .option("maxEventsPerTrigger", int64_t{1'000})
                      .load();
    auto query = events.writeStream()
                     .foreachBatch([this](const DataFrame& batch, int64_t id) -> arrow::Status {
                       ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
                       ARROW_ASSIGN_OR_RAISE(auto rows, table->CombineChunksToBatch());
                       std::lock_guard<std::mutex> lock(mutex_);
                       batches_[id] = rows;
                       return arrow::Status::OK();
                     })
                     .option("checkpointLocation", checkpoint_)
                     .trigger(Trigger::AvailableNow())
                     .start();
    ASSERT_TRUE(query.ok()) << query.status().ToString();
    ASSERT_TRUE((*query)->awaitTermination().ok());
  }

  std::mutex mutex_;
  std::map<int64_t, std::shared_ptr<arrow::RecordBatch>> batches_;
};

TEST_F(NexmarkSourceTest, BatchesAreTheGeneratorsEventsInOrder) {
  RunAvailableNow(2'500);
  ASSERT_EQ(batches_.size(), 3u);
  auto whole = sources::nexmark::GenerateEvents({}, 0, 2'500);
  ASSERT_TRUE(whole.ok());
  int64_t offset = 0;
  for (const auto& [id, rows] : batches_) {
    EXPECT_EQ(rows->num_rows(), id < 2 ? 1'000 : 500) << "batch " << id;
    EXPECT_TRUE(rows->Equals(*(*whole)->Slice(offset, rows->num_rows()))) << "batch " << id;
    offset += rows->num_rows();
  }

  // A restart with more events takes only the new ones.
  batches_.clear();
  RunAvailableNow(3'200);
  ASSERT_EQ(batches_.size(), 1u);
  EXPECT_EQ(batches_.begin()->first, 3);
  auto more = sources::nexmark::GenerateEvents({}, 2'500, 3'200);
  ASSERT_TRUE(more.ok());
  EXPECT_TRUE(batches_.begin()->second->Equals(**more));
}

TEST_F(NexmarkSourceTest, TheRateSpacesEventTimesFromTheBaseTime) {
  auto events = spark_->readStream()
                    .format("nexmark")
                    .option("numEvents", int64_t{200})
                    .option("eventsPerSecond", int64_t{50})
                    .option("baseTime", int64_t{1'700'000'000'000})
                    .load()
                    .where(F::col("event_type") == 0)
                    .select({F::col("person.id"), F::col("dateTime")});
  TestStream(events, {CheckAnswer({R"([1000,"2023-11-14T22:13:20.000000Z"])",
                                   R"([1001,"2023-11-14T22:13:21.000000Z"])",
                                   R"([1002,"2023-11-14T22:13:22.000000Z"])",
                                   R"([1003,"2023-11-14T22:13:23.000000Z"])"})});
}

TEST_F(NexmarkSourceTest, PacedEventsArriveAtTheirRateFromTheStartOfTheRun) {
  auto counts = spark_->readStream()
                    .format("nexmark")
                    .option("eventsPerSecond", int64_t{1'000})
                    .option("paced", true)
                    .load()
                    .groupBy({})
                    .count();
  StartOptions options;
  options.trigger = Trigger::ProcessingTime(1'000);
  options.clock = std::make_shared<ManualClock>(5'000);
  // Nothing at the start; a thousand events a second of the (manual) wall clock after it.
  TestStream(counts,
             {StartStream(options), AdvanceClock(1'000), CheckLastBatch({"[1000]"}),
              AdvanceClock(1'000), CheckLastBatch({"[2000]"})},
             "complete");
}

TEST_F(NexmarkSourceTest, RefusesBadOptionsNamingThem) {
  for (const auto& [option, value] : std::vector<std::pair<std::string, int64_t>>{
           {"numEvents", -1}, {"eventsPerSecond", 0}, {"maxEventsPerTrigger", 0}}) {
    auto events = spark_->readStream().format("nexmark").option(option, value).load();
    auto query = events.writeStream().format("noop").start();
    ASSERT_FALSE(query.ok()) << option;
    EXPECT_NE(query.status().message().find("'" + option + "'"), std::string::npos)
        << query.status().ToString();
  }
}

}  // namespace
}  // namespace sluice::testing
