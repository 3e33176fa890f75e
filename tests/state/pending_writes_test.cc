#include "sluice/state/pending_writes.h"

#include <algorithm>
#include <random>
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
  for (const PendingWrites::Change& change : pending.SortedChanges()) {
    const std::string_view key = change.key();
    const std::optional<std::string_view> value = change.value();
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
  for (const PendingWrites::Change& change : pending.SortedChanges()) {
    keys.emplace_back(change.key());
  }
  EXPECT_EQ(keys, sorted);
}

// Many keys: keys of random bytes, keys alike in their first bytes and differing in a few
// low bits only, keys alike in more than their first 8 bytes (one of them no more than
// those), keys differing in one bit of one byte.
TEST(PendingWritesTest, SortsManyKeysByAllTheirBytes) {
  std::mt19937_64 random(7);
  auto random_key = [&](std::string prefix, size_t max_extra) {
    const size_t extra = random() % (max_extra + 1);
    for (size_t i = 0; i < extra; ++i) prefix.push_back(static_cast<char>(random() & 0xff));
    return prefix;
  };
  std::vector<std::vector<std::string>> cases(5);
  for (int i = 0; i < 5000; ++i) cases[0].push_back(random_key("", 12));
  for (int i = 0; i < 5000; ++i) cases[1].push_back(random_key("same5", 4));
  for (int i = 0; i < 300; ++i) {
    cases[2].push_back(std::string("1234567") + static_cast<char>(random() % 4));
  }
  cases[3].push_back("a long shared start/");
  for (int i = 0; i < 3000; ++i) cases[3].push_back(random_key("a long shared start/", 10));
  for (int i = 0; i < 100; ++i) {
    cases[4].push_back(std::string("key") + static_cast<char>(random() % 2 == 0 ? 0 : 0x40) + "z");
  }
  for (std::vector<std::string>& keys : cases) {
    PendingWrites pending;
    for (const std::string& key : keys) pending.Put(key, "v");
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    std::vector<std::string> sorted;
    for (const PendingWrites::Change& change : pending.SortedChanges()) {
      sorted.emplace_back(change.key());
    }
    EXPECT_EQ(sorted, keys);
  }
}

// The batched calls see each key as the buffer held it just before: a key repeated within
// one PutMany shows its first put to the second.
TEST(PendingWritesTest, BatchedCallsSeeTheBufferAsItWasBeforeEachKey) {
  PendingWrites pending;
  pending.Put("a", "1");
  pending.Remove("b");
  const std::vector<std::string_view> keys = {"a", "b", "c", "c"};
  const std::vector<std::string_view> values = {"2", "3", "4", "5"};
  // What each key held: nothing, a removal ("-") or a value.
  std::vector<std::string> before;
  pending.PutMany(keys, values, [&](size_t i, const PendingWrites::Lookup& lookup) {
    EXPECT_EQ(before.size(), i);
    before.push_back(!lookup.changed ? "" : lookup.value ? std::string(*lookup.value) : "-");
  });
  EXPECT_EQ(before, (std::vector<std::string>{"1", "-", "", "4"}));

  std::vector<std::optional<std::string_view>> found;
  const std::vector<std::string_view> lookups = {"c", "x", "a", "b"};
  pending.FindMany(
      lookups.size(), [&](size_t i) { return lookups[i]; },
      [&](size_t i, const PendingWrites::Lookup& lookup) {
        EXPECT_EQ(found.size(), i);
        EXPECT_EQ(lookup.changed, lookups[i] != "x");
        found.push_back(lookup.value);
      });
  EXPECT_EQ(found, (std::vector<std::optional<std::string_view>>{"5", std::nullopt, "2", "3"}));
}

}  // namespace
}  // namespace sluice::state
