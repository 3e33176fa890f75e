// Listener events, the query manager and the progress a query reports.
#include <mutex>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/common/errors.h"
#include "sluice/execution/query_listener.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

/// Records every event as a line.
class RecordingListener final : public execution::StreamingQueryListener {
 public:
  void onQueryStarted(const execution::QueryStartedEvent& event) override {
    Add("started " + event.id + " " + event.run_id + " " + event.name.value_or("null"));
  }
  void onQueryProgress(const execution::QueryProgressEvent& event) override {
    Add("progress " + std::to_string(event.progress.batch_id));
  }
  void onQueryIdle(const execution::QueryIdleEvent& event) override { Add("idle"); }
  void onQueryTerminated(const execution::QueryTerminatedEvent& event) override {
    Add("terminated " + event.exception.value_or("none") + " " +
        event.error_class_on_exception.value_or("none"));
  }
  std::vector<std::string> events() {
    std::lock_guard<std::mutex> lock(mutex_);
    return events_;
  }

 private:
  void Add(std::string line) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Idle events depend on timing; keep at most one in a row.
    if (line == "idle" && !events_.empty() && events_.back() == "idle") return;
    events_.push_back(std::move(line));
  }
  std::mutex mutex_;
  std::vector<std::string> events_;
};

class QueryListenerTest : public StreamTest {};

TEST_F(QueryListenerTest, EventsComeInOrderWithTheQueryIds) {
  auto listener = std::make_shared<RecordingListener>();
  spark_->streams()->addListener(listener);
  auto input = MemoryStream("a INT");
  ASSERT_TRUE(input->AddData(Table("a INT", {"[1, 2]"})).ok());
  auto query = spark_->readStream()
                   .load(input)
                   .writeStream()
                   .format("memory")
                   .queryName("events")
                   .trigger(Trigger::AvailableNow())
                   .start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->awaitTermination().ok());
  auto events = listener->events();
  std::vector<std::string> expected{
      "started " + (*query)->id() + " " + (*query)->runId() + " events", "progress 0",
      "terminated none none"};
  EXPECT_EQ(events, expected);

  spark_->streams()->removeListener(listener);
  EXPECT_TRUE(spark_->streams()->listListeners().empty());
}

TEST_F(QueryListenerTest, TerminatedEventCarriesTheErrorAndItsClass) {
  auto listener = std::make_shared<RecordingListener>();
  spark_->streams()->addListener(listener);
  auto input = MemoryStream("a INT");
  ASSERT_TRUE(input->AddData(Table("a INT", {"[1]"})).ok());
  auto query = spark_->readStream()
                   .load(input)
                   .writeStream()
                   .foreachBatch([](const DataFrame&, int64_t) -> arrow::Status {
                     return SparkError("DIVIDE_BY_ZERO", "Division by zero.");
                   })
                   .start();
  ASSERT_TRUE(query.ok());
  EXPECT_TRUE(HasErrorClass((*query)->awaitTermination(), "STREAM_FAILED"));
  auto events = listener->events();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back(), "terminated [DIVIDE_BY_ZERO] Division by zero. DIVIDE_BY_ZERO");
}

TEST_F(QueryListenerTest, ManagerTracksActiveQueriesAndTerminations) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  auto query = df.writeStream().format("memory").queryName("tracked").start();
  ASSERT_TRUE(query.ok());
  auto manager = spark_->streams();
  ASSERT_EQ(manager->active().size(), 1u);
  EXPECT_EQ(manager->get((*query)->id()), *query);
  auto duplicate = df.writeStream().format("memory").queryName("tracked").start();
  EXPECT_TRUE(HasErrorClass(duplicate.status(), "DUPLICATE_QUERY_NAME"));
  auto waited = manager->awaitAnyTermination(10);
  ASSERT_TRUE(waited.ok());
  EXPECT_FALSE(*waited);
  ASSERT_TRUE((*query)->stop().ok());
  waited = manager->awaitAnyTermination(10000);
  ASSERT_TRUE(waited.ok());
  EXPECT_TRUE(*waited);
  EXPECT_TRUE(manager->active().empty());
  manager->resetTerminated();
  waited = manager->awaitAnyTermination(10);
  ASSERT_TRUE(waited.ok());
  EXPECT_FALSE(*waited);
}

TEST_F(QueryListenerTest, ProgressCountsRowsPerSourceAndTheSink) {
  auto input = MemoryStream("a INT");
  auto df = spark_->readStream().load(input);
  TestStream(df, {AddData(input, {"[1, 2, 3]"}), CheckAnswer({"[1]", "[2]", "[3]"}),
                  AssertOnQuery("progress of batch 0", [&](StreamingQuery& query) {
                    auto progress = query.lastProgress();
                    ASSERT_TRUE(progress.has_value());
                    EXPECT_EQ(progress->id, query.id());
                    EXPECT_EQ(progress->run_id, query.runId());
                    EXPECT_EQ(progress->batch_id, 0);
                    ASSERT_EQ(progress->sources.size(), 1u);
                    EXPECT_EQ(progress->sources[0].description, input->Describe());
                    EXPECT_EQ(progress->sources[0].start_offset, std::nullopt);
                    EXPECT_EQ(progress->sources[0].end_offset, std::optional<std::string>("0"));
                    EXPECT_EQ(progress->sources[0].num_input_rows, 3);
                    EXPECT_EQ(progress->sources[0].input_rows_per_second, 0.0);
                    EXPECT_GT(progress->sources[0].processed_rows_per_second, 0.0);
                    EXPECT_EQ(progress->sink.description, "MemorySink");
                    EXPECT_EQ(progress->sink.num_output_rows, 3);
                    for (const char* phase : {"addBatch", "commitOffsets", "getBatch",
                                              "latestOffset", "queryPlanning",
                                              "triggerExecution", "walCommit"}) {
                      EXPECT_EQ(progress->duration_ms.count(phase), 1u) << phase;
                    }
                    EXPECT_EQ(query.status().message, "Waiting for data to arrive");
                    EXPECT_FALSE(query.status().is_trigger_active);
                  })});
}

}  // namespace
}  // namespace sluice::testing

namespace sluice::testing {
namespace {

TEST_F(QueryListenerTest, AQueryRunsOnWhenItsHandleIsDropped) {
  auto input = MemoryStream("a INT");
  {
    auto started = spark_->readStream().load(input).writeStream().format("memory").queryName(
        "unattended").start();
    ASSERT_TRUE(started.ok());
  }
  ASSERT_TRUE(input->AddData(Table("a INT", {"[7]"})).ok());
  auto active = spark_->streams()->active();
  ASSERT_EQ(active.size(), 1u);
  ASSERT_TRUE(active[0]->processAllAvailable().ok());
  auto rows = spark_->table("unattended").collect();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(RowsOf(**rows), std::vector<std::string>{"[7]"});
  ASSERT_TRUE(active[0]->stop().ok());
  EXPECT_TRUE(spark_->streams()->active().empty());
}

}  // namespace
}  // namespace sluice::testing
