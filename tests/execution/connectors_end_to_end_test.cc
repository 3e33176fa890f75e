// The built-in sources and sinks through readStream ... writeStream ... start: rate-micro-batch
// to console (Spark's text, byte for byte) and to noop, a socket source fed by a local TCP
// server into a memory sink, a foreach writer, and a memory sink read as a table between
// batches.
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/sinks/foreach/foreach_sink.h"
#include "support/loopback_server.h"

namespace sluice::testing {
namespace {

constexpr auto kPatience = std::chrono::seconds(20);

class ConnectorsEndToEndTest : public EndToEndTest {
 protected:
  /// rate-micro-batch, two rows per batch from the epoch, one second apart.
  DataFrame Rate() const {
    return spark_->readStream().format("rate-micro-batch").option("rowsPerBatch", "2").load();
  }

  /// Polls the table `name` until it has `count` rows (or the patience runs out); its rows.
  std::vector<std::string> AwaitTableRows(const std::string& name, size_t count) {
    auto deadline = std::chrono::steady_clock::now() + kPatience;
    std::vector<std::string> rows;
    while (std::chrono::steady_clock::now() < deadline) {
      rows = CollectRows(spark_->table(name));
      if (rows.size() >= count) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return rows;
  }
};

// The expected text is what Spark 4.0.1 printed for
//   spark.readStream.format("rate-micro-batch").option("rowsPerBatch", 2).load()
//     .writeStream.format("console").option("checkpointLocation", ckpt).trigger(once=True)
// started twice on one checkpoint, with spark.sql.session.timeZone=UTC.
TEST_F(ConnectorsEndToEndTest, RateMicroBatchToConsolePrintsSparksText) {
  std::string printed;
  {
    CapturedOutput capture(std::cout);
    for (int run = 0; run < 2; ++run) {
      auto ended = Finish(Rate()
                              .writeStream()
                              .format("console")
                              .option("checkpointLocation", Path("ckpt"))
                              .trigger(Trigger::Once())
                              .start());
      ASSERT_TRUE(ended.ok()) << ended.ToString();
    }
    printed = capture.text();
  }
  const std::string banner = "-------------------------------------------\n";
  const std::string header =
      "+-------------------+-----+\n"
      "|          timestamp|value|\n"
      "+-------------------+-----+\n";
  const std::string footer = "+-------------------+-----+\n\n";
  EXPECT_EQ(printed, banner + "Batch: 0\n" + banner + header +
                         "|1970-01-01 00:00:00|    0|\n"
                         "|1970-01-01 00:00:00|    1|\n" +
                         footer + banner + "Batch: 1\n" + banner + header +
                         "|1970-01-01 00:00:01|    2|\n"
                         "|1970-01-01 00:00:01|    3|\n" +
                         footer);
}

// Spark 4.0.1: the same stream into format("noop") under once reported numInputRows 2 and a
// sink numOutputRows of 2.
TEST_F(ConnectorsEndToEndTest, RateMicroBatchToNoopCountsTheRows) {
  auto query = Rate().writeStream().format("noop").trigger(Trigger::Once()).start();
  auto ended = Finish(query);
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  auto progress = (*query)->lastProgress();
  ASSERT_TRUE(progress.has_value());
  EXPECT_EQ(progress->batch_id, 0);
  EXPECT_EQ(progress->sources.at(0).num_input_rows, 2);
  EXPECT_EQ(progress->sink.num_output_rows, 2);
}

TEST_F(ConnectorsEndToEndTest, SocketLinesReachAMemorySink) {
  LoopbackServer server(kPatience);
  auto query = spark_->readStream()
                   .format("socket")
                   .option("host", "127.0.0.1")
                   .option("port", std::to_string(server.port()))
                   .load()
                   .writeStream()
                   .format("memory")
                   .queryName("lines")
                   .start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE(server.Accept()) << "the socket source did not connect";
  ASSERT_TRUE(server.Send("hello\nworld\n"));
  EXPECT_EQ(AwaitTableRows("lines", 2), SortedRows({R"(["hello"])", R"(["world"])"}));
  ASSERT_TRUE(server.Send("again\n"));
  EXPECT_EQ(AwaitTableRows("lines", 3),
            SortedRows({R"(["hello"])", R"(["world"])", R"(["again"])"}));
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_TRUE((*query)->exception().ok()) << (*query)->exception().ToString();
}

/// Records the calls a foreach sink makes, one line each.
class RecordingWriter final : public sinks::ForeachWriter {
 public:
  arrow::Result<bool> Open(int64_t partition_id, int64_t epoch_id) override {
    Add("open " + std::to_string(partition_id) + " " + std::to_string(epoch_id));
    return true;
  }
  arrow::Status Process(const sinks::Row& row) override {
    ARROW_ASSIGN_OR_RAISE(int64_t value, row.GetLong("value"));
    ARROW_ASSIGN_OR_RAISE(int64_t micros, row.GetTimestampMicros("timestamp"));
    Add("process " + std::to_string(value) + " at " + std::to_string(micros));
    return arrow::Status::OK();
  }
  arrow::Status Close(const arrow::Status& error) override {
    Add("close " + (error.ok() ? std::string("ok") : error.ToString()));
    return arrow::Status::OK();
  }
  std::vector<std::string> calls() {
    std::lock_guard<std::mutex> lock(mutex_);
    return calls_;
  }

 private:
  void Add(std::string call) {
    std::lock_guard<std::mutex> lock(mutex_);
    calls_.push_back(std::move(call));
  }
  std::mutex mutex_;
  std::vector<std::string> calls_;
};

// The rows are rate-micro-batch's, as Spark printed them above: batch 0 holds 0 and 1 at the
// epoch, batch 1 holds 2 and 3 one second later.
TEST_F(ConnectorsEndToEndTest, ForeachWriterReceivesEveryRowOfEveryBatch) {
  auto writer = std::make_shared<RecordingWriter>();
  for (int run = 0; run < 2; ++run) {
    auto ended = Finish(Rate()
                            .writeStream()
                            .foreach(writer)
                            .option("checkpointLocation", Path("ckpt"))
                            .trigger(Trigger::Once())
                            .start());
    ASSERT_TRUE(ended.ok()) << ended.ToString();
  }
  EXPECT_EQ(writer->calls(),
            (std::vector<std::string>{"open 0 0", "process 0 at 0", "process 1 at 0", "close ok",
                                      "open 0 1", "process 2 at 1000000",
                                      "process 3 at 1000000", "close ok"}));
}

// As Spark's memory sink in append mode: spark.table(queryName) shows the rows of every batch
// committed so far, growing batch by batch.
TEST_F(ConnectorsEndToEndTest, MemorySinkIsATableThatGrowsWithEachBatch) {
  LandJson("in/a.json", {R"({"id":1})", R"({"id":2})"}, 1'700'000'000'000);
  auto query = spark_->readStream()
                   .format("json")
                   .schema("id INT")
                   .load(Path("in"))
                   .writeStream()
                   .format("memory")
                   .queryName("growing")
                   .outputMode("append")
                   .start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  EXPECT_EQ(CollectRows(spark_->table("growing")), SortedRows({"[1]", "[2]"}));
  // A trigger that listed the folder just before b.json landed may still be finishing, so
  // wait for the rows rather than for the next idle trigger.
  LandJson("in/b.json", {R"({"id":3})"}, 1'700'000'001'000);
  EXPECT_EQ(AwaitTableRows("growing", 3), SortedRows({"[1]", "[2]", "[3]"}));
  ASSERT_TRUE((*query)->stop().ok());
  // The table outlives the query.
  EXPECT_EQ(CollectRows(spark_->table("growing")), SortedRows({"[1]", "[2]", "[3]"}));
}

}  // namespace
}  // namespace sluice::testing
