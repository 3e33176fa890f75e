// The in-memory store's hash table against std::map under random inserts, overwrites of every
// size and removals (which exercise backward-shift removal, growth and arena compaction).
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/state/arena_hash_table.h"

namespace sluice::state {
namespace {

std::map<std::string, std::string> Contents(const ArenaHashTable& table) {
  std::map<std::string, std::string> contents;
  table.ForEach([&](std::string_view key, std::string_view value) {
    EXPECT_TRUE(contents.emplace(std::string(key), std::string(value)).second) << key;
  });
  return contents;
}

TEST(ArenaHashTableTest, MatchesAMapUnderRandomChanges) {
  ArenaHashTable table;
  std::map<std::string, std::string> expected;
  std::mt19937_64 random(42);
  for (int step = 0; step < 200000; ++step) {
    std::string key = "key-" + std::to_string(random() % 5000);
    switch (random() % 4) {
      case 0:
      case 1: {
        std::string value(random() % 24, static_cast<char>('a' + step % 26));
        table.Upsert(key, value);
        expected[key] = value;
        break;
      }
      case 2:
        EXPECT_EQ(table.Erase(key), expected.erase(key) == 1) << key;
        break;
      default: {
        auto found = table.Find(key);
        auto it = expected.find(key);
        ASSERT_EQ(found.has_value(), it != expected.end()) << key;
        if (found) {
          EXPECT_EQ(*found, it->second) << key;
        }
      }
    }
  }
  EXPECT_EQ(table.size(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(Contents(table), expected);
  int64_t record_bytes = 0;
  for (const auto& [key, value] : expected) record_bytes += 8 + key.size() + value.size();
  EXPECT_EQ(table.record_bytes(), record_bytes);
}

// A full index has long clusters: entries far enough from home that their slot cannot say
// how far (removal then works it out from the key) besides the many that can. Removals in
// random order leave every other entry where a lookup finds it.
TEST(ArenaHashTableTest, RemovalsKeepEveryEntryReachableInAFullIndex) {
  ArenaHashTable table;
  // Just under three quarters of 2^20 slots: the index is as full as it gets.
  constexpr int kKeys = 786000;
  for (int key = 0; key < kKeys; ++key) table.Upsert(std::to_string(key), "v");
  ASSERT_EQ(table.slot_count(), size_t{1} << 20);
  std::vector<int> order(kKeys);
  for (int key = 0; key < kKeys; ++key) order[key] = key;
  std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
  for (int i = 0; i < kKeys / 2; ++i) ASSERT_TRUE(table.Erase(std::to_string(order[i])));
  for (int i = 0; i < kKeys; ++i) {
    const bool kept = i >= kKeys / 2;
    ASSERT_EQ(table.Find(std::to_string(order[i])).has_value(), kept) << order[i];
  }
  EXPECT_EQ(table.size(), kKeys - kKeys / 2);
}

TEST(ArenaHashTableTest, EmptyKeysAndValuesAreEntries) {
  ArenaHashTable table;
  table.Upsert("", "");
  table.Upsert("k", "");
  ASSERT_TRUE(table.Find("").has_value());
  EXPECT_EQ(*table.Find("k"), "");
  EXPECT_FALSE(table.Find("other").has_value());
  EXPECT_TRUE(table.Erase(""));
  EXPECT_FALSE(table.Erase(""));
  EXPECT_EQ(table.size(), 1);
}

TEST(ArenaHashTableTest, CompactionBoundsMemoryUnderChurn) {
  ArenaHashTable table;
  // Values change size at every write, so each write leaves its old record as garbage.
  for (int round = 0; round < 200; ++round) {
    for (int key = 0; key < 1000; ++key) {
      table.Upsert(std::to_string(key), std::string(8 + round % 2, 'v'));
    }
  }
  // 1000 live records of ~21 bytes: compaction keeps the arena within a small multiple.
  EXPECT_LT(table.memory_used_bytes(), 512 * 1024);
  EXPECT_EQ(table.size(), 1000);
  EXPECT_EQ(*table.Find("999"), std::string(9, 'v'));
}

// ForEach walks the arena while every record in it is an entry's (inserts, overwrites with
// values of the same length, over several blocks), and the index once some are garbage
// (a value of another length, a removal): each entry once, as it is now, either way.
TEST(ArenaHashTableTest, ForEachShowsEachEntryOnceWithOrWithoutGarbage) {
  ArenaHashTable table;
  std::map<std::string, std::string> expected;
  for (int key = 0; key < 50000; ++key) {
    expected[std::to_string(key)] = std::string(key % 7, 'a');
    table.Upsert(std::to_string(key), expected[std::to_string(key)]);
  }
  for (int key = 0; key < 50000; key += 3) {
    expected[std::to_string(key)] = std::string(key % 7, 'b');
    table.Upsert(std::to_string(key), expected[std::to_string(key)]);
  }
  ASSERT_EQ(table.garbage_bytes(), 0);
  EXPECT_EQ(Contents(table), expected);
  expected["5"] = "a longer value";
  table.Upsert("5", expected["5"]);
  expected.erase("6");
  table.Erase("6");
  ASSERT_GT(table.garbage_bytes(), 0);
  EXPECT_EQ(Contents(table), expected);
}

TEST(ArenaHashTableTest, ForEachReadsTheArenaInOrderPastDiscardedRecords) {
  // The walk reads records in the order they were written, skipping those of removed and
  // replaced entries, also while the table holds garbage (an index walk would go in hash
  // order): eviction scans depend on reading memory in order.
  ArenaHashTable table;
  for (int key = 0; key < 1000; ++key) table.Upsert(std::to_string(key), "v");
  std::vector<std::string> expected;
  for (int key = 0; key < 1000; ++key) {
    if (key % 3 == 0) {
      table.Erase(std::to_string(key));
    } else if (key % 3 == 1) {
      expected.push_back(std::to_string(key));
    }
  }
  for (int key = 2; key < 1000; key += 3) {
    table.Upsert(std::to_string(key), "a longer value");  // appended: a new record
    expected.push_back(std::to_string(key));
  }
  ASSERT_GT(table.garbage_bytes(), 0);
  std::vector<std::string> seen;
  table.ForEach([&](std::string_view key, std::string_view) { seen.emplace_back(key); });
  EXPECT_EQ(seen, expected);
}

// A scan split in parts (a join's eviction scans one store on two threads): the parts walked
// one after the other are ForEach's walk, the arena's blocks split about evenly, walked at
// once they find the same, and a table of one block (or none) is one part's.
TEST(ArenaHashTableTest, PartsOfAWalkAreForEachsWalkSplitEvenly) {
  ArenaHashTable table;
  // About 80 MB of records: ten blocks of the largest size and the smaller first ones.
  for (int key = 0; key < 700000; ++key) {
    table.Upsert(std::to_string(key), std::string(80 + key % 50, 'v'));
  }
  for (int key = 0; key < 700000; key += 5) table.Erase(std::to_string(key));
  std::vector<std::string> walked;
  table.ForEach([&](std::string_view key, std::string_view) { walked.emplace_back(key); });
  for (size_t parts : {1, 2, 3, 7}) {
    std::vector<std::vector<std::string>> of_part(parts);
    std::vector<std::thread> threads;
    for (size_t part = 0; part < parts; ++part) {
      threads.emplace_back([&, part] {
        table.ForEachOfPart(part, parts, [&](std::string_view key, std::string_view) {
          of_part[part].emplace_back(key);
        });
      });
    }
    for (auto& thread : threads) thread.join();
    std::vector<std::string> joined;
    for (const auto& keys : of_part) {
      if (parts <= 3) {  // a part is whole blocks: within half a block of an even split
        const double even = static_cast<double>(walked.size()) / static_cast<double>(parts);
        EXPECT_GT(static_cast<double>(keys.size()), 0.7 * even) << parts << " parts";
        EXPECT_LT(static_cast<double>(keys.size()), 1.3 * even) << parts << " parts";
      }
      joined.insert(joined.end(), keys.begin(), keys.end());
    }
    EXPECT_EQ(joined, walked) << parts << " parts";
  }
  ArenaHashTable small;
  small.Upsert("a", "1");
  small.Upsert("b", "2");
  size_t seen = 0;
  for (size_t part = 0; part < 2; ++part) {
    small.ForEachOfPart(part, 2, [&](std::string_view, std::string_view) { ++seen; });
  }
  EXPECT_EQ(seen, 2u);
  ArenaHashTable empty;
  for (size_t part = 0; part < 2; ++part) {
    empty.ForEachOfPart(part, 2, [&](std::string_view, std::string_view) { ADD_FAILURE(); });
  }
}

TEST(ArenaHashTableTest, ClearReleasesEverything) {
  ArenaHashTable table;
  for (int key = 0; key < 10000; ++key) table.Upsert(std::to_string(key), "value");
  int64_t full = table.memory_used_bytes();
  table.Clear();
  EXPECT_EQ(table.size(), 0);
  EXPECT_LT(table.memory_used_bytes(), full / 10);
  EXPECT_FALSE(table.Find("1").has_value());
}

// Reserve sizes the index once: the entries it was sized for then fit without growing it,
// and those already held stay findable.
TEST(ArenaHashTableTest, ReserveSizesTheIndexForTheEntriesToCome) {
  for (int held : {0, 100}) {
    ArenaHashTable table;
    for (int key = 0; key < held; ++key) table.Upsert(std::to_string(key), "v");
    table.Reserve(10000);
    const size_t slots = table.slot_count();
    EXPECT_GE(slots * 3, size_t{10000} * 4);
    EXPECT_LT(slots * 3, size_t{10000} * 4 * 2) << "no more than the next power of two";
    for (int key = 0; key < 10000; ++key) table.Upsert(std::to_string(key), "value");
    EXPECT_EQ(table.slot_count(), slots);
    EXPECT_EQ(table.size(), 10000);
    EXPECT_EQ(*table.Find("42"), "value");
    table.Reserve(10);
    EXPECT_EQ(table.slot_count(), slots) << "never shrinks";
  }
}

TEST(ArenaHashTableTest, PipelinedVisitsEveryKeyInOrderWithItsHash) {
  // Runs shorter and longer than the pipeline's lookahead, visits that insert (the table
  // grows under the pipeline) and visits that look up.
  for (size_t n : {0, 1, 5, 16, 17, 5000}) {
    ArenaHashTable table;
    std::vector<std::string> keys;
    for (size_t i = 0; i < n; ++i) keys.push_back("key-" + std::to_string(i % 3000));
    std::vector<size_t> visited;
    table.Pipelined(
        n, [&](size_t i) { return std::string_view(keys[i]); },
        [&](size_t i, uint64_t hash) {
          visited.push_back(i);
          EXPECT_EQ(hash, ArenaHashTable::Hash(keys[i]));
          table.MarkingUpsertHashed(keys[i], hash, keys[i], [](auto) {});
        });
    std::vector<size_t> in_order(n);
    for (size_t i = 0; i < n; ++i) in_order[i] = i;
    EXPECT_EQ(visited, in_order);
    EXPECT_EQ(table.size(), static_cast<int64_t>(std::min<size_t>(n, 3000)));
    size_t found = 0;
    table.Pipelined(
        n, [&](size_t i) { return std::string_view(keys[i]); },
        [&](size_t i, uint64_t hash) {
          auto value = table.FindHashed(keys[i], hash);
          found += value.has_value() && *value == keys[i];
        });
    EXPECT_EQ(found, n);
  }
}

// Marks stay with their entries while the index grows, removals shift entries and the
// arena is compacted; the first marking upsert of an entry shows its value, later ones do not.
TEST(ArenaHashTableTest, MarksFollowTheirEntries) {
  ArenaHashTable table;
  for (int key = 0; key < 1000; ++key) table.Upsert(std::to_string(key), "old");
  std::map<std::string, std::string> shown;
  std::set<std::string> marked;
  auto mark = [&](const std::string& key, const std::string& value) {
    table.MarkingUpsertHashed(key, ArenaHashTable::Hash(key), value,
                              [&](std::optional<std::string_view> previous) {
                                EXPECT_TRUE(shown.emplace(key, previous.value_or("-")).second)
                                    << key;
                              });
    marked.insert(key);
  };
  for (int key = 0; key < 1000; key += 3) mark(std::to_string(key), "new");
  for (int key = 0; key < 1000; key += 6) mark(std::to_string(key), "newer and longer");
  mark("absent before", "x");
  for (int key = 1000; key < 20000; ++key) table.Upsert(std::to_string(key), "grow");
  for (int round = 0; round < 40; ++round) {  // values of changing sizes: compactions
    for (int key = 1; key < 1000; key += 3) {
      table.Upsert(std::to_string(key), std::string(1 + round % 2, 'c'));
    }
  }
  for (int key = 0; key < 1000; key += 9) {
    table.Erase(std::to_string(key));
    marked.erase(std::to_string(key));
  }
  EXPECT_EQ(shown["3"], "old");
  EXPECT_EQ(shown["6"], "old");
  EXPECT_EQ(shown["absent before"], "-");
  ASSERT_TRUE(table.FindEntry("3").has_value());
  EXPECT_TRUE(table.FindEntry("3")->marked);
  EXPECT_FALSE(table.FindEntry("4")->marked);
  EXPECT_TRUE(table.UnmarkHashed("3", ArenaHashTable::Hash("3"))->marked);
  EXPECT_FALSE(table.FindEntry("3")->marked);
  marked.erase("3");
  auto marked_now = [&] {
    std::set<std::string> found;
    table.ForEach([&](std::string_view key, std::string_view) {
      if (table.FindEntry(key)->marked) found.insert(std::string(key));
    });
    return found;
  };
  EXPECT_EQ(marked_now(), marked);
  mark("1", "again");
  table.UnmarkAll();
  EXPECT_TRUE(marked_now().empty());
}

// The index doubles from 16 to 262,144 slots: mostly from the entries' tags, and every
// seventh doubling (when the tags have run short) from their keys. Entries marked, changed
// and removed between the doublings keep their values and marks through both kinds.
TEST(ArenaHashTableTest, DoublingsFromTagsAndFromKeysKeepEntriesAndMarks) {
  ArenaHashTable table;
  std::map<std::string, std::string> expected;
  std::set<std::string> marked;
  for (int key = 0; key < 190000; ++key) {
    const std::string name = "key-" + std::to_string(key);
    if (key % 7 == 0) {
      table.MarkingUpsertHashed(name, ArenaHashTable::Hash(name), "marked",
                                [](std::optional<std::string_view>) {});
      marked.insert(name);
      expected[name] = "marked";
    } else {
      table.Upsert(name, std::to_string(key));
      expected[name] = std::to_string(key);
    }
    if (key % 5 == 4) {  // one in five removed a while after it came
      const std::string removed = "key-" + std::to_string(key / 2);
      if (expected.erase(removed) == 1) {
        table.Erase(removed);
        marked.erase(removed);
      }
    }
  }
  ASSERT_EQ(table.size(), static_cast<int64_t>(expected.size()));
  for (const auto& [key, value] : expected) {
    const auto entry = table.FindEntry(key);
    ASSERT_TRUE(entry.has_value()) << key;
    ASSERT_EQ(entry->value, value) << key;
    ASSERT_EQ(entry->marked, marked.count(key) == 1) << key;
  }
  EXPECT_FALSE(table.Find("key-190000").has_value());
}

/// Where the values of the keys `from` to `to` - 1 (as decimal strings) are kept.
std::vector<const char*> ValueAddresses(const ArenaHashTable& table, int from, int to) {
  std::vector<const char*> addresses;
  for (int key = from; key < to; ++key) {
    addresses.push_back(table.Find(std::to_string(key))->data());
  }
  return addresses;
}

// Entries that leave in the order they came (state evicted by event time) empty whole blocks,
// which are freed as they empty: memory follows the live entries, and the survivors are not
// copied (a compaction would move them).
TEST(ArenaHashTableTest, BlocksLeftWithoutLiveRecordsAreFreedWithoutMovingTheRest) {
  ArenaHashTable table;
  constexpr int kKeys = 100000;
  const std::string value(100, 'v');
  for (int key = 0; key < kKeys; ++key) table.Upsert(std::to_string(key), value);
  const int64_t full = table.memory_used_bytes();
  const std::vector<const char*> survivors = ValueAddresses(table, kKeys * 9 / 10, kKeys);
  for (int key = 0; key < kKeys * 9 / 10; ++key) ASSERT_TRUE(table.Erase(std::to_string(key)));
  // The blocks before the last (the one survivors are in) are gone; the index stays as large.
  EXPECT_LT(table.memory_used_bytes(), full * 6 / 10);
  for (int key = kKeys * 9 / 10; key < kKeys; ++key) {
    auto found = table.Find(std::to_string(key));
    ASSERT_TRUE(found.has_value()) << key;
    EXPECT_EQ(*found, value);
    EXPECT_EQ(found->data(), survivors[static_cast<size_t>(key - kKeys * 9 / 10)]) << key;
  }
  // Appends go on into the freed space's successor as before.
  for (int key = 0; key < 1000; ++key) table.Upsert(std::to_string(key), "again");
  EXPECT_EQ(table.size(), kKeys / 10 + 1000);
  EXPECT_EQ(*table.Find("999"), "again");
}

// Entries that leave in about the order they came, with a few staying behind (state evicted
// by event time, rows of late keys), leave old blocks sparse and recent ones full. A
// compaction copies the survivors of the sparse blocks only: the entries of the full blocks
// keep their place, and the memory follows the live entries.
TEST(ArenaHashTableTest, CompactionCopiesOnlyTheSparseBlocks) {
  ArenaHashTable table;
  constexpr int kKeys = 400000;
  const std::string value(100, 'v');
  for (int key = 0; key < kKeys; ++key) table.Upsert(std::to_string(key), value);
  const int64_t full = table.memory_used_bytes();
  // The newest fifth stays; of the rest, one entry in fifty.
  const std::vector<const char*> newest = ValueAddresses(table, kKeys * 4 / 5, kKeys);
  for (int key = 0; key < kKeys * 4 / 5; ++key) {
    if (key % 50 != 0) {
      ASSERT_TRUE(table.Erase(std::to_string(key)));
    }
  }
  // A fifth of the entries are left, and the memory follows (with the freed blocks kept
  // for reuse, up to half the live bytes).
  EXPECT_LT(table.memory_used_bytes(), full * 2 / 3);
  for (int key = 0; key < kKeys; ++key) {
    auto found = table.Find(std::to_string(key));
    ASSERT_EQ(found.has_value(), key >= kKeys * 4 / 5 || key % 50 == 0) << key;
    if (found) {
      EXPECT_EQ(*found, value);
    }
  }
  // Of the newest entries, only those in the block appends went to when the compaction ran
  // (it takes the copies) may have moved: at most the 8 MiB of the largest block.
  int64_t moved_bytes = 0;
  for (int key = kKeys * 4 / 5; key < kKeys; ++key) {
    const size_t at = static_cast<size_t>(key - kKeys * 4 / 5);
    if (table.Find(std::to_string(key))->data() != newest[at]) {
      moved_bytes += ArenaHashTable::RecordBytes(std::to_string(key), value);
    }
  }
  EXPECT_LE(moved_bytes, 8 * 1024 * 1024);
  EXPECT_LT(moved_bytes, static_cast<int64_t>(newest.size()) * 100 / 2);
}

// Entries that leave in the order they came, window after window (a join's rows evicted by
// event time): the blocks they empty take the next ones' records, and every entry reads back
// as written, in blocks that held others before.
TEST(ArenaHashTableTest, BlocksEmptiedByEvictionTakeNewEntries) {
  ArenaHashTable table;
  constexpr int kWindow = 100000;
  auto value_of = [](int key) {
    return std::string(150 + key % 50, static_cast<char>('a' + key % 26));
  };
  for (int key = 0; key < 6 * kWindow; ++key) {
    table.Upsert(std::to_string(key), value_of(key));
    if (key >= kWindow) {
      ASSERT_TRUE(table.Erase(std::to_string(key - kWindow)));
    }
  }
  EXPECT_EQ(table.size(), kWindow);
  for (int key = 5 * kWindow; key < 6 * kWindow; ++key) {
    auto found = table.Find(std::to_string(key));
    ASSERT_TRUE(found.has_value()) << key;
    ASSERT_EQ(*found, value_of(key)) << key;
  }
  // The live records, the blocks kept for reuse (at most half of them) and the index.
  EXPECT_LT(table.memory_used_bytes(), table.record_bytes() * 2 + (8 << 20) * 2 +
                                           static_cast<int64_t>(table.slot_count() * 8));
}

// A version of a stream-stream join's store writes each row it keeps twice: when it comes,
// and when it moves into the index of a row that left. The blocks a version took, emptied by
// the next, are kept for the one after instead of going back to the system (whose fresh pages
// the kernel must clear again), though they are more than half the live bytes.
TEST(ArenaHashTableTest, BlocksAVersionTookAreKeptForTheNext) {
  ArenaHashTable table;
  constexpr int kRows = 100000;
  int64_t last_peak = 0;
  for (int version = 0; version < 4; ++version) {
    table.HoldGarbage();
    for (int row = 0; row < kRows; ++row) {
      if (version > 0) {
        ASSERT_TRUE(table.Erase(std::to_string((version - 1) * kRows + row)));
      }
      const std::string key = std::to_string(version * kRows + row);
      table.Upsert(key, std::string(150, 'a'));
      table.Upsert(key, std::string(160, 'b'));  // another length: a new record
    }
    const int64_t peak = table.memory_used_bytes();
    table.ReleaseGarbage();
    EXPECT_EQ(table.size(), kRows);
    if (version >= 2) {
      // The version took its blocks from those the last one left, and keeps what it emptied.
      EXPECT_LE(peak, last_peak) << "version " << version;
      EXPECT_GT(table.memory_used_bytes(), peak * 9 / 10) << "version " << version;
    }
    last_peak = peak;
  }
}

// While garbage is held, the keys and values of removed entries and the old values of entries
// given a value of another length keep their bytes, however much garbage gathers; released,
// the space is reclaimed.
TEST(ArenaHashTableTest, HeldGarbageKeepsItsBytesUntilReleased) {
  ArenaHashTable table;
  constexpr int kKeys = 20000;
  for (int key = 0; key < kKeys; ++key) {
    table.Upsert(std::to_string(key), "value-" + std::to_string(key));
  }
  const int64_t full = table.memory_used_bytes();
  table.HoldGarbage();
  std::vector<ArenaHashTable::Entry> left;
  for (int key = 0; key < kKeys; ++key) {
    const std::string name = std::to_string(key);
    if (key % 4 == 0) {
      // A longer value: a new record, the old one garbage.
      left.push_back(*table.FindEntry(name));
      table.Upsert(name, "a longer value than before, " + name);
    } else {
      table.EraseHashed(name, ArenaHashTable::Hash(name),
                        [&](const ArenaHashTable::Entry& entry) { left.push_back(entry); });
    }
  }
  EXPECT_EQ(table.size(), kKeys / 4);
  const int64_t held = table.memory_used_bytes();
  EXPECT_GT(held, full);
  for (int key = 0; key < kKeys; ++key) {
    EXPECT_EQ(left[static_cast<size_t>(key)].key, std::to_string(key));
    EXPECT_EQ(left[static_cast<size_t>(key)].value, "value-" + std::to_string(key));
  }
  table.ReleaseGarbage();
  EXPECT_LT(table.memory_used_bytes(), held);
  EXPECT_EQ(*table.Find("4"), "a longer value than before, 4");
  EXPECT_FALSE(table.Find("5").has_value());
}

// A table past a few hundred megabytes takes its blocks faulted in ahead by another thread:
// the entries are all there, whichever blocks they landed in.
TEST(ArenaHashTableTest, ALargeTableKeepsEveryEntry) {
  ArenaHashTable table;
  constexpr int kKeys = 40000;
  constexpr size_t kValueBytes = 8192;  // about 330 MB in all
  auto value_of = [](int key) {
    std::string value(kValueBytes, static_cast<char>('a' + key % 26));
    std::memcpy(value.data(), &key, sizeof(key));
    return value;
  };
  for (int key = 0; key < kKeys; ++key) table.Upsert(std::to_string(key), value_of(key));
  ASSERT_EQ(table.size(), kKeys);
  for (int key = 0; key < kKeys; ++key) {
    auto value = table.Find(std::to_string(key));
    ASSERT_TRUE(value.has_value()) << key;
    ASSERT_TRUE(*value == value_of(key)) << key;
  }
  EXPECT_GE(table.memory_used_bytes(), table.record_bytes());
}

}  // namespace
}  // namespace sluice::state
