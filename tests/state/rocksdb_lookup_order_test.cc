// How the RocksDB store's GetMany reads the keys its write buffer and key filter leave to the
// database: in the database's key order, by MultiGet when they are few against the keys held,
// else in chunks, each read by MultiGet or by an iterator walking the database (stepping to
// near keys, seeking far ones), whichever was faster when both were last timed (the first two
// chunks of a call are one of each). Either way the answers come in the order of the keys
// asked, as Get gives them, and the puts that follow learn from them which keys are new.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/state/rocksdb_state_store_provider.h"
#include "support/scratch_dir.h"

namespace sluice::state {
namespace {

using Entries = std::map<std::string, std::string>;

/// Random keys of 1 to 12 bytes, any byte value (0 and those above 127 included), distinct.
std::vector<std::string> RandomKeys(std::mt19937_64& random, size_t n) {
  std::map<std::string, bool> seen;
  std::vector<std::string> keys;
  std::uniform_int_distribution<int> length(1, 12), byte(0, 255);
  while (keys.size() < n) {
    std::string key(static_cast<size_t>(length(random)), '\0');
    for (char& c : key) c = static_cast<char>(byte(random));
    if (seen.emplace(key, true).second) keys.push_back(key);
  }
  return keys;
}

/// Which way RocksDB answered the lookups on this thread since `Reset`.
class ReadsOfRocksDb {
 public:
  ReadsOfRocksDb() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount); }
  ~ReadsOfRocksDb() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }
  void Reset() { rocksdb::get_perf_context()->Reset(); }
  uint64_t multi_get_bytes() const { return rocksdb::get_perf_context()->multiget_read_bytes; }
  uint64_t iterator_bytes() const { return rocksdb::get_perf_context()->iter_read_bytes; }
  /// The seeks of the iterators over the sorted runs (each run counts one).
  uint64_t seeks() const { return rocksdb::get_perf_context()->seek_child_seek_count; }
};

class RocksDbLookupOrderTest : public ::testing::Test {
 protected:
  std::unique_ptr<RocksDbStateStoreProvider> NewProvider() {
    StateStoreConf conf;
    conf.rocksdb.local_dir = scratch_ / "local";
    auto shared = RocksDbSharedResources::Make(conf.rocksdb);
    EXPECT_TRUE(shared.ok()) << shared.status();
    auto provider = RocksDbStateStoreProvider::Make(
        StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()), StateStoreId{}),
        StateStoreId{}, conf, *shared);
    EXPECT_TRUE(provider.ok()) << provider.status();
    return provider.MoveValueUnsafe();
  }

  /// GetMany's answers as (index, value) pairs, in the order it gave them.
  static std::vector<std::pair<size_t, std::string>> Found(const StateStore& store,
                                                           const std::vector<std::string>& keys) {
    const std::vector<std::string_view> views(keys.begin(), keys.end());
    std::vector<std::pair<size_t, std::string>> found;
    store.GetMany(views, [&](size_t i, std::string_view value) {
      found.emplace_back(i, std::string(value));
    });
    return found;
  }

  /// What GetMany must answer for `keys` when the store holds `entries`.
  static std::vector<std::pair<size_t, std::string>> Expected(
      const Entries& entries, const std::vector<std::string>& keys) {
    std::vector<std::pair<size_t, std::string>> expected;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (auto it = entries.find(keys[i]); it != entries.end()) expected.emplace_back(i, it->second);
    }
    return expected;
  }

  testing::ScratchDir scratch_;
};

// A store of 20000 random keys (version 1), then version 2 without 2000 of them (which the key
// filter still lets through to the database), read with pending changes on top: keys put,
// overwritten and removed since the store opened.
TEST_F(RocksDbLookupOrderTest, AnswersComeInTheOrderAskedWhicheverWayTheDatabaseIsRead) {
  std::mt19937_64 random(20261204);
  std::vector<std::string> held = RandomKeys(random, 24000);
  const std::vector<std::string> never_held(held.begin() + 20000, held.end());
  held.resize(20000);
  Entries entries;
  auto provider = NewProvider();
  {
    auto store = provider->GetStore(0).ValueOrDie();
    for (size_t i = 0; i < held.size(); ++i) {
      const std::string value = "value " + std::to_string(i);
      ASSERT_TRUE(store->Put(held[i], value).ok());
      entries[held[i]] = value;
    }
    ASSERT_EQ(store->Commit().ValueOrDie(), 1);
  }
  {
    auto store = provider->GetStore(1).ValueOrDie();
    for (size_t i = 0; i < 2000; ++i) {
      ASSERT_TRUE(store->Remove(held[i]).ok());
      entries.erase(held[i]);
    }
    ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  }
  auto store = provider->GetStore(2).ValueOrDie();
  for (size_t i = 2000; i < 2100; ++i) {  // overwritten
    ASSERT_TRUE(store->Put(held[i], "new " + held[i]).ok());
    entries[held[i]] = "new " + held[i];
  }
  for (size_t i = 2100; i < 2200; ++i) {  // removed
    ASSERT_TRUE(store->Remove(held[i]).ok());
    entries.erase(held[i]);
  }
  for (size_t i = 0; i < 100; ++i) {  // new
    ASSERT_TRUE(store->Put(never_held[i], "fresh").ok());
    entries[never_held[i]] = "fresh";
  }

  std::vector<std::string> sorted_held = held;
  std::sort(sorted_held.begin(), sorted_held.end());
  ReadsOfRocksDb reads;
  struct Case {
    const char* name;
    std::vector<std::string> keys;
    bool many;  // many against the keys held: chunks walked and chunks read by MultiGet
    uint64_t min_seeks;
  };
  std::vector<Case> cases;
  // Every key ever held or never held, shuffled, with some twice.
  std::vector<std::string> all = held;
  all.insert(all.end(), never_held.begin(), never_held.end());
  all.insert(all.end(), held.begin() + 1500, held.begin() + 2500);
  std::shuffle(all.begin(), all.end(), random);
  cases.push_back({"all keys, shuffled", all, true, 0});
  // A run of near keys, then keys far apart (30 places): the first chunk of 1024 keys, which
  // is walked, steps to 600 keys and seeks the other 424.
  std::vector<std::string> near_then_far(sorted_held.begin(), sorted_held.begin() + 600);
  for (size_t i = 600; i < sorted_held.size(); i += 30) near_then_far.push_back(sorted_held[i]);
  std::shuffle(near_then_far.begin(), near_then_far.end(), random);
  cases.push_back({"near keys then far ones", near_then_far, true, 400});
  // Every tenth key.
  std::vector<std::string> spread;
  for (size_t i = 0; i < sorted_held.size(); i += 10) spread.push_back(sorted_held[i]);
  std::shuffle(spread.begin(), spread.end(), random);
  cases.push_back({"keys spread out", spread, true, 0});
  // Few keys against the 20000 held: ever held, removed and never held.
  std::vector<std::string> few(held.begin() + 1990, held.begin() + 2300);
  few.insert(few.end(), held.end() - 500, held.end());
  few.insert(few.end(), never_held.begin() + 50, never_held.begin() + 150);
  std::shuffle(few.begin(), few.end(), random);
  cases.push_back({"few keys", few, false, 0});

  for (const Case& c : cases) {
    reads.Reset();
    EXPECT_EQ(Found(*store, c.keys), Expected(entries, c.keys)) << c.name;
    EXPECT_EQ(reads.iterator_bytes() > 0, c.many) << c.name;
    EXPECT_GT(reads.multi_get_bytes(), 0u) << c.name;
    EXPECT_GE(reads.seeks(), c.min_seeks) << c.name;
  }

  // The puts after a lookup count the keys it found absent as new, whichever way it read.
  for (const Case& c : cases) {
    const std::vector<std::string_view> keys(c.keys.begin(), c.keys.end());
    store->GetMany(keys, [](size_t, std::string_view) {});
    const std::vector<std::string_view> values(keys.size(), "put");
    ASSERT_TRUE(store->PutMany(keys, values).ok());
    for (const std::string& key : c.keys) entries[key] = "put";
    EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(entries.size())) << c.name;
  }
  ASSERT_EQ(store->Commit().ValueOrDie(), 3);
  EXPECT_EQ(Found(*provider->GetStore(3).ValueOrDie(), all), Expected(entries, all));
}

}  // namespace
}  // namespace sluice::state
