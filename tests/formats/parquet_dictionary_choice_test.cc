#include "sluice/formats/parquet_dictionary_choice.h"

#include <arrow/api.h>
#include <arrow/json/from_string.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice::formats {
namespace {

TEST(ParquetDictionaryChoiceTest, KeysGoPlainAndCategoriesKeepTheirDictionary) {
  arrow::Int64Builder ids, buckets;
  arrow::StringBuilder names, cities;
  arrow::DoubleBuilder prices;
  for (int64_t i = 0; i < 20000; ++i) {
    ASSERT_TRUE(ids.Append(i * 7919).ok());
    ASSERT_TRUE(buckets.Append(i % 16).ok());
    ASSERT_TRUE(names.Append("user-" + std::to_string(i)).ok());
    ASSERT_TRUE(cities.Append(i % 3 == 0 ? "Paris" : "Oslo").ok());
    ASSERT_TRUE(prices.Append(static_cast<double>(i) / 3).ok());
  }
  auto schema = arrow::schema({arrow::field("id", arrow::int64()),
                               arrow::field("bucket", arrow::int64()),
                               arrow::field("name", arrow::utf8()),
                               arrow::field("city", arrow::utf8()),
                               arrow::field("price", arrow::float64())});
  auto batch = arrow::RecordBatch::Make(
      schema, 20000,
      {ids.Finish().ValueOrDie(), buckets.Finish().ValueOrDie(), names.Finish().ValueOrDie(),
       cities.Finish().ValueOrDie(), prices.Finish().ValueOrDie()});
  EXPECT_THAT(ColumnsWithoutDictionary(*batch),
              ::testing::ElementsAre("id", "name", "price"));
}

TEST(ParquetDictionaryChoiceTest, NullsAndNestedColumnsAreLeftToTheWriter) {
  arrow::Int32Builder all_null;
  ASSERT_TRUE(all_null.AppendNulls(100).ok());
  std::shared_ptr<arrow::Array> lists =
      arrow::json::ArrayFromJSONString(arrow::list(arrow::int32()), "[[1], [2], null]")
          .ValueOrDie();
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("n", arrow::int32())}), 100, {all_null.Finish().ValueOrDie()});
  EXPECT_TRUE(ColumnsWithoutDictionary(*batch).empty());
  auto nested = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("l", arrow::list(arrow::int32()))}), 3, {lists});
  EXPECT_TRUE(ColumnsWithoutDictionary(*nested).empty());
}

}  // namespace
}  // namespace sluice::formats
