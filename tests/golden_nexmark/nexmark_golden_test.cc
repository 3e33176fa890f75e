// The Nexmark queries the benchmark runs (bench/nexmark/nexmark_queries.cc), in the DataFrame API
// and in SQL, over the "nexmark" source (and over its events in Parquet files), return what
// Apache Spark returned for the same queries over the same events (tests/golden_nexmark/expected, see generate.py): Spark read the events
// from Parquet files Sluice's generator wrote, one file per micro-batch of the source.
#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include <arrow/builder.h>

#include <arrow/table.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "nexmark/nexmark_queries.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/sources/nexmark/nexmark_generator.h"
#include "support/golden_rows.h"
#include "support/scratch_dir.h"
#include "support/session_fixture.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;
using bench::nexmark::Queries;
using bench::nexmark::Query;

const fs::path kExpectedDir = fs::path(SLUICE_TEST_DATA_DIR) / "golden_nexmark" / "expected";

std::vector<std::string> ExpectedQueries() {
  std::vector<std::string> names;
  for (const auto& query : Queries()) {
    if (fs::exists(kExpectedDir / (query.name + ".json"))) names.push_back(query.name);
  }
  return names;
}

/// Each bidder's bids over all its windows (the last count of each window, summed), from the
/// rows (bidder, bid_count, starttime, endtime) of a query over processing time, as
/// generate.py reduces Spark's: which window a row falls in depends on the wall clock. Fails
/// unless every window is 10 seconds long and starts on a multiple of 10 seconds.
arrow::Result<std::shared_ptr<arrow::Table>> BidsPerBidder(const arrow::Table& rows) {
  constexpr int64_t kWindowMicros = 10'000'000;
  ARROW_ASSIGN_OR_RAISE(auto combined, rows.CombineChunks());
  const auto& bidders = static_cast<const arrow::Int64Array&>(*combined->column(0)->chunk(0));
  const auto& counts = static_cast<const arrow::Int64Array&>(*combined->column(1)->chunk(0));
  const auto& starts =
      static_cast<const arrow::TimestampArray&>(*combined->column(2)->chunk(0));
  const auto& ends = static_cast<const arrow::TimestampArray&>(*combined->column(3)->chunk(0));
  std::map<std::pair<int64_t, int64_t>, int64_t> last;
  for (int64_t r = 0; r < combined->num_rows(); ++r) {
    if (starts.Value(r) % kWindowMicros != 0 || ends.Value(r) - starts.Value(r) != kWindowMicros) {
      return arrow::Status::Invalid("row ", r, ": not a 10-second window: ", starts.Value(r),
                                    " to ", ends.Value(r));
    }
    int64_t& count = last[{bidders.Value(r), starts.Value(r)}];
    count = std::max(count, counts.Value(r));
  }
  std::map<int64_t, int64_t> totals;
  for (const auto& [window, count] : last) totals[window.first] += count;
  arrow::Int64Builder bidder_column;
  arrow::Int64Builder bids_column;
  for (const auto& [bidder, bids] : totals) {
    ARROW_RETURN_NOT_OK(bidder_column.Append(bidder));
    ARROW_RETURN_NOT_OK(bids_column.Append(bids));
  }
  ARROW_ASSIGN_OR_RAISE(auto bidder_array, bidder_column.Finish());
  ARROW_ASSIGN_OR_RAISE(auto bids_array, bids_column.Finish());
  return arrow::Table::Make(
      arrow::schema({arrow::field("bidder", arrow::int64()), arrow::field("bids", arrow::int64())}),
      {bidder_array, bids_array});
}

class NexmarkGoldenTest : public SessionTest,
                          public ::testing::WithParamInterface<std::string> {
 protected:
  /// How a run reads the events.
  enum class Input { kGenerated, kParquetFiles };

  /// Every row the query returns, batch after batch, over `events` events at `rate` per second
  /// in batches of `per_batch`: generated, or written to Parquet files (a file per batch) and
  /// read from them, as Spark read them.
  arrow::Result<std::shared_ptr<arrow::Table>> Run(const Query& query, bool sql, int64_t events,
                                                   int64_t per_batch, int64_t rate, Input input) {
    ARROW_RETURN_NOT_OK(spark_->conf().set("spark.sql.shuffle.partitions", "1"));
    DataFrame source = spark_->readStream()
                           .format("nexmark")
                           .option("numEvents", events)
                           .option("maxEventsPerTrigger", per_batch)
                           .option("eventsPerSecond", rate)
                           .load();
    const std::string name = std::string(sql ? "sql" : "df") +
                             (input == Input::kParquetFiles ? "-files" : "");
    if (input == Input::kParquetFiles) {
      const std::string files = scratch_ / "events";
      ARROW_ASSIGN_OR_RAISE(auto writing, source.writeStream()
                                              .format("parquet")
                                              .option("checkpointLocation",
                                                      scratch_ / "events-checkpoint")
                                              .trigger(Trigger::AvailableNow())
                                              .start(files));
      ARROW_RETURN_NOT_OK(writing->awaitTermination());
      source = spark_->readStream()
                   .format("parquet")
                   .schema(sources::nexmark::NexmarkSchema())
                   .option("maxFilesPerTrigger", int64_t{1})
                   .load(files);
    }
    DataFrame df = query.dataframe(source);
    if (sql) {
      ARROW_RETURN_NOT_OK(bench::nexmark::RegisterViews(source));
      df = spark_->sql(query.sql);
    }
    std::mutex mutex;
    std::vector<std::shared_ptr<arrow::Table>> batches;
    ARROW_ASSIGN_OR_RAISE(
        auto running,
        df.writeStream()
            .foreachBatch([&](const DataFrame& batch, int64_t) -> arrow::Status {
              ARROW_ASSIGN_OR_RAISE(auto rows, batch.collect());
              std::lock_guard<std::mutex> lock(mutex);
              batches.push_back(rows);
              return arrow::Status::OK();
            })
            .outputMode(query.output_mode)
            .option("checkpointLocation", scratch_ / name)
            .trigger(Trigger::AvailableNow())
            .start());
    ARROW_RETURN_NOT_OK(running->awaitTermination());
    return arrow::ConcatenateTables(batches);
  }

  ScratchDir scratch_;
};

TEST_P(NexmarkGoldenTest, MatchesSpark) {
  const Query* query = nullptr;
  for (const auto& candidate : Queries()) {
    if (candidate.name == GetParam()) query = &candidate;
  }
  ASSERT_NE(query, nullptr);
  simdjson::dom::parser parser;
  simdjson::dom::element expected;
  ASSERT_EQ(parser.load((kExpectedDir / (GetParam() + ".json")).string()).get(expected),
            simdjson::SUCCESS);
  const int64_t events = expected["events"].get_int64().value();
  const int64_t per_batch = expected["perBatch"].get_int64().value();
  const int64_t rate = expected["eventsPerSecond"].get_int64().value();
  // Both APIs over generated events, and the DataFrame API over the same events in Parquet
  // files, whose scan reads only the columns and struct fields the query needs.
  const std::vector<std::pair<bool, Input>> runs = {
      {false, Input::kGenerated}, {true, Input::kGenerated}, {false, Input::kParquetFiles}};
  for (const auto& [sql, input] : runs) {
    SCOPED_TRACE(std::string(sql ? "SQL" : "DataFrame API") +
                 (input == Input::kParquetFiles ? " over Parquet files" : ""));
    auto rows = Run(*query, sql, events, per_batch, rate, input);
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(CompareColumns(*(*rows)->schema(), expected["columns"].get_array()), "");
    std::shared_ptr<arrow::Table> compared = *rows;
    if (expected["processingTime"].is_bool()) {
      auto reduced = BidsPerBidder(*compared);
      ASSERT_TRUE(reduced.ok()) << reduced.status().ToString();
      compared = *reduced;
    }
    EXPECT_EQ(CompareRows(*compared, expected["rows"].get_array()), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Spark, NexmarkGoldenTest, ::testing::ValuesIn(ExpectedQueries()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sluice::testing
