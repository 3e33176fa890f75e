// withWatermark: the watermark each batch runs with, what commits/N and offsets/N+1 carry, the
// progress's eventTime, and the multiple-watermark policy. Expected values come from pyspark
// 4.0.1 running the same files (JSON folders read with maxFilesPerTrigger 1, availableNow,
// memory sink; one folder with withWatermark("ts", "10 seconds"), a second one with
// withWatermark("ts", "5 seconds") unioned to it).
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/formats/partitioned_writer.h"
#include "support/session_fixture.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;

class WatermarkTest : public SessionTest {
 protected:
  void SetUp() override {
    SessionTest::SetUp();
    work_ = fs::temp_directory_path() / ("sluice-watermark-" + formats::RandomUuid());
    Land("a", "1.json", {"2026-06-10T10:00:05Z", "2026-06-10T10:00:20Z"}, 1000);
    Land("a", "2.json", {"2026-06-10T10:00:12Z", "2026-06-10T10:00:40Z"}, 2000);
    Land("a", "3.json", {"2026-06-10T10:00:01Z"}, 3000);
    Land("b", "1.json", {"2026-06-10T10:00:30Z"}, 1000);
    Land("b", "2.json", {"2026-06-10T10:01:30Z"}, 2000);
  }
  void TearDown() override { fs::remove_all(work_); }

  void Land(const std::string& folder, const std::string& name,
            const std::vector<std::string>& times, int64_t mtime_seconds) {
    fs::create_directories(work_ / folder);
    {
      std::ofstream out(work_ / folder / name);
      for (const auto& time : times) out << "{\"ts\":\"" << time << "\"}\n";
    }
    fs::last_write_time(work_ / folder / name,
                        fs::file_time_type::clock::from_sys(
                            std::chrono::sys_seconds(std::chrono::seconds(mtime_seconds))));
  }

  DataFrame Stream(const std::string& folder, const std::string& delay) {
    return spark_->readStream()
        .schema("ts TIMESTAMP")
        .option("maxFilesPerTrigger", int64_t{1})
        .json((work_ / folder).string())
        .withWatermark("ts", delay);
  }

  /// Runs `df` to the end of its files; returns each batch's eventTime as "key=value;...".
  std::vector<std::string> Run(const DataFrame& df, const std::string& name) {
    auto query = df.writeStream()
                     .format("memory")
                     .queryName(name)
                     .option("checkpointLocation", (work_ / ("ck-" + name)).string())
                     .trigger(Trigger::AvailableNow())
                     .start();
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    if (!query.ok()) return {};
    EXPECT_TRUE((*query)->awaitTermination().ok());
    std::vector<std::string> event_times;
    for (const auto& progress : (*query)->recentProgress()) {
      std::string text;
      for (const auto& [key, value] : progress.event_time) text += key + "=" + value + ";";
      event_times.push_back(text);
    }
    return event_times;
  }

  /// (offsets/N batchWatermarkMs, commits/N nextBatchWatermarkMs) for each batch.
  std::vector<std::pair<int64_t, int64_t>> LoggedWatermarks(const std::string& name, int batches) {
    std::vector<std::pair<int64_t, int64_t>> logged;
    fs::path checkpoint = work_ / ("ck-" + name);
    for (int batch = 0; batch < batches; ++batch) {
      std::string offsets_path = (checkpoint / "offsets" / std::to_string(batch)).string();
      std::string commits_path = (checkpoint / "commits" / std::to_string(batch)).string();
      auto offsets = checkpoint::ParseOffsetSeq(*checkpoint::ReadWholeFile(offsets_path),
                                                offsets_path);
      auto commit = checkpoint::ParseCommitMetadata(*checkpoint::ReadWholeFile(commits_path),
                                                    commits_path);
      EXPECT_TRUE(offsets.ok() && commit.ok());
      if (!offsets.ok() || !commit.ok()) return logged;
      logged.emplace_back(offsets->metadata.batch_watermark_ms, commit->next_batch_watermark_ms);
    }
    return logged;
  }

  fs::path work_;
};

TEST_F(WatermarkTest, AdvancesAfterEachBatchAsSparkDoes) {
  auto event_times = Run(Stream("a", "10 seconds"), "single");
  EXPECT_EQ(event_times,
            (std::vector<std::string>{
                "avg=2026-06-10T10:00:12.500Z;max=2026-06-10T10:00:20.000Z;"
                "min=2026-06-10T10:00:05.000Z;watermark=1970-01-01T00:00:00.000Z;",
                "avg=2026-06-10T10:00:26.000Z;max=2026-06-10T10:00:40.000Z;"
                "min=2026-06-10T10:00:12.000Z;watermark=2026-06-10T10:00:10.000Z;",
                "avg=2026-06-10T10:00:01.000Z;max=2026-06-10T10:00:01.000Z;"
                "min=2026-06-10T10:00:01.000Z;watermark=2026-06-10T10:00:30.000Z;"}));
  EXPECT_EQ(LoggedWatermarks("single", 3),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1781085610000},
                                                      {1781085610000, 1781085630000},
                                                      {1781085630000, 1781085630000}}));
}

TEST_F(WatermarkTest, MultipleWatermarksTakeTheMinimumOrTheMaximum) {
  Run(Stream("a", "10 seconds").union_(Stream("b", "5 seconds")), "multimin");
  EXPECT_EQ(LoggedWatermarks("multimin", 3),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1781085610000},
                                                      {1781085610000, 1781085630000},
                                                      {1781085630000, 1781085630000}}));
  ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.multipleWatermarkPolicy", "max").ok());
  auto event_times = Run(Stream("a", "10 seconds").union_(Stream("b", "5 seconds")), "multimax");
  EXPECT_EQ(LoggedWatermarks("multimax", 3),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1781085625000},
                                                      {1781085625000, 1781085685000},
                                                      {1781085685000, 1781085685000}}));
  // Spark shows the statistics of the first watermark operator that saw rows only.
  ASSERT_EQ(event_times.size(), 3u);
  EXPECT_EQ(event_times[0],
            "avg=2026-06-10T10:00:12.500Z;max=2026-06-10T10:00:20.000Z;"
            "min=2026-06-10T10:00:05.000Z;watermark=1970-01-01T00:00:00.000Z;");
}

TEST_F(WatermarkTest, ARestartContinuesFromTheCommittedWatermark) {
  fs::remove(work_ / "a" / "3.json");
  Run(Stream("a", "10 seconds"), "restart");
  Land("a", "3.json", {"2026-06-10T10:00:01Z"}, 3000);
  auto event_times = Run(Stream("a", "10 seconds"), "restart");
  ASSERT_EQ(event_times.size(), 1u);
  EXPECT_NE(event_times[0].find("watermark=2026-06-10T10:00:30.000Z"), std::string::npos);
  EXPECT_EQ(LoggedWatermarks("restart", 3)[2],
            (std::pair<int64_t, int64_t>{1781085630000, 1781085630000}));
}

TEST_F(WatermarkTest, NeedsATimestampColumnAndANonNegativeDelay) {
  auto frame = Frame("n INT, ts TIMESTAMP", {"[1]", "[0]"});
  EXPECT_TRUE(HasErrorClass(frame.withWatermark("n", "10 seconds").status(),
                            "EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE"));
  EXPECT_TRUE(HasErrorClass(frame.withWatermark("ts", "-10 seconds").status(),
                            "INVALID_INTERVAL_FORMAT.INVALID_VALUE"));
  EXPECT_FALSE(frame.withWatermark("missing", "10 seconds").ok());
  // In a batch query it changes nothing.
  auto rows = frame.withWatermark("ts", "10 seconds").count();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(*rows, 1);
}

}  // namespace
}  // namespace sluice::testing
