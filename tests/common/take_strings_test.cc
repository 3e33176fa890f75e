// TakeStrings: the rows Arrow's Take gives, for values with nulls and at an offset, rows with
// nulls of their own, and both index types; TakeColumn the same for columns of any type,
// sliced ones included.
#include "sluice/common/take_strings.h"

#include <random>
#include <type_traits>

#include <arrow/api.h>
#include <arrow/compute/api_vector.h>
#include <arrow/json/from_string.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

/// 300 strings of 0-40 bytes, one in 9 null, as a slice from offset 7.
std::shared_ptr<arrow::Array> Values(const std::shared_ptr<arrow::DataType>& type) {
  std::unique_ptr<arrow::ArrayBuilder> builder;
  EXPECT_TRUE(arrow::MakeBuilder(arrow::default_memory_pool(), type, &builder).ok());
  auto& strings = static_cast<arrow::BinaryBuilder&>(*builder);
  for (int i = 0; i < 307; ++i) {
    EXPECT_TRUE((i % 9 == 4 ? strings.AppendNull()
                            : strings.Append(std::string(i % 41, static_cast<char>('a' + i % 26))))
                    .ok());
  }
  return builder->Finish().ValueOrDie()->Slice(7);
}

template <typename Index>
void ExpectSameAsTake(const std::shared_ptr<arrow::Array>& values, bool row_nulls) {
  std::mt19937 random(11);
  std::vector<Index> indices(5000);
  arrow::NumericBuilder<typename arrow::CTypeTraits<Index>::ArrowType> index_builder;
  arrow::BooleanBuilder validity;
  for (auto& index : indices) {
    index = static_cast<Index>(random() % values->length());
    const bool valid = !row_nulls || random() % 5 != 0;
    ASSERT_TRUE((valid ? index_builder.Append(index) : index_builder.AppendNull()).ok());
    ASSERT_TRUE(validity.Append(valid).ok());
  }
  auto index_array = index_builder.Finish().ValueOrDie();
  auto bits = validity.Finish().ValueOrDie();
  const uint8_t* row_validity = row_nulls ? bits->data()->buffers[1]->data() : nullptr;
  const auto rows = static_cast<int64_t>(indices.size());
  arrow::Result<std::shared_ptr<arrow::ArrayData>> taken;
  if constexpr (std::is_same_v<Index, int32_t>) {
    taken = TakeStrings(*values->data(), indices.data(), rows, row_validity, 0,
                        arrow::default_memory_pool());
  } else {
    taken = TakeStrings(*values->data(), indices.data(), rows, arrow::default_memory_pool());
  }
  ASSERT_TRUE(taken.ok()) << taken.status();
  auto ours = arrow::MakeArray(*taken);
  ASSERT_TRUE(ours->ValidateFull().ok()) << ours->ValidateFull();
  auto expected = arrow::compute::Take(values, index_array).ValueOrDie().make_array();
  EXPECT_TRUE(ours->Equals(*expected));
  EXPECT_EQ(ours->null_count(), expected->null_count());
}

TEST(TakeStringsTest, GivesTheRowsArrowsTakeGives) {
  for (const auto& type : {arrow::utf8(), arrow::binary()}) {
    SCOPED_TRACE(type->ToString());
    auto values = Values(type);
    ExpectSameAsTake<int32_t>(values, false);
    ExpectSameAsTake<int32_t>(values, true);
    ExpectSameAsTake<uint32_t>(values, false);
  }
}

TEST(TakeStringsTest, HasNoValidityWhenNoRowIsNullAndNamesAnIndexOutsideTheValues) {
  auto values = arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["ab", null, "c"])")
                    .ValueOrDie();
  const std::vector<int32_t> present = {0, 2, 2, 0};
  auto taken = TakeStrings(*values->data(), present.data(), 4, nullptr, 0,
                           arrow::default_memory_pool());
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_EQ((*taken)->buffers[0], nullptr);
  EXPECT_EQ((*taken)->null_count, 0);
  const std::vector<int32_t> outside = {0, 3};
  auto failed = TakeStrings(*values->data(), outside.data(), 2, nullptr, 0,
                            arrow::default_memory_pool());
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.status().message(), ::testing::HasSubstr("index 3 of row 1 is outside"));
}

TEST(TakeStringsTest, CopiesInChunksOnlyWhereTheValuesBytesGoOn) {
  // Values of 1 to 60 bytes in memory of their exact size, so that a chunk read past the end
  // of the last ones is one a memory checker sees (valgrind's memcheck names it); each taken
  // in turn, last first, and twice.
  std::string all;
  std::vector<int32_t> offsets = {0};
  for (int length = 1; length <= 60; ++length) {
    for (int i = 0; i < length; ++i) all.push_back(static_cast<char>('A' + (length + i) % 50));
    offsets.push_back(static_cast<int32_t>(all.size()));
  }
  const std::vector<uint8_t> bytes(all.begin(), all.end());
  const std::vector<int32_t> exact_offsets(offsets.begin(), offsets.end());
  const int64_t count = static_cast<int64_t>(offsets.size()) - 1;
  arrow::StringArray values(
      count,
      std::make_shared<arrow::Buffer>(reinterpret_cast<const uint8_t*>(exact_offsets.data()),
                                      static_cast<int64_t>(exact_offsets.size() * 4)),
      std::make_shared<arrow::Buffer>(bytes.data(), static_cast<int64_t>(bytes.size())));
  std::vector<uint32_t> indices;
  for (int64_t i = count - 1; i >= 0; --i) indices.push_back(static_cast<uint32_t>(i));
  for (int64_t i = count - 1; i >= 0; --i) indices.push_back(static_cast<uint32_t>(i));
  auto taken = TakeStrings(*values.data(), indices.data(), static_cast<int64_t>(indices.size()),
                           arrow::default_memory_pool());
  ASSERT_TRUE(taken.ok()) << taken.status();
  arrow::StringArray result(*taken);
  ASSERT_TRUE(result.ValidateFull().ok());
  EXPECT_EQ(result.value_data()->size(), 2 * static_cast<int64_t>(bytes.size()));
  for (size_t row = 0; row < indices.size(); ++row) {
    ASSERT_EQ(result.GetView(static_cast<int64_t>(row)),
              values.GetView(static_cast<int64_t>(indices[row])))
        << "row " << row;
  }
}

/// TakeColumn of `indices` from `column` gives what Arrow's Take gives, nulls included.
void ExpectTakeColumnAsArrowsTake(const std::shared_ptr<arrow::Array>& column,
                                  const std::vector<uint32_t>& indices) {
  auto taken = TakeColumn(*column, indices, arrow::default_memory_pool());
  ASSERT_TRUE(taken.ok()) << taken.status();
  ASSERT_TRUE((*taken)->ValidateFull().ok());
  arrow::UInt32Builder index_builder;
  ASSERT_TRUE(index_builder.AppendValues(indices).ok());
  auto index_array = index_builder.Finish().ValueOrDie();
  auto expected = arrow::compute::Take(column, index_array).ValueOrDie().make_array();
  EXPECT_TRUE((*taken)->Equals(*expected)) << (*taken)->ToString();
  EXPECT_EQ((*taken)->null_count(), expected->null_count());
}

TEST(TakeStringsTest, TakeColumnGivesTheRowsArrowsTakeGivesForEveryType) {
  for (const auto& [type, json] :
       std::vector<std::pair<std::shared_ptr<arrow::DataType>, std::string>>{
           {arrow::utf8(), R"(["ab", null, "", "cde"])"},
           {arrow::binary(), R"(["ab", null, "", "cde"])"},
           {arrow::large_utf8(), R"(["ab", null, "", "cde"])"},
           {arrow::int8(), "[1, null, -3, 4]"},
           {arrow::int16(), "[1, null, -3, 4]"},
           {arrow::int32(), "[1, null, -3, 4]"},
           {arrow::int64(), "[1, null, 3, 4]"},
           {arrow::float64(), "[1.5, null, -0.0, 4]"},
           {arrow::date32(), "[1, null, 3, 4]"},
           {arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), "[1, null, 3, 4]"},
           {arrow::decimal128(30, 3), R"(["1.500", null, "-12345678901234567890.123", "4.000"])"},
           {arrow::boolean(), "[true, null, false, true]"},
           {arrow::list(arrow::int32()), "[[1], null, [], [2, 3]]"},
           {arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("s", arrow::utf8())}),
            R"([{"a": 1, "s": "x"}, null, {"a": null, "s": "yz"}, {"a": 4, "s": null}])"}}) {
    SCOPED_TRACE(type->ToString());
    ExpectTakeColumnAsArrowsTake(arrow::json::ArrayFromJSONString(type, json).ValueOrDie(),
                                 {3, 0, 3, 1, 2});
  }
}

TEST(TakeStringsTest, TakeColumnTakesFixedWidthValuesFromTheirOffset) {
  // Sliced from row 2, with and without nulls among the rows taken.
  for (const auto& [type, json] :
       std::vector<std::pair<std::shared_ptr<arrow::DataType>, std::string>>{
           {arrow::int64(), "[9, 9, 1, null, 3, 4, 5]"},
           {arrow::int64(), "[9, null, 1, 2, 3, 4, 5]"},
           {arrow::decimal128(38, 0),
            R"(["9", "9", "1", null, "-99999999999999999999999999999999999999", "4", "5"])"}}) {
    SCOPED_TRACE(json);
    ExpectTakeColumnAsArrowsTake(
        arrow::json::ArrayFromJSONString(type, json).ValueOrDie()->Slice(2), {4, 2, 0, 2, 3});
  }
}

TEST(TakeStringsTest, TakeColumnTakesAStructsFieldsFromItsOffset) {
  // A struct sliced from row 2: its fields hold rows from their own offset 0.
  auto column = arrow::json::ArrayFromJSONString(
                    arrow::struct_({arrow::field("s", arrow::utf8()),
                                    arrow::field("b", arrow::boolean())}),
                    R"([{"s": "skipped", "b": true}, null, {"s": "a", "b": false}, null,
                        {"s": null, "b": true}, {"s": "bcd", "b": null}])")
                    .ValueOrDie()
                    ->Slice(2);
  ExpectTakeColumnAsArrowsTake(column, {3, 1, 0, 2, 0});
}

}  // namespace
}  // namespace sluice
