#include "sluice/common/crc32.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include <arrow/util/crc32.h>

namespace sluice {
namespace {

TEST(Crc32Test, IsTheCrcOfZlibAndGzip) {
  const std::string check = "123456789";  // the standard check input of CRC-32
  EXPECT_EQ(Crc32(0, check.data(), check.size()), 0xCBF43926u);
  EXPECT_EQ(Crc32(0, nullptr, 0), 0u);
}

// State files and changelogs written before store Arrow's crc32 of the same bytes: every
// length, alignment and split of a run must give what it gives, or their readers would
// reject checkpoints that are whole.
TEST(Crc32Test, MatchesTheChecksumsOfCheckpointsWrittenBefore) {
  std::mt19937_64 random(7);
  std::string bytes(3 << 20, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  for (size_t length : {size_t{1}, size_t{15}, size_t{64}, size_t{255}, size_t{4097},
                        size_t{1} << 20, bytes.size() - 3}) {
    for (size_t start : {size_t{0}, size_t{1}, size_t{3}}) {
      const char* data = bytes.data() + start;
      const uint32_t whole = arrow::internal::crc32(0, data, length);
      EXPECT_EQ(Crc32(0, data, length), whole) << length << " bytes from " << start;
      const size_t split = random() % length;
      EXPECT_EQ(Crc32(Crc32(0, data, split), data + split, length - split), whole)
          << length << " bytes from " << start << " split at " << split;
    }
  }
}

}  // namespace
}  // namespace sluice
