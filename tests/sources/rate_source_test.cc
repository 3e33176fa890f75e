// The "rate" source against Spark 4.0.1: option errors as Spark words them, offsets and rows of
// a query driven by a manual clock (Spark's rows for rowsPerSecond=5, rampUpTime=2s, read from a
// memory sink, relative to the start time Spark logged in sources/0/0), and the start time kept
// in the checkpoint.
#include "sluice/sources/rate/rate_source.h"

#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <arrow/array.h>
#include <gtest/gtest.h>

#include "sluice/common/clock.h"
#include "sluice/common/errors.h"
#include "sluice/sources/rate/rate_rows.h"
#include "sources/source_test_support.h"
#include "support/scratch_dir.h"

namespace sluice::sources {
namespace {

using Rows = std::vector<std::pair<int64_t, int64_t>>;  // (value, timestamp in ms)

// Every row of `reader` as (value, timestamp ms), checking the batches are capped.
Rows ReadRows(const std::shared_ptr<arrow::RecordBatchReader>& reader) {
  Rows rows;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    EXPECT_TRUE(reader->ReadNext(&batch).ok());
    if (batch == nullptr) break;
    EXPECT_TRUE(batch->schema()->Equals(*RateSchema()));
    const auto& timestamps = static_cast<const arrow::TimestampArray&>(*batch->column(0));
    const auto& values = static_cast<const arrow::Int64Array&>(*batch->column(1));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      rows.emplace_back(values.Value(i), timestamps.Value(i) / 1000);
    }
  }
  return rows;
}

std::string ErrorOf(const formats::OptionMap& options) {
  return testing::ErrorMessageOf(MakeRateSourceProvider(options));
}

TEST(RateSourceOptionsTest, RejectsBadValuesWithSparksMessages) {
  EXPECT_EQ(ErrorOf({{"rowsPerSecond", "0"}}),
            "Invalid value '0'. The option 'rowsPerSecond' must be positive");
  EXPECT_EQ(ErrorOf({{"ROWSPERSECOND", "-1"}}),
            "Invalid value '-1'. The option 'rowsPerSecond' must be positive");
  EXPECT_EQ(ErrorOf({{"rowsPerSecond", "abc"}}),
            "For input string: \"abc\" (option 'rowsPerSecond')");
  EXPECT_EQ(ErrorOf({{"rampUpTime", "-1s"}}),
            "Invalid value '-1'. The option 'rampUpTime' must not be negative");
  EXPECT_EQ(ErrorOf({{"numPartitions", "0"}}),
            "Invalid value '0'. The option 'numPartitions' must be positive");
  EXPECT_EQ(ErrorOf({{"numPartitions", "x"}}), "For input string: \"x\" (option 'numPartitions')");
  EXPECT_EQ(ErrorOf({{"numPartitions", "3000000000"}}),
            "For input string: \"3000000000\" (option 'numPartitions')");
  EXPECT_EQ(ErrorOf({{"rampUpTime", "1500ms"}, {"rowsPerSecond", "+7"}}), "no error");
}

// Spark's own example in RateStreamProvider.valueAtSecond: rowsPerSecond 10, ramp-up 4s.
TEST(RateSourceRowsTest, ValueAtSecondRampsUpThenStaysAtTheRate) {
  std::vector<int64_t> values;
  for (int64_t second = 0; second <= 6; ++second) {
    values.push_back(RateValueAtSecond(second, 10, 4));
  }
  EXPECT_EQ(values, (std::vector<int64_t>{0, 2, 6, 12, 20, 30, 40}));
  EXPECT_EQ(RateValueAtSecond(3, 5, 0), 15);
}

class RateSourceTest : public ::testing::Test {
 protected:
  std::unique_ptr<StreamSource> Start(const formats::OptionMap& options) {
    SourceContext context;
    context.metadata_path = scratch_ / "sources/0";
    context.clock = &clock_;
    return testing::StartSource(MakeRateSourceProvider(options), context);
  }

  std::string Latest(StreamSource& source, const std::optional<std::string>& start) {
    return testing::LatestOffsetText(source, start);
  }

  Rows Batch(StreamSource& source, const std::optional<std::string>& start,
             const std::string& end) {
    return ReadRows(testing::BatchReader(source, start, end));
  }

  sluice::testing::ScratchDir scratch_;
  ManualClock clock_{10'000};
};

// Spark's batches for rowsPerSecond=5, rampUpTime=2s under a one-second trigger: batch 0 is
// empty with offset 0, then 1, 2 and 5 rows, spread evenly over each second.
TEST_F(RateSourceTest, OffsetsAreSecondsAndRowsFollowSparksFormula) {
  auto source = Start({{"rowsPerSecond", "5"}, {"rampUpTime", "2s"}});
  EXPECT_EQ(source->Describe(), "RateStreamV2[rowsPerSecond=5, rampUpTimeSeconds=2, "
                                "numPartitions=default");
  EXPECT_EQ(Latest(*source, std::nullopt), "0");
  EXPECT_EQ(source->ReportLatestOffset(), "0");
  EXPECT_EQ(Batch(*source, std::nullopt, "0"), Rows{});

  clock_.Advance(999);
  EXPECT_EQ(Latest(*source, "0"), "0");
  clock_.Advance(1);
  EXPECT_EQ(Latest(*source, "0"), "1");
  EXPECT_EQ(Batch(*source, "0", "1"), (Rows{{0, 10'000}}));
  clock_.Advance(1000);
  EXPECT_EQ(Batch(*source, "1", "2"), (Rows{{1, 11'000}, {2, 11'500}}));
  EXPECT_EQ(Batch(*source, "2", "3"),
            (Rows{{3, 12'000}, {4, 12'200}, {5, 12'400}, {6, 12'600}, {7, 12'800}}));
  // A batch spanning several seconds spreads its values over all of them.
  EXPECT_EQ(Batch(*source, "3", "4"),
            (Rows{{8, 13'000}, {9, 13'200}, {10, 13'400}, {11, 13'600}, {12, 13'800}}));
  EXPECT_EQ(Batch(*source, "0", "2"), (Rows{{0, 10'000}, {1, 10'667}, {2, 11'333}}));
}

TEST_F(RateSourceTest, ARestartReadsTheStartTimeFromTheCheckpoint) {
  {
    auto first = Start({{"rowsPerSecond", "2"}});
    std::ifstream logged(scratch_ / "sources/0/0");
    std::stringstream contents;
    contents << logged.rdbuf();
    EXPECT_EQ(contents.str(), "v1\n10000");  // Spark's format: version line, start millis
  }
  clock_.SetTime(50'000);
  auto restarted = Start({{"rowsPerSecond", "2"}});
  EXPECT_EQ(Batch(*restarted, "1", "2"), (Rows{{2, 11'000}, {3, 11'500}}));
  EXPECT_EQ(Latest(*restarted, "2"), "40");
}

TEST_F(RateSourceTest, AClockBehindTheProcessedOffsetDoesNotTurnItBack) {
  auto source = Start({});
  EXPECT_EQ(Latest(*source, "4"), "4");
}

TEST_F(RateSourceTest, AReplayedBatchLeavesLaterOffsetsNoEarlier) {
  clock_.SetTime(10'000);
  auto source = Start({{"rowsPerSecond", "1"}});
  // The clock stands still while the loop replays the logged batch (0, 7].
  EXPECT_EQ(Batch(*source, "0", "7").size(), 7u);
  EXPECT_EQ(Latest(*source, "7"), "7");
}

// Spark fetches the latest offset of this source once when Trigger.AvailableNow starts.
TEST_F(RateSourceTest, AvailableNowStopsAtTheSecondsElapsedAtTheStart) {
  auto source = Start({});
  clock_.Advance(3000);
  ASSERT_TRUE(source->PrepareForAvailableNow().ok());
  clock_.Advance(5000);
  EXPECT_EQ(Latest(*source, std::nullopt), "3");
  EXPECT_EQ(Latest(*source, "3"), "3");
}

TEST_F(RateSourceTest, KeepsSparksPartitionOrder) {
  auto source = Start({{"rowsPerSecond", "5"}, {"numPartitions", "2"}});
  EXPECT_EQ(source->Describe(), "RateStreamV2[rowsPerSecond=5, rampUpTimeSeconds=0, "
                                "numPartitions=2");
  Rows rows = Batch(*source, "0", "1");
  std::vector<int64_t> values;
  for (const auto& row : rows) values.push_back(row.first);
  EXPECT_EQ(values, (std::vector<int64_t>{0, 2, 4, 1, 3}));
}

TEST_F(RateSourceTest, FailsLikeSparkWhenTheRampUpCannotBeReached) {
  auto provider = MakeRateSourceProvider(
      {{"rowsPerSecond", "9223372036854775807"}, {"rampUpTime", "100s"}});
  ASSERT_TRUE(provider.ok());
  SourceContext context;
  context.clock = &clock_;
  auto source = (*provider)->CreateSource(context);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(ErrorClassOf(source.status()), "INCORRECT_RAMP_UP_RATE");
  EXPECT_EQ(source.status().message(),
            "[INCORRECT_RAMP_UP_RATE] Max offset with 9223372036854775807 rowsPerSecond is 1, "
            "but 'rampUpTimeSeconds' is 100.");
}

TEST_F(RateSourceTest, ACorruptStartTimeFileIsReported) {
  scratch_.Write("sources/0/0", "v1\nnot a number");
  auto provider = MakeRateSourceProvider({});
  ASSERT_TRUE(provider.ok());
  SourceContext context;
  context.metadata_path = scratch_ / "sources/0";
  context.clock = &clock_;
  auto source = (*provider)->CreateSource(context);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(ErrorClassOf(source.status()), "MALFORMED_LOG_FILE");
}

TEST_F(RateSourceTest, RejectsAnOffsetThatIsNotANumber) {
  auto source = Start({});
  auto reader = source->GetBatch(std::string("{\"logOffset\":1}"), "2");
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("is not a number"), std::string::npos);
}

}  // namespace
}  // namespace sluice::sources
