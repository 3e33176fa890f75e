// The web UI of a session against a real windowed aggregation: the JSON API and /metrics carry
// the numbers the query reported, and the UI's settings behave as Spark's.
#include <simdjson.h>

#include <cmath>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/grouped_data.h"
#include "sluice/execution/streaming_query.h"
#include "support/http_get.h"
#include "support/session_fixture.h"
#include "sluice/sources/memory/memory_stream.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::testing {
namespace {

namespace F = sluice::functions;

class WebUiTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    auto session = SparkSession::builder()
                       .config("spark.ui.enabled", "true")
                       .config("spark.ui.port", "0")
                       .config("spark.sql.shuffle.partitions", "2")
                       .getOrCreate();
    ASSERT_TRUE(session.ok()) << session.status().ToString();
    ui_spark_ = *session;
    auto url = ui_spark_->uiWebUrl();
    ASSERT_TRUE(url.has_value());
    const std::string prefix = "http://127.0.0.1:";
    ASSERT_TRUE(url->starts_with(prefix)) << *url;
    port_ = std::stoi(url->substr(prefix.size()));
  }

  /// Windowed counts over seconds with a 10-second watermark, as Spark's
  /// EventTimeWatermarkSuite; started on a memory stream that gets three batches of rows.
  std::shared_ptr<execution::StreamingQuery> RunWindowedCounts() {
    auto schema = types::ParseSchema("value INT");
    EXPECT_TRUE(schema.ok());
    auto input = sources::MemoryStream::Make(*schema);
    auto counts = ui_spark_->readStream()
                      .load(input)
                      .withColumn("eventTime", F::timestamp_seconds(F::col("value")))
                      .withWatermark("eventTime", "10 seconds")
                      .groupBy({F::window(F::col("eventTime"), "5 seconds").alias("window")})
                      .agg({F::count(F::lit(1)).alias("count")});
    auto query = counts.writeStream().format("memory").queryName("web_ui_counts").start();
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    if (!query.ok()) return nullptr;
    for (const char* rows : {"[10, 11, 12]", "[25, 26]", "[40]"}) {
      EXPECT_TRUE(input->AddData(Table("value INT", {rows})).ok());
      EXPECT_TRUE((*query)->processAllAvailable().ok());
    }
    return *query;
  }

  simdjson::dom::element GetJson(const std::string& path) {
    auto reply = HttpRequestTo(port_, path);
    EXPECT_EQ(reply.status, 200) << path << ": " << reply.body;
    EXPECT_NE(reply.headers.find("Content-Type: application/json"), std::string::npos);
    simdjson::dom::element element;
    auto error = parser_.parse(reply.body).get(element);
    EXPECT_EQ(error, simdjson::SUCCESS) << reply.body;
    return element;
  }

  std::shared_ptr<SparkSession> ui_spark_;
  int port_ = 0;
  simdjson::dom::parser parser_;
};

TEST_F(WebUiTest, TheApiListsTheRunWithItsStatusAndProgress) {
  auto query = RunWindowedCounts();
  ASSERT_NE(query, nullptr);
  auto active = GetJson("/api/v1/queries");
  ASSERT_EQ(active.get_array().size(), 1u);
  EXPECT_EQ(std::string_view(active.at(0)["status"]), "ACTIVE");
  EXPECT_EQ(std::string_view(active.at(0)["runId"]), query->runId());
  EXPECT_EQ(std::string_view(active.at(0)["name"]), "web_ui_counts");
  ASSERT_TRUE(query->stop().ok());

  auto runs = GetJson("/api/v1/queries");
  ASSERT_EQ(runs.get_array().size(), 1u);
  EXPECT_EQ(std::string_view(runs.at(0)["status"]), "FINISHED");
  EXPECT_TRUE(runs.at(0)["endTimestamp"].is_string());
  EXPECT_EQ(int64_t(runs.at(0)["numInputRows"]), 6);

  double rate_sum = 0;
  int rates = 0;
  for (const auto& progress : query->recentProgress()) {
    if (!std::isfinite(progress.processed_rows_per_second())) continue;
    rate_sum += progress.processed_rows_per_second();
    ++rates;
  }
  ASSERT_GT(rates, 0);
  EXPECT_NEAR(double(runs.at(0)["avgProcessedRowsPerSecond"]), rate_sum / rates, 1e-9);

  auto run = GetJson("/api/v1/queries/" + query->runId());
  EXPECT_EQ(std::string_view(run["id"]), query->id());
  auto reported = query->recentProgress();
  simdjson::dom::array progress = run["recentProgress"];
  ASSERT_EQ(progress.size(), reported.size());
  ASSERT_GE(reported.size(), 3u);
  size_t i = 0;
  for (simdjson::dom::element entry : progress) {
    EXPECT_EQ(int64_t(entry["batchId"]), reported[i].batch_id);
    EXPECT_EQ(int64_t(entry["numInputRows"]), reported[i].num_input_rows());
    EXPECT_EQ(int64_t(entry["stateOperators"].at(0)["numRowsTotal"]),
              reported[i].state_operators[0].num_rows_total);
    ++i;
  }
  EXPECT_EQ(HttpRequestTo(port_, "/api/v1/queries/no-such-run").status, 404);
  EXPECT_EQ(HttpRequestTo(port_, "/nothing-here").status, 404);
}

TEST_F(WebUiTest, MetricsCarryTheRunsTotalsAndLatestFigures) {
  auto query = RunWindowedCounts();
  ASSERT_NE(query, nullptr);
  ASSERT_TRUE(query->stop().ok());
  auto last = query->lastProgress();
  ASSERT_TRUE(last.has_value());
  auto reply = HttpRequestTo(port_, "/metrics");
  ASSERT_EQ(reply.status, 200);
  EXPECT_NE(reply.headers.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  const std::string labels = "{id=\"" + query->id() + "\",run_id=\"" + query->runId() +
                             "\",name=\"web_ui_counts\"}";
  auto has_line = [&](const std::string& line) {
    return reply.body.find("\n" + line + "\n") != std::string::npos;
  };
  EXPECT_TRUE(has_line("sluice_streaming_query_input_rows_total" + labels + " 6")) << reply.body;
  EXPECT_TRUE(has_line("sluice_streaming_query_active" + labels + " 0"));
  EXPECT_TRUE(has_line("sluice_streaming_query_batches_total" + labels + " " +
                       std::to_string(query->recentProgress().size())));
  EXPECT_TRUE(has_line("sluice_streaming_query_last_batch_id" + labels + " " +
                       std::to_string(last->batch_id)));
  const std::string state_labels = labels.substr(0, labels.size() - 1) +
                                   ",operator=\"0\",operator_name=\"stateStoreSave\"}";
  EXPECT_TRUE(has_line("sluice_streaming_state_rows" + state_labels + " " +
                       std::to_string(last->state_operators[0].num_rows_total)))
      << reply.body;
  // The last batch's watermark is 40 - 10 = 30 seconds past the epoch.
  EXPECT_NE(reply.body.find("sluice_streaming_query_watermark_gap_seconds" + labels + " "),
            std::string::npos);
  EXPECT_NE(reply.body.find("# TYPE sluice_streaming_query_input_rows_total counter\n"),
            std::string::npos);
}

TEST_F(WebUiTest, ThePageIsServedWithoutExternalResources) {
  auto page = HttpRequestTo(port_, "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_NE(page.headers.find("Content-Type: text/html"), std::string::npos);
  EXPECT_NE(page.body.find("Global Watermark Gap"), std::string::npos);
  // Nothing loads from elsewhere: no script or style sources, no links, no remote address
  // (the SVG namespace name is an identifier, never fetched).
  for (const char* loader : {" src=", "<link", "@import", "https://"}) {
    EXPECT_EQ(page.body.find(loader), std::string::npos) << loader;
  }
  EXPECT_EQ(HttpRequestTo(port_, "/query?id=x").body, page.body);
}

TEST_F(WebUiTest, ItsSettingsAreFixedWhenTheSessionIsBuilt) {
  auto status = ui_spark_->conf().set("spark.ui.port", "4050");
  EXPECT_TRUE(HasErrorClass(status, "CANNOT_MODIFY_CONFIG")) << status.ToString();
  EXPECT_NE(status.message().find("spark.ui.port"), std::string::npos);
  // The fixture's plain session has no UI: it is off unless enabled.
  EXPECT_FALSE(spark_->uiWebUrl().has_value());
  auto bad_port = SparkSession::builder()
                      .config("spark.ui.enabled", "true")
                      .config("spark.ui.port", "70000")
                      .getOrCreate();
  ASSERT_FALSE(bad_port.ok());
  EXPECT_NE(bad_port.status().message().find("spark.ui.port"), std::string::npos);
}

TEST_F(WebUiTest, TheServerStopsWithTheSession) {
  ui_spark_.reset();
  EXPECT_EQ(HttpRequestTo(port_, "/metrics").status, 0);
}

}  // namespace
}  // namespace sluice::testing
