#include "sluice/state/key_filter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

namespace sluice::state {
namespace {

uint64_t HashOf(int64_t key) {
  return KeyFilter::Hash(std::string_view(reinterpret_cast<const char*>(&key), sizeof(key)));
}

/// The hashes of the keys [0, n).
std::vector<uint64_t> HashesOf(int64_t n) {
  std::vector<uint64_t> hashes(n);
  for (int64_t key = 0; key < n; ++key) hashes[key] = HashOf(key);
  return hashes;
}

/// The share of the keys [first, first + n) the filter may hold.
double ShareMayContain(const KeyFilter& filter, int64_t first, int64_t n) {
  int64_t positives = 0;
  for (int64_t key = first; key < first + n; ++key) positives += filter.MayContain(HashOf(key));
  return static_cast<double>(positives) / static_cast<double>(n);
}

TEST(KeyFilterTest, HoldsEveryKeyAddedAcrossItsLayers) {
  KeyFilter filter(/*first_layer_keys=*/1000);
  EXPECT_FALSE(filter.MayContain(HashOf(1)));
  constexpr int64_t kKeys = 100'000;
  const std::vector<uint64_t> hashes = HashesOf(kKeys);
  filter.AddNewMany(hashes);
  // 1000 + 2000 + ... + 64000 first passes 100,000 keys at the 7th layer.
  EXPECT_EQ(filter.layers(), 7u);
  EXPECT_EQ(ShareMayContain(filter, 0, kKeys), 1.0) << "a false negative";
  int64_t seen = 0;
  filter.MayContainMany(hashes, [&](size_t i, bool may) {
        EXPECT_EQ(i, static_cast<size_t>(seen));
        EXPECT_TRUE(may) << "key " << i;
        ++seen;
      });
  EXPECT_EQ(seen, kKeys);
  EXPECT_EQ(filter.keys(), kKeys);
}

// A rebuild scans the database in the keys' byte order, in which little-endian integers come
// grouped by their low bytes; spread over the blocks by those alone, they would fill a few
// blocks of a layer while it seems to have room.
TEST(KeyFilterTest, KeysInByteOrderSpreadOverEveryBlock) {
  std::vector<int64_t> keys(500'000);
  for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<int64_t>(i);
  std::sort(keys.begin(), keys.end(), [](int64_t a, int64_t b) {
    return std::memcmp(&a, &b, sizeof(a)) < 0;
  });
  KeyFilter filter(/*first_layer_keys=*/1 << 16);
  for (int64_t key : keys) filter.Add(HashOf(key));
  EXPECT_GT(filter.keys(), 495'000) << "keys taken for held ones";
  EXPECT_LT(ShareMayContain(filter, 1'000'000, 200'000), 0.02);
}

TEST(KeyFilterTest, AKeyAddedTwiceCountsOnce) {
  KeyFilter filter(/*first_layer_keys=*/10);
  for (int round = 0; round < 3; ++round) {
    for (int64_t key = 0; key < 10; ++key) filter.Add(HashOf(key));
  }
  EXPECT_EQ(filter.keys(), 10);
  EXPECT_EQ(filter.layers(), 1u) << "re-adding held keys must not grow the filter";
}

TEST(KeyFilterTest, FalsePositivesStayRareAsLayersAccumulate) {
  // One full layer: about 0.2% of absent keys pass.
  KeyFilter one(/*first_layer_keys=*/200'000);
  one.AddNewMany(HashesOf(200'000));
  ASSERT_EQ(one.layers(), 1u);
  EXPECT_LT(ShareMayContain(one, 1'000'000, 200'000), 0.004);

  // Ten layers from 1,000 keys up: each full layer adds its share of false positives.
  KeyFilter layered(/*first_layer_keys=*/1000);
  layered.AddNewMany(HashesOf(1'000'000));
  EXPECT_EQ(layered.layers(), 10u);
  EXPECT_LT(ShareMayContain(layered, 10'000'000, 200'000), 0.03);
}

TEST(KeyFilterTest, MemoryFollowsTheKeysAtAboutTwoBytesEach) {
  KeyFilter filter(/*first_layer_keys=*/1 << 16);
  const int64_t empty = filter.memory_bytes();
  EXPECT_EQ(empty, (int64_t{1} << 16) * KeyFilter::kBitsPerKey / 8);
  filter.AddNewMany(HashesOf(1'000'000));
  // Layers for 64K, 128K, ..., 1M keys: at most twice the keys' share.
  EXPECT_LE(filter.memory_bytes(), 2 * 1'000'000 * KeyFilter::kBitsPerKey / 8 + empty);
}

}  // namespace
}  // namespace sluice::state
