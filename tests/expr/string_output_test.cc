// StringOutput: the row-by-row builder of string results, whose short appends are copied
// without a call to memcpy.
#include "sluice/expr/functions/string_columns.h"

#include <gtest/gtest.h>

#include <string>

namespace sluice::expr {
namespace {

TEST(StringOutputTest, RowsOfEveryLengthReadBackAsAppended) {
  // Each length from 0 to 40 bytes, appended whole, in two pieces, and as nulls between.
  std::string text;
  for (int i = 0; i < 40; ++i) text.push_back(static_cast<char>('a' + i % 26));
  StringOutput out(0, 0, arrow::default_memory_pool());
  for (size_t length = 0; length <= text.size(); ++length) {
    out.AppendRow(std::string_view(text).substr(0, length));
    out.Append(std::string_view(text).substr(0, length / 2));
    out.Append(std::string_view(text).substr(length / 2, length - length / 2));
    out.EndRow();
    out.AppendNullRow();
  }
  auto data = out.Finish();
  ASSERT_TRUE(data.ok()) << data.status();
  const arrow::StringArray strings(*data);
  ASSERT_EQ(strings.length(), 3 * static_cast<int64_t>(text.size() + 1));
  for (size_t length = 0; length <= text.size(); ++length) {
    const auto row = static_cast<int64_t>(3 * length);
    EXPECT_EQ(strings.GetView(row), text.substr(0, length));
    EXPECT_EQ(strings.GetView(row + 1), text.substr(0, length));
    EXPECT_TRUE(strings.IsNull(row + 2));
  }
}

}  // namespace
}  // namespace sluice::expr
