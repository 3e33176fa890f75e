// The Nexmark queries the benchmark runs (bench/nexmark/nexmark_queries.cc), in the DataFrame API
// and in SQL, over the "nexmark" source, return what Apache Spark returned for the same queries
// over the same events (tests/golden_nexmark/expected, see generate.py): Spark read the events
// from Parquet files Sluice's generator wrote, one file per micro-batch of the source.
#include <filesystem>
#include <mutex>
#include <string>

#include <arrow/table.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "nexmark/nexmark_queries.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
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

class NexmarkGoldenTest : public SessionTest,
                          public ::testing::WithParamInterface<std::string> {
 protected:
  /// Every row the query returns, batch after batch, over `events` events at `rate` per second
  /// in batches of `per_batch`.
  arrow::Result<std::shared_ptr<arrow::Table>> Run(const Query& query, bool sql, int64_t events,
                                                   int64_t per_batch, int64_t rate) {
    ARROW_RETURN_NOT_OK(spark_->conf().set("spark.sql.shuffle.partitions", "1"));
    DataFrame source = spark_->readStream()
                           .format("nexmark")
                           .option("numEvents", events)
                           .option("maxEventsPerTrigger", per_batch)
                           .option("eventsPerSecond", rate)
                           .load();
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
            .option("checkpointLocation", scratch_ / (sql ? "sql" : "df"))
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
  for (bool sql : {false, true}) {
    SCOPED_TRACE(sql ? "SQL" : "DataFrame API");
    auto rows = Run(*query, sql, events, per_batch, rate);
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    EXPECT_EQ(CompareColumns(*(*rows)->schema(), expected["columns"].get_array()), "");
    EXPECT_EQ(CompareRows(**rows, expected["rows"].get_array()), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Spark, NexmarkGoldenTest, ::testing::ValuesIn(ExpectedQueries()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sluice::testing
