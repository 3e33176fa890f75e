// The hashing and comparison of grouping keys' bytes, against memcpy and memcmp, over lengths that
// take every path of each (up to two words, a 16-byte block, two chains of 32-byte steps).
#include "sluice/expr/key_bytes.h"

#include <cstring>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace sluice::expr {
namespace {

TEST(KeyBytesTest, TheTailIsWhatACopyIntoAZeroedWordHolds) {
  std::vector<uint8_t> bytes(40);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(0x81 + 7 * i);
  for (size_t length = 0; length <= bytes.size(); ++length) {
    const size_t rest = length % 8;
    uint64_t expected = 0;
    std::memcpy(&expected, bytes.data() + length - rest, rest);
    EXPECT_EQ(LoadTail(bytes.data(), length, rest), expected) << "length " << length;
  }
}

TEST(KeyBytesTest, KeysEqualExactlyWhenEveryByteIs) {
  for (size_t length = 0; length <= 80; ++length) {
    std::vector<uint8_t> a(length, 0x5a);
    std::vector<uint8_t> b = a;
    EXPECT_TRUE(EqualKeyBytes(a.data(), b.data(), length)) << "length " << length;
    for (size_t at = 0; at < length; ++at) {
      b[at] ^= 0x01;
      EXPECT_FALSE(EqualKeyBytes(a.data(), b.data(), length))
          << "length " << length << ", differing at " << at;
      b[at] ^= 0x01;
    }
  }
}

TEST(KeyBytesTest, EveryByteAndTheLengthChangeTheHash) {
  std::set<uint64_t> hashes;
  size_t keys = 0;
  std::vector<uint8_t> zeros(80, 0);
  for (size_t length = 0; length <= zeros.size(); ++length) {
    // Zero bytes of different lengths hash apart: the length is part of the hash.
    hashes.insert(HashKeyBytes(zeros.data(), length));
    ++keys;
    for (size_t at = 0; at < length; ++at) {
      std::vector<uint8_t> key(length, 0);
      key[at] = 1;
      hashes.insert(HashKeyBytes(key.data(), length));
      ++keys;
    }
  }
  EXPECT_EQ(hashes.size(), keys);
}

}  // namespace
}  // namespace sluice::expr
