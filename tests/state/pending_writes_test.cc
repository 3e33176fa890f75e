#include "sluice/state/pending_writes.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sluice::state {
namespace {

TEST(PendingWritesTest, KeepsTheLastChangeOfEachKey) {
  PendingWrites pending;
  EXPECT_FALSE(pending.Find("a").changed);
  pending.Put("a", "1");
  pending.Put("b", "2");
  pending.Put("a", "one");
  pending.Remove("b");
  pending.Put("", std::string("\0\xff", 2));
  EXPECT_EQ(pending.size(), 3);
  PendingWrites::Lookup a = pending.Find("a");
  EXPECT_TRUE(a.changed);
  EXPECT_EQ(a.value, "one");
  PendingWrites::Lookup b = pending.Find("b");
  EXPECT_TRUE(b.changed);
  EXPECT_FALSE(b.value.has_value()) << "a removal";
  EXPECT_EQ(pending.Find("").value, std::string("\0\xff", 2));
  pending.Clear();
  EXPECT_EQ(pending.size(), 0);
  EXPECT_FALSE(pending.Find("a").changed);
}

TEST(PendingWritesTest, SortsChangesAsUnsignedBytes) {
  PendingWrites pending;
  // 0xff sorts after 'a' in RocksDB's bytewise order, though it is a negative char.
  for (std::string key : {"b", "\xff", "a", "ab", "", "\x01"}) pending.Put(key, "v" + key);
  pending.Remove("b");
  std::vector<std::string> keys;
  for (const auto& [key, value] : pending.SortedChanges()) {
    keys.emplace_back(key);
    EXPECT_EQ(value.has_value(), key != "b") << "b was removed";
    if (value) {
      EXPECT_EQ(value->substr(1), key);
    }
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"", "\x01", "a", "ab", "b", "\xff"}));
}

// Keys that agree in their first eight bytes, or differ only by trailing zero bytes, still
// sort by all their bytes.
TEST(PendingWritesTest, SortsKeysWithCommonPrefixesByAllTheirBytes) {
  PendingWrites pending;
  const std::vector<std::string> sorted = {std::string("a"),
                                           std::string("a\0", 2),
                                           std::string("a\0\0\0\0\0\0\0\0", 9),
                                           "abcdefgh",
                                           "abcdefgh\x01",
                                           "abcdefgh\xff",
                                           "abcdefgi"};
  for (auto it = sorted.rbegin(); it != sorted.rend(); ++it) pending.Put(*it, "v");
  std::vector<std::string> keys;
  for (const auto& [key, value] : pending.SortedChanges()) keys.emplace_back(key);
  EXPECT_EQ(keys, sorted);
}

}  // namespace
}  // namespace sluice::state
