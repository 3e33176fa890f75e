// lower and upper of whole all-ASCII arrays (MapAsciiCase) against the row-by-row mapping.
#include <string>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/memory_pool.h>
#include <gtest/gtest.h>

#include "sluice/expr/functions/string_case.h"

namespace sluice::expr {
namespace {

std::shared_ptr<arrow::StringArray> Strings(const std::vector<std::optional<std::string>>& values) {
  arrow::StringBuilder builder;
  for (const auto& value : values) {
    EXPECT_TRUE((value ? builder.Append(*value) : builder.AppendNull()).ok());
  }
  return std::static_pointer_cast<arrow::StringArray>(builder.Finish().ValueOrDie());
}

// What the row-by-row path gives for `text`.
std::string RowByRow(const std::string& text, AsciiCase to) {
  StringOutput out(1, static_cast<int64_t>(text.size()) + 8, arrow::default_memory_pool());
  (to == AsciiCase::kLower ? AppendLower : AppendUpper)(text, out);
  out.EndRow();
  auto array = arrow::MakeArray(out.Finish().ValueOrDie());
  return std::string(static_cast<const arrow::StringArray&>(*array).GetView(0));
}

std::shared_ptr<arrow::StringArray> Mapped(const std::shared_ptr<arrow::Array>& input,
                                           AsciiCase to) {
  auto mapped = MapAsciiCase(arrow::Datum(input), to, arrow::default_memory_pool());
  EXPECT_TRUE(mapped.ok()) << mapped.status().ToString();
  if (!mapped.ok() || !mapped->has_value()) return nullptr;
  return std::static_pointer_cast<arrow::StringArray>((*mapped)->make_array());
}

TEST(AsciiCaseTest, EveryAsciiByteMapsAsTheRowsDo) {
  std::string all;
  for (int c = 1; c < 0x80; ++c) all.push_back(static_cast<char>(c));
  // Values of several lengths, so the check runs over whole words and a tail.
  auto input = Strings({all, std::nullopt, "", "Hello, World!", all.substr(60, 37)});
  for (AsciiCase to : {AsciiCase::kLower, AsciiCase::kUpper}) {
    auto mapped = Mapped(input, to);
    ASSERT_NE(mapped, nullptr);
    ASSERT_EQ(mapped->length(), input->length());
    for (int64_t row = 0; row < input->length(); ++row) {
      ASSERT_EQ(mapped->IsNull(row), input->IsNull(row)) << row;
      if (input->IsValid(row)) {
        EXPECT_EQ(mapped->GetView(row), RowByRow(input->GetString(row), to)) << row;
      }
    }
  }
  EXPECT_EQ(Mapped(input, AsciiCase::kLower)->GetView(3), "hello, world!");
  EXPECT_EQ(Mapped(input, AsciiCase::kUpper)->GetView(3), "HELLO, WORLD!");
}

TEST(AsciiCaseTest, ASliceKeepsItsOffsetAndNulls) {
  // The rows before the slice are empty, so its values start at the first byte.
  auto input = Strings({"", std::nullopt, "MiXed", std::nullopt, "Case"})->Slice(1);
  auto mapped = Mapped(input, AsciiCase::kLower);
  ASSERT_NE(mapped, nullptr);
  ASSERT_TRUE(mapped->ValidateFull().ok());
  auto expected = Strings({std::nullopt, "mixed", std::nullopt, "case"});
  EXPECT_TRUE(mapped->Equals(*expected)) << mapped->ToString();
}

TEST(AsciiCaseTest, OtherInputIsLeftToTheRows) {
  // A byte outside ASCII anywhere, even in a null row's span.
  EXPECT_EQ(Mapped(Strings({"abc", "straße"}), AsciiCase::kUpper), nullptr);
  EXPECT_EQ(Mapped(Strings({"abcdefghij", "klmnopq\xC3\xA9"}), AsciiCase::kUpper), nullptr);
  // Values that start past the first byte of the data.
  EXPECT_EQ(Mapped(Strings({"skipped", "Kept"})->Slice(1), AsciiCase::kLower), nullptr);
  auto scalar = MapAsciiCase(arrow::Datum(std::make_shared<arrow::StringScalar>("A")),
                             AsciiCase::kLower, arrow::default_memory_pool());
  ASSERT_TRUE(scalar.ok());
  EXPECT_FALSE(scalar->has_value());
}

}  // namespace
}  // namespace sluice::expr
