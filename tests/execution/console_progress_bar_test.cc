// The console progress bar: how far a backlog is worked through, and what it draws.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "sluice/execution/console_progress_bar.h"

namespace sluice::execution {
namespace {

StreamingQueryProgress Report(int64_t batch_id, std::optional<std::string> start,
                              std::string end, std::string latest, int64_t rows) {
  StreamingQueryProgress progress;
  progress.id = "0b7c5a3e-query";
  progress.run_id = "run";
  progress.name = "backfill";
  progress.batch_id = batch_id;
  SourceProgress source;
  source.start_offset = std::move(start);
  source.end_offset = std::move(end);
  source.latest_offset = std::move(latest);
  source.num_input_rows = rows;
  progress.sources.push_back(source);
  return progress;
}

TEST(BacklogFractionDoneTest, MeasuresFromWhereTheRunStarted) {
  auto first = Report(5, R"({"logOffset":4})", R"({"logOffset":6})", R"({"logOffset":14})", 10);
  auto later = Report(7, R"({"logOffset":8})", R"({"logOffset":9})", R"({"logOffset":14})", 10);
  EXPECT_DOUBLE_EQ(*BacklogFractionDone(first, first), 0.2);
  EXPECT_DOUBLE_EQ(*BacklogFractionDone(first, later), 0.5);
}

TEST(BacklogFractionDoneTest, SumsTheOffsetsOfEveryPartition) {
  auto first = Report(0, R"({"t":{"0":100,"1":50}})", R"({"t":{"0":150,"1":100}})",
                      R"({"t":{"0":200,"1":150}})", 100);
  EXPECT_DOUBLE_EQ(*BacklogFractionDone(first, first), 0.5);
}

TEST(BacklogFractionDoneTest, ASourcesOwnAccountOfItsBacklogComesFirst) {
  // A file source's offsets count log entries; its backlog counts files.
  auto report = Report(2, R"({"logOffset":1})", R"({"logOffset":2})", "null", 10);
  report.sources[0].latest_offset.reset();
  EXPECT_FALSE(BacklogFractionDone(report, report).has_value());
  report.sources[0].backlog = sources::SourceBacklog{6, 40};
  EXPECT_DOUBLE_EQ(*BacklogFractionDone(report, report), 0.15);
  report.sources[0].backlog = sources::SourceBacklog{40, 40};
  EXPECT_FALSE(BacklogFractionDone(report, report).has_value());
}

TEST(BacklogFractionDoneTest, NothingToShowWhenCaughtUpOrWithoutNumbers) {
  auto caught_up = Report(3, R"({"logOffset":2})", R"({"logOffset":3})", R"({"logOffset":3})", 1);
  EXPECT_FALSE(BacklogFractionDone(caught_up, caught_up).has_value());
  auto text = Report(0, std::nullopt, "\"abc\"", "\"abd\"", 1);
  EXPECT_FALSE(BacklogFractionDone(text, text).has_value());
}

class ConsoleProgressBarTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(pipe2(fds_, O_NONBLOCK), 0);
  }
  void TearDown() override {
    close(fds_[0]);
    close(fds_[1]);
  }
  std::string Drawn() {
    std::string out;
    char buffer[4096];
    ssize_t n;
    while ((n = read(fds_[0], buffer, sizeof(buffer))) > 0) out.append(buffer, n);
    return out;
  }
  int fds_[2];
};

TEST_F(ConsoleProgressBarTest, DrawsWhileBehindAndClearsWhenCaughtUp) {
  ConsoleProgressBar bar(fds_[1], 60, std::chrono::milliseconds(0));
  bar.onQueryStarted({"0b7c5a3e-query", "run", "backfill", "2026-12-01T10:00:00.000Z"});
  bar.onQueryProgress(
      {Report(0, std::nullopt, R"({"logOffset":1})", R"({"logOffset":4})", 1500000)});
  std::string first = Drawn();
  ASSERT_EQ(first.size(), 61u) << first;  // "\r" and the 60-character line
  EXPECT_EQ(first.substr(0, 19), "\r[backfill: batch 0");
  EXPECT_NE(first.find("=>"), std::string::npos) << first;
  EXPECT_NE(first.find(" 25% 1,500,000 rows 0 rows/s]"), std::string::npos) << first;

  bar.onQueryProgress({Report(1, R"({"logOffset":1})", R"({"logOffset":4})",
                              R"({"logOffset":4})", 10)});
  EXPECT_EQ(Drawn(), "\r" + std::string(60, ' ') + "\r");
  bar.onQueryTerminated({"0b7c5a3e-query", "run", std::nullopt, std::nullopt});
  EXPECT_EQ(Drawn(), "") << "nothing left to clear";
}

}  // namespace
}  // namespace sluice::execution
