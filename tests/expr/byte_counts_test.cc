// CountByte and CountContinuationBytes against a byte-by-byte count: texts of every length
// around the sixteen-byte blocks they count at once, from every offset, and texts long enough
// for the per-lane counters to be summed before they overflow.
#include "sluice/expr/functions/byte_counts.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace sluice::expr {
namespace {

int64_t CountOneByOne(std::string_view text, char c) {
  int64_t count = 0;
  for (char byte : text) count += byte == c;
  return count;
}

int64_t ContinuationOneByOne(std::string_view text) {
  int64_t count = 0;
  for (unsigned char byte : text) count += (byte & 0xC0) == 0x80;
  return count;
}

TEST(ByteCountsTest, CountTheBytesAtEveryLengthAndOffset) {
  // Bytes of every kind: the searched one, UTF-8 leads and continuations, 0x00 and 0xFF.
  const std::string alphabet = std::string("cabz\x80\xBF\xC0\xC3\xFF", 9) + std::string(1, '\0');
  std::mt19937 random(11);
  for (size_t length = 0; length <= 70; ++length) {
    std::string text;
    for (size_t i = 0; i < length + 16; ++i) text.push_back(alphabet[random() % alphabet.size()]);
    for (size_t from = 0; from < 16; ++from) {
      const std::string_view view(text.data() + from, length);
      ASSERT_EQ(CountByte(view, 'c'), CountOneByOne(view, 'c')) << length << " from " << from;
      ASSERT_EQ(CountByte(view, '\xFF'), CountOneByOne(view, '\xFF')) << length;
      ASSERT_EQ(CountByte(view, '\0'), CountOneByOne(view, '\0')) << length;
      ASSERT_EQ(CountContinuationBytes(view), ContinuationOneByOne(view))
          << length << " from " << from;
    }
  }
}

TEST(ByteCountsTest, CountTextsWhoseEveryByteMatchesPastTheLaneCountersLimit) {
  // 255 blocks fill a byte's counter; these need their lanes summed once or more.
  for (size_t length : {size_t{255 * 16}, size_t{255 * 16 + 1}, size_t{100000 + 7}}) {
    const std::string same(length, 'c');
    EXPECT_EQ(CountByte(same, 'c'), static_cast<int64_t>(length));
    EXPECT_EQ(CountByte(same, 'd'), 0);
    const std::string continuation(length, '\x80');
    EXPECT_EQ(CountContinuationBytes(continuation), static_cast<int64_t>(length));
  }
}

}  // namespace
}  // namespace sluice::expr
