// SortByKey: the bytewise order of std::string_view (and of RocksDB's BytewiseComparator),
// whatever the keys share at their start.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/state/key_order.h"

namespace sluice::state {
namespace {

/// `n` keys that all start with `shared`, then 0 to 20 random bytes (zeros and bytes above
/// 127 included), some of them twice, some a copy of another with zeros appended.
std::vector<std::string> KeysSharing(const std::string& shared, size_t n, std::mt19937_64& random) {
  std::uniform_int_distribution<int> length(0, 20), byte(0, 255), pick(0, 9);
  std::vector<std::string> keys;
  while (keys.size() < n) {
    if (!keys.empty() && pick(random) == 0) {
      keys.push_back(keys[static_cast<size_t>(byte(random)) % keys.size()]);
      if (pick(random) < 5) keys.back().append(static_cast<size_t>(pick(random)) + 1, '\0');
      continue;
    }
    std::string key = shared;
    for (int i = length(random); i > 0; --i) key.push_back(static_cast<char>(byte(random)));
    keys.push_back(std::move(key));
  }
  return keys;
}

TEST(KeyOrderTest, SortsAsBytewiseComparisonWhateverTheKeysShare) {
  std::mt19937_64 random(7);
  for (size_t shared_length : {0, 1, 3, 7, 8, 9, 15, 16, 17, 30}) {
    std::string shared;
    for (size_t i = 0; i < shared_length; ++i) shared.push_back(static_cast<char>(200 + i % 50));
    std::vector<std::string> keys = KeysSharing(shared, 3000, random);
    std::vector<KeyOrderEntry<uint32_t>> entries(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) entries[i].payload = static_cast<uint32_t>(i);
    SortByKey(&entries, [&](uint32_t i) { return std::string_view(keys[i]); });
    std::vector<std::string> sorted;
    for (const auto& entry : entries) sorted.push_back(keys[entry.payload]);
    std::vector<std::string> expected = keys;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(sorted, expected) << shared_length << " bytes shared";
  }
}

TEST(KeyOrderTest, SortsNothingAndOneKey) {
  std::vector<KeyOrderEntry<int>> none;
  SortByKey(&none, [](int) { return std::string_view("k"); });
  EXPECT_TRUE(none.empty());
  std::vector<KeyOrderEntry<int>> one = {{5, 0}};
  SortByKey(&one, [](int) { return std::string_view(""); });
  EXPECT_EQ(one.front().payload, 5);
}

}  // namespace
}  // namespace sluice::state
