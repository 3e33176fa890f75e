// StringOutput: the row-by-row builder of string results, whose short appends are copied
// without a call to memcpy and whose validity is a bitmap only once a row is null; and
// Utf8Length.
#include "sluice/expr/functions/string_columns.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

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

TEST(StringOutputTest, PartsOfAWholeReadBackAsAppended) {
  // Every part of a 40-byte text (from every start, of every length, the empty one too), in
  // memory of the text's exact size: the parts near its end have fewer than 16 bytes after
  // their start, which must not be read past it (valgrind's memcheck would name the read).
  std::string text;
  for (int i = 0; i < 40; ++i) text.push_back(static_cast<char>('A' + (i * 7) % 50));
  const std::vector<char> exact(text.begin(), text.end());
  const std::string_view whole(exact.data(), exact.size());
  StringOutput out(0, 0, arrow::default_memory_pool());
  std::vector<std::string_view> parts = {std::string_view()};
  for (size_t start = 0; start <= whole.size(); ++start) {
    for (size_t length = 0; start + length <= whole.size(); ++length) {
      parts.push_back(whole.substr(start, length));
    }
  }
  for (const std::string_view part : parts) out.AppendRowWithin(part, whole);
  auto data = out.Finish();
  ASSERT_TRUE(data.ok()) << data.status();
  const arrow::StringArray strings(*data);
  ASSERT_TRUE(strings.ValidateFull().ok());
  ASSERT_EQ(strings.length(), static_cast<int64_t>(parts.size()));
  for (size_t row = 0; row < parts.size(); ++row) {
    ASSERT_EQ(strings.GetView(static_cast<int64_t>(row)), parts[row]) << "row " << row;
  }
}

TEST(StringOutputTest, NullsAnywhereAmongMoreRowsThanReserved) {
  // Reserved for 10 rows, given 1000: the first null comes after many valid rows (the
  // bitmap made then), others follow on both sides of each growth; none at all gives no
  // bitmap.
  for (const int64_t first_null : {int64_t{0}, int64_t{9}, int64_t{10}, int64_t{700}, int64_t{-1}}) {
    SCOPED_TRACE(first_null);
    StringOutput out(10, 0, arrow::default_memory_pool());
    auto is_null = [&](int64_t row) {
      return first_null >= 0 && row >= first_null && (row == first_null || row % 7 == 3);
    };
    for (int64_t row = 0; row < 1000; ++row) {
      if (is_null(row)) {
        out.Append("dropped");
        out.AppendNullRow();
      } else {
        out.AppendRow(std::to_string(row));
      }
    }
    auto data = out.Finish();
    ASSERT_TRUE(data.ok()) << data.status();
    const arrow::StringArray strings(*data);
    ASSERT_TRUE(strings.ValidateFull().ok());
    ASSERT_EQ(strings.length(), 1000);
    int64_t nulls = 0;
    for (int64_t row = 0; row < 1000; ++row) {
      if (is_null(row)) {
        ++nulls;
        EXPECT_TRUE(strings.IsNull(row)) << row;
      } else {
        EXPECT_EQ(strings.GetView(row), std::to_string(row)) << row;
      }
    }
    EXPECT_EQ(strings.null_count(), nulls);
    EXPECT_EQ((*data)->buffers[0] == nullptr, nulls == 0);
  }
}

TEST(Utf8LengthTest, CountsTheBytesThatAreNotContinuationBytesAtEveryLengthAndPosition) {
  // Characters of one to four bytes, and stray bytes, at every position of the blocks
  // counted at once and in the bytes after the last whole block.
  const std::vector<std::string> pieces = {"a", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                           "\x80", "\xFF", "~"};
  std::mt19937 random(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int count = static_cast<int>(random() % 24);
    for (int i = 0; i < count; ++i) text += pieces[random() % pieces.size()];
    int64_t expected = 0;
    for (unsigned char c : text) expected += (c & 0xC0) != 0x80;
    ASSERT_EQ(Utf8Length(text), expected) << "round " << round;
    // And from every offset, as rows of a values buffer start anywhere.
    for (size_t from = 1; from < text.size() && from < 9; ++from) {
      std::string_view rest(text.data() + from, text.size() - from);
      int64_t rest_expected = 0;
      for (unsigned char c : rest) rest_expected += (c & 0xC0) != 0x80;
      ASSERT_EQ(Utf8Length(rest), rest_expected) << "round " << round << " from " << from;
    }
  }
  EXPECT_EQ(Utf8Length(""), 0);
  EXPECT_EQ(Utf8Length("abcdefgh\xE2\x82\xAC"), 9);
}

}  // namespace
}  // namespace sluice::expr
