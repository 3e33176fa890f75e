// What the UI keeps of a session's query runs, from listener events alone.
#include <gtest/gtest.h>

#include "sluice/execution/iso_timestamp.h"
#include "sluice/server/prometheus_metrics.h"
#include "sluice/server/query_history.h"

namespace sluice::server {
namespace {

using execution::QueryProgressEvent;
using execution::QueryStartedEvent;
using execution::QueryTerminatedEvent;

QueryProgressEvent Progress(const std::string& run_id, int64_t batch_id, int64_t rows) {
  QueryProgressEvent event;
  event.progress.id = "query";
  event.progress.run_id = run_id;
  event.progress.batch_id = batch_id;
  execution::SourceProgress source;
  source.num_input_rows = rows;
  event.progress.sources.push_back(source);
  return event;
}

TEST(QueryHistoryTest, KeepsTheLatestReportsAndTotalsOverAllOfThem) {
  QueryHistory history(/*retained_queries=*/10, /*retained_progress_updates=*/2);
  history.onQueryStarted({"query", "run", "counts", "2026-12-01T10:00:00.000Z"});
  for (int64_t batch = 0; batch < 5; ++batch) history.onQueryProgress(Progress("run", batch, 3));
  auto run = history.FindRun("run");
  ASSERT_TRUE(run.has_value());
  ASSERT_EQ(run->recent_progress.size(), 2u);
  EXPECT_EQ(run->recent_progress.front().batch_id, 3);
  EXPECT_EQ(run->batches, 5);
  EXPECT_EQ(run->input_rows, 15);
  EXPECT_EQ(run->status, QueryRunStatus::kActive);
  history.onQueryTerminated({"query", "run", "boom", "DIVIDE_BY_ZERO"});
  run = history.FindRun("run");
  EXPECT_EQ(run->status, QueryRunStatus::kFailed);
  EXPECT_EQ(run->error_class, "DIVIDE_BY_ZERO");
  EXPECT_TRUE(run->end_timestamp.has_value());
}

TEST(QueryHistoryTest, DropsTheOldestFinishedRunsButNeverAnActiveOne) {
  QueryHistory history(/*retained_queries=*/2, /*retained_progress_updates=*/10);
  history.onQueryStarted({"q0", "active", std::nullopt, "2026-12-01T10:00:00.000Z"});
  for (int i = 1; i <= 3; ++i) {
    std::string run_id = "run" + std::to_string(i);
    history.onQueryStarted({"q", run_id, std::nullopt, "2026-12-01T10:00:00.000Z"});
    history.onQueryTerminated({"q", run_id, std::nullopt, std::nullopt});
  }
  auto runs = history.Runs();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].run_id, "active");
  EXPECT_EQ(runs[1].run_id, "run2");
  EXPECT_EQ(runs[2].run_id, "run3");
  EXPECT_FALSE(history.FindRun("run1").has_value());
}

TEST(QueryHistoryTest, MetricLabelsAreEscaped) {
  QueryHistory history(10, 10);
  history.onQueryStarted({"q", "r", "a \"quoted\\name\"\nline", "2026-12-01T10:00:00.000Z"});
  std::string text = PrometheusMetricsText(history.Runs());
  EXPECT_NE(text.find("sluice_streaming_query_active{id=\"q\",run_id=\"r\",name=\"a "
                      "\\\"quoted\\\\name\\\"\\nline\"} 1\n"),
            std::string::npos)
      << text;
}

TEST(QueryHistoryTest, TheWatermarkGapIsTheTriggerTimeMinusTheWatermark) {
  QueryHistory history(10, 10);
  history.onQueryStarted({"q", "r", std::nullopt, "2026-12-01T10:00:00.000Z"});
  auto event = Progress("r", 0, 1);
  event.progress.timestamp_ms = *execution::ParseIsoTimestamp("2026-12-01T10:00:42.500Z");
  event.progress.event_time["watermark"] = "2026-12-01T10:00:30.000Z";
  history.onQueryProgress(event);
  std::string text = PrometheusMetricsText(history.Runs());
  EXPECT_NE(text.find("sluice_streaming_query_watermark_gap_seconds{id=\"q\",run_id=\"r\","
                      "name=\"\"} 12.5\n"),
            std::string::npos)
      << text;
}

TEST(IsoTimestampTest, ParsesWhatItFormats) {
  for (int64_t ms : {int64_t{0}, int64_t{1704067205666}, int64_t{-62135596800000},
                     int64_t{253402300799999}}) {
    EXPECT_EQ(execution::ParseIsoTimestamp(execution::FormatIsoTimestamp(ms)), ms);
  }
  EXPECT_FALSE(execution::ParseIsoTimestamp("2026-02-30T00:00:00.000Z").has_value());
  EXPECT_FALSE(execution::ParseIsoTimestamp("2026-12-01T10:00:00Z").has_value());
  EXPECT_FALSE(execution::ParseIsoTimestamp("+10000-01-01T00:00:00.000Z").has_value());
}

}  // namespace
}  // namespace sluice::server
