// LiteralPart and PartWithinFirst64 (one part of a split, for split(...)[i]) against
// LiteralSplitter, which splits as Java's String.split does.
#include "sluice/expr/functions/literal_splitter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace sluice::expr {
namespace {

std::vector<std::string> AllParts(std::string_view text, std::string_view separator,
                                  int64_t limit) {
  std::vector<std::string> parts;
  LiteralSplitter splitter(text, separator, limit);
  while (auto part = splitter.Next()) parts.emplace_back(*part);
  return parts;
}

TEST(LiteralSplitterTest, OnePartIsThatPartOfTheSplit) {
  std::mt19937 random(42);
  const std::string alphabet = "ab/;";
  for (int trial = 0; trial < 20000; ++trial) {
    // Up to 80 bytes: separators before, across and after the 16-byte blocks.
    std::string text(random() % 81, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    for (std::string_view separator : {"/", ";;"}) {
      for (int64_t limit : {-1, 0, 1, 2, 3, 7}) {
        const auto parts = AllParts(text, separator, limit);
        for (int64_t position = -1; position <= static_cast<int64_t>(parts.size()) + 1;
             ++position) {
          const auto part = LiteralPart(text, separator, limit, position);
          const bool exists = position >= 0 && position < static_cast<int64_t>(parts.size());
          ASSERT_EQ(part.has_value(), exists)
              << "'" << text << "' at '" << separator << "', limit " << limit << ", part "
              << position;
          if (exists) {
            ASSERT_EQ(*part, parts[static_cast<size_t>(position)])
                << "'" << text << "' at '" << separator << "', limit " << limit << ", part "
                << position;
          }
        }
      }
    }
  }
}

TEST(LiteralSplitterTest, PartWithinFirst64IsThatPartOfTheSplit) {
  std::mt19937 random(7);
  const std::string alphabet = "ab/;";
  for (int trial = 0; trial < 20000; ++trial) {
    // Texts up to 100 bytes (separators before, at and after byte 64), in buffers with 0 to
    // 80 bytes after them.
    const size_t length = random() % 101;
    std::string buffer(length + random() % 81, ';');
    for (size_t i = 0; i < length; ++i) buffer[i] = alphabet[random() % alphabet.size()];
    const std::string_view text(buffer.data(), length);
    const auto parts = AllParts(text, "/", -1);
    for (int64_t position = 0; position <= static_cast<int64_t>(parts.size()) + 1; ++position) {
      size_t start = 0;
      size_t end = 0;
      const int found = PartWithinFirst64(text, buffer, '/', position, &start, &end);
      // Streamed only when an assertion fails.
      auto context = [&] {
        return ::testing::Message() << "'" << text << "' in " << buffer.size() << " bytes, part "
                                    << position;
      };
      if (length > 0 && buffer.size() >= 64 && length <= 64) {
        ASSERT_NE(found, -1) << context();  // a text within its first 64 bytes is always cut
      }
      if (found == -1) continue;
      const bool exists = position < static_cast<int64_t>(parts.size());
      ASSERT_EQ(found == 1, exists) << context();
      if (exists) {
        ASSERT_EQ(text.substr(start, end - start), parts[static_cast<size_t>(position)])
            << context();
      }
    }
  }
}

TEST(LiteralSplitterTest, AfterNthByteCountsAcrossBlocks) {
  const std::string url = "https://www.nexmark.com/abcde/fghij/klmno/item.htm?query=1";
  EXPECT_EQ(AfterNthByte(url, '/', 1, 0), 7u);
  EXPECT_EQ(AfterNthByte(url, '/', 3, 0), 24u);
  EXPECT_EQ(AfterNthByte(url, '/', 6, 0), 42u);
  EXPECT_EQ(AfterNthByte(url, '/', 7, 0), std::string_view::npos);
  EXPECT_EQ(AfterNthByte(url, '/', 1, 24), 30u);
  EXPECT_EQ(AfterNthByte("", '/', 1, 0), std::string_view::npos);
  // Every byte the separator: the n-th ends at n.
  const std::string slashes(100, '/');
  for (int64_t n = 1; n <= 100; ++n) {
    EXPECT_EQ(AfterNthByte(slashes, '/', n, 0), static_cast<size_t>(n));
  }
  EXPECT_EQ(AfterNthByte(slashes, '/', 101, 0), std::string_view::npos);
}

}  // namespace
}  // namespace sluice::expr
