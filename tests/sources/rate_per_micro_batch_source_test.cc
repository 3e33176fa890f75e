// The "rate-micro-batch" source against Spark 4.0.1: option errors, the offsets Spark logs
// ({"offset":N,"timestamp":T}) and the rows of its batches, in Spark's partition order, for
// rowsPerBatch=7, startTimestamp=1000, advanceMillisPerBatch=500, numPartitions=3.
#include "sluice/sources/rate/rate_per_micro_batch_source.h"

#include <vector>

#include <arrow/array.h>
#include <gtest/gtest.h>

#include "sluice/sources/rate/rate_rows.h"
#include "sources/source_test_support.h"

namespace sluice::sources {
namespace {

struct Read {
  std::vector<int64_t> values;
  std::vector<int64_t> timestamps_us;
  std::vector<int64_t> batch_sizes;
};

Read ReadAll(const std::shared_ptr<arrow::RecordBatchReader>& reader) {
  Read read;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    EXPECT_TRUE(reader->ReadNext(&batch).ok());
    if (batch == nullptr) break;
    read.batch_sizes.push_back(batch->num_rows());
    const auto& timestamps = static_cast<const arrow::TimestampArray&>(*batch->column(0));
    const auto& values = static_cast<const arrow::Int64Array&>(*batch->column(1));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      read.values.push_back(values.Value(i));
      read.timestamps_us.push_back(timestamps.Value(i));
    }
  }
  return read;
}

std::string ErrorOf(const formats::OptionMap& options) {
  return testing::ErrorMessageOf(MakeRatePerMicroBatchSourceProvider(options));
}

std::unique_ptr<StreamSource> Start(const formats::OptionMap& options) {
  return testing::StartSource(MakeRatePerMicroBatchSourceProvider(options));
}

std::string Latest(StreamSource& source, const std::optional<std::string>& start,
                   ReadLimitMode mode = ReadLimitMode::kRespectLimits) {
  return testing::LatestOffsetText(source, start, mode);
}

Read Batch(StreamSource& source, const std::optional<std::string>& start,
           const std::string& end) {
  return ReadAll(testing::BatchReader(source, start, end));
}

const formats::OptionMap kSparkRun = {{"rowsPerBatch", "7"},
                                      {"startTimestamp", "1000"},
                                      {"advanceMillisPerBatch", "500"},
                                      {"numPartitions", "3"}};

TEST(RatePerMicroBatchOptionsTest, RejectsBadValuesWithSparksMessages) {
  EXPECT_EQ(ErrorOf({}), "Invalid value '0'. The option 'rowsPerBatch' must be positive");
  EXPECT_EQ(ErrorOf({{"rowsPerBatch", "0"}}),
            "Invalid value '0'. The option 'rowsPerBatch' must be positive");
  EXPECT_EQ(ErrorOf({{"rowsPerBatch", "x"}}), "For input string: \"x\" (option 'rowsPerBatch')");
  EXPECT_EQ(ErrorOf({{"rowsPerBatch", "1"}, {"startTimestamp", "-1"}}),
            "Invalid value '-1'. The option 'startTimestamp' must be non-negative");
  EXPECT_EQ(ErrorOf({{"rowsPerBatch", "1"}, {"advanceMillisPerBatch", "-1"}}),
            "Invalid value '-1'. The option 'advanceMillisPerBatch' must be non-negative");
  EXPECT_EQ(ErrorOf({{"rowsPerBatch", "1"}, {"numPartitions", "0"}}),
            "Invalid value '0'. The option 'numPartitions' must be positive");
}

TEST(RatePerMicroBatchSourceTest, OffsetsAndDescriptionAreSparks) {
  auto source = Start(kSparkRun);
  EXPECT_EQ(source->Describe(),
            "RatePerMicroBatchStream[rowsPerBatch=7, numPartitions=3, startTimestamp=1000, "
            "advanceMsPerBatch=500]");
  const std::string first = Latest(*source, std::nullopt);
  EXPECT_EQ(first, "{\"offset\":7,\"timestamp\":1500}");
  EXPECT_EQ(Latest(*source, first), "{\"offset\":14,\"timestamp\":2000}");
  // Spark reports no latestOffset for this source.
  EXPECT_EQ(source->ReportLatestOffset(), std::nullopt);
}

TEST(RatePerMicroBatchSourceTest, RowsComeInSparksPartitionOrderWithTheBatchTimestamp) {
  auto source = Start(kSparkRun);
  Read batch0 = Batch(*source, std::nullopt, "{\"offset\":7,\"timestamp\":1500}");
  EXPECT_EQ(batch0.values, (std::vector<int64_t>{0, 3, 6, 1, 4, 2, 5}));
  EXPECT_EQ(batch0.timestamps_us, std::vector<int64_t>(7, 1'000'000));
  Read batch1 =
      Batch(*source, "{\"offset\":7,\"timestamp\":1500}", "{\"offset\":14,\"timestamp\":2000}");
  EXPECT_EQ(batch1.values, (std::vector<int64_t>{7, 10, 13, 8, 11, 9, 12}));
  EXPECT_EQ(batch1.timestamps_us, std::vector<int64_t>(7, 1'500'000));
}

// Spark logs "The read limit MaxRows: 3 ... is ignored when Trigger.Once is used" and its
// source takes rowsPerBatch rows anyway.
TEST(RatePerMicroBatchSourceTest, TriggerOnceStillTakesOneBatchOfRows) {
  auto source = Start({{"rowsPerBatch", "3"}});
  EXPECT_EQ(Latest(*source, std::nullopt, ReadLimitMode::kAll),
            "{\"offset\":3,\"timestamp\":1000}");
}

TEST(RatePerMicroBatchSourceTest, AvailableNowRunsOneBatch) {
  auto source = Start({{"rowsPerBatch", "3"}});
  ASSERT_TRUE(source->PrepareForAvailableNow().ok());
  const std::string end = Latest(*source, std::nullopt);
  EXPECT_EQ(end, "{\"offset\":3,\"timestamp\":1000}");
  // Once that batch ran, nothing new is available.
  EXPECT_EQ(Latest(*source, end), end);
}

TEST(RatePerMicroBatchSourceTest, LargeBatchesComeInBoundedRecordBatches) {
  const int64_t rows = 2 * kRateRowsPerBatch + 5;
  auto source = Start({{"rowsPerBatch", std::to_string(rows)}});
  Read read = Batch(*source, std::nullopt, Latest(*source, std::nullopt));
  EXPECT_EQ(read.batch_sizes, (std::vector<int64_t>{kRateRowsPerBatch, kRateRowsPerBatch, 5}));
  ASSERT_EQ(read.values.size(), static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) ASSERT_EQ(read.values[i], i);
}

TEST(RatePerMicroBatchSourceTest, RejectsOffsetsOfAnotherShape) {
  auto source = Start({{"rowsPerBatch", "3"}});
  auto reader = source->GetBatch(std::nullopt, "5");
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("is not {\"offset\":<long>,\"timestamp\":<long>}"),
            std::string::npos);
  auto backwards = source->GetBatch(std::string("{\"offset\":6,\"timestamp\":2000}"),
                                    "{\"offset\":3,\"timestamp\":2000}");
  ASSERT_FALSE(backwards.ok());
}

}  // namespace
}  // namespace sluice::sources
