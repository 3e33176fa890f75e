// The RocksDB state store provider: the behaviours of the default provider's tests, plus
// changelog and snapshot files, interrupted snapshot writes, shared table files, the memory
// bound, and the provider factory.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <arrow/util/crc32.h>
#include <gtest/gtest.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/common/errors.h"
#include "sluice/state/memory_state_store_provider.h"
#include "sluice/state/rocksdb_checkpoint_format.h"
#include "sluice/state/rocksdb_state_store_provider.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store_provider_factory.h"
#include "state/repeated_changes.h"
#include "support/scratch_dir.h"
#include "support/state_store_entries.h"

namespace sluice::state {
namespace {

namespace fs = std::filesystem;
using Entries = testing::StoreEntries;
using testing::ReadAll;

std::string Named(std::string_view prefix, int number) {
  std::string name(prefix);
  name.append(std::to_string(number));
  return name;
}

/// Commits version 1 of `provider`'s store: keys k0 to k<n-1>, each of value "v".
void CommitKeys(StateStoreProvider& provider, int n) {
  auto store = provider.GetStore(0).ValueOrDie();
  for (int i = 0; i < n; ++i) ASSERT_TRUE(store->Put(Named("k", i), "v").ok());
  ASSERT_EQ(store->Commit().ValueOrDie(), 1);
}

class RocksDbStateStoreTest : public ::testing::Test {
 protected:
  /// Maintenance at every commit, so that each test sees its cleanup at once.
  StateStoreConf Conf() const {
    StateStoreConf conf;
    conf.maintenance_interval_ms = 0;
    conf.rocksdb.local_dir = scratch_ / "local";
    return conf;
  }

  std::unique_ptr<RocksDbStateStoreProvider> NewProvider(StateStoreConf conf) {
    auto shared = RocksDbSharedResources::Make(conf.rocksdb);
    EXPECT_TRUE(shared.ok()) << shared.status();
    auto provider = RocksDbStateStoreProvider::Make(folder_, StateStoreId{}, conf, *shared);
    EXPECT_TRUE(provider.ok()) << provider.status();
    return provider.MoveValueUnsafe();
  }
  std::unique_ptr<RocksDbStateStoreProvider> NewProvider() { return NewProvider(Conf()); }

  /// The names in the store's folder.
  std::set<std::string> Files() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder_)) {
      names.insert(entry.path().filename().string());
    }
    return names;
  }

  std::string PathOf(int64_t version, StateFileKind kind) const {
    return folder_ + "/" + StateFileName(version, kind);
  }

  std::string Relative(const std::string& path) const {
    return fs::relative(path, scratch_.path()).string();
  }

  /// Commits versions 1..count, version v putting "k<v>" -> "v<v>", overwriting "k<v-1>" and
  /// removing "k<v-2>"; returns the entries of every version.
  std::vector<Entries> CommitVersions(StateStoreProvider& provider, int count) {
    std::vector<Entries> versions(1);
    for (int v = 1; v <= count; ++v) {
      auto store = provider.GetStore(v - 1).ValueOrDie();
      Entries expected = versions.back();
      auto put = [&](const std::string& key, const std::string& value) {
        EXPECT_TRUE(store->Put(key, value).ok());
        expected[key] = value;
      };
      put(Named("k", v), Named("v", v));
      if (v >= 2) put(Named("k", v - 1), Named("updated in ", v));
      if (v >= 3) {
        EXPECT_TRUE(store->Remove(Named("k", v - 2)).ok());
        expected.erase(Named("k", v - 2));
      }
      EXPECT_EQ(store->Commit().ValueOrDie(), v);
      EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
      versions.push_back(expected);
    }
    return versions;
  }

  /// Loads `version` in a fresh provider and checks its entries and key count.
  void ExpectVersion(const StateStoreConf& conf, int64_t version, const Entries& expected) {
    auto provider = NewProvider(conf);
    auto store = provider->GetStore(version);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(ReadAll(**store), expected) << "version " << version;
    EXPECT_EQ((*store)->metrics().num_keys, static_cast<int64_t>(expected.size()))
        << "version " << version;
  }

  /// Fills a store of version 2 of `provider`, which holds `committed`, twice with `fill`
  /// (which adds its changes to the entries it is given): the first time `check` looks at the
  /// store and it is aborted, which must roll the database back in place; the second time it
  /// is committed, and version 3 must load in a fresh provider.
  void FillAbortedThenCommitted(RocksDbStateStoreProvider& provider, const Entries& committed,
                                const std::function<void(StateStore&, Entries*)>& fill,
                                const std::function<void(StateStore&)>& check) {
    {
      auto store = provider.GetStore(2).ValueOrDie();
      Entries expected = committed;
      fill(*store, &expected);
      check(*store);
      EXPECT_EQ(ReadAll(*store), expected);
      EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
      store->Abort();
    }
    EXPECT_EQ(provider.loaded_version(), 2) << "the changes were rolled back in place";
    EXPECT_EQ(ReadAll(*provider.GetStore(2).ValueOrDie()), committed);

    auto store = provider.GetStore(2).ValueOrDie();
    Entries expected = committed;
    fill(*store, &expected);
    ASSERT_EQ(store->Commit().ValueOrDie(), 3);
    EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
    ExpectVersion(Conf(), 3, expected);
  }

  testing::ScratchDir scratch_;
  std::string folder_ = StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()),
                                         StateStoreId{});
};

TEST_F(RocksDbStateStoreTest, PutGetRemoveIterate) {
  auto provider = NewProvider();
  auto store = provider->GetStore(0).ValueOrDie();
  EXPECT_EQ(store->version(), 0);
  ASSERT_TRUE(store->Put("a", "1").ok());
  ASSERT_TRUE(store->Put("b", "2").ok());
  ASSERT_TRUE(store->Put("a", "one").ok());
  ASSERT_TRUE(store->Remove("b").ok());
  ASSERT_TRUE(store->Remove("never there").ok());
  ASSERT_TRUE(store->Put("c", std::string("\0binary\xff", 8)).ok());
  // Views of several Gets stay valid together until the next change.
  std::optional<std::string_view> a = store->Get("a");
  std::optional<std::string_view> c = store->Get("c");
  EXPECT_FALSE(store->Get("b").has_value());
  EXPECT_EQ(*a, "one");
  EXPECT_EQ(*c, std::string("\0binary\xff", 8));
  EXPECT_EQ(ReadAll(*store), (Entries{{"a", "one"}, {"c", std::string("\0binary\xff", 8)}}));
  StateStoreMetrics metrics = store->metrics();
  EXPECT_EQ(metrics.num_keys, 2);
  EXPECT_EQ(metrics.num_updated_rows, 4);
  EXPECT_EQ(metrics.num_removed_rows, 1);
  EXPECT_GT(metrics.memory_used_bytes, 0);
  EXPECT_EQ(store->Commit().ValueOrDie(), 1);
  EXPECT_TRUE(store->committed());
  EXPECT_FALSE(store->Put("d", "4").ok());
  EXPECT_GT(store->metrics().checkpoint_bytes_written, 0);
}

TEST_F(RocksDbStateStoreTest, ThePutAfterAGetCountsNewKeysOnce) {
  auto provider = NewProvider();
  auto store = provider->GetStore(0).ValueOrDie();
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i) {
      std::string key = Named("key", i);
      std::optional<std::string_view> previous = store->Get(key);
      std::string value = previous ? std::string(*previous) + "+" : "1";
      ASSERT_TRUE(store->Put(key, value).ok());
    }
  }
  EXPECT_EQ(store->metrics().num_keys, 100);
  EXPECT_EQ(*store->Get("key7"), "1++");
  ASSERT_TRUE(store->Commit().ok());
}

/// Whether RocksDB worked on lookups on this thread since `Reset`: the keys it compared
/// (finding the table files and blocks a key may be in) and the keys it looked for in its
/// memtable.
class RocksDbLookups {
 public:
  RocksDbLookups() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount); }
  ~RocksDbLookups() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }
  void Reset() { rocksdb::get_perf_context()->Reset(); }
  uint64_t work() const {
    const rocksdb::PerfContext& context = *rocksdb::get_perf_context();
    return context.user_key_comparison_count + context.bloom_memtable_hit_count +
           context.bloom_memtable_miss_count;
  }
};

// A lookup of a key the store never held is answered by the store's key filter: it does not
// reach RocksDB, whether the held keys were put through this provider or
// reloaded from the checkpoint by another, while every held key is still found.
TEST_F(RocksDbStateStoreTest, LookupsOfKeysNeverHeldDoNotReachRocksDb) {
  constexpr int kKeys = 2000;
  std::vector<std::string> held, never_held;
  for (int i = 0; i < kKeys; ++i) {
    held.push_back(Named("held", i));
    never_held.push_back(Named("never held", i));
  }
  const std::vector<std::string_view> held_views(held.begin(), held.end());
  const std::vector<std::string_view> never_held_views(never_held.begin(), never_held.end());
  auto writer = NewProvider();
  auto store = writer->GetStore(0).ValueOrDie();
  for (const std::string& key : held) ASSERT_TRUE(store->Put(key, "value").ok());
  ASSERT_EQ(store->Commit().ValueOrDie(), 1);

  RocksDbLookups lookups;
  auto expect_lookups = [&](StateStoreProvider& provider, const std::string& which) {
    auto store = provider.GetStore(1).ValueOrDie();
    lookups.Reset();
    int found = 0;
    store->GetMany(never_held_views, [&](size_t, std::string_view) { ++found; });
    for (const std::string& key : never_held) found += store->Get(key).has_value();
    EXPECT_EQ(found, 0) << which;
    // The filter's false positives (about 0.2% of the keys) do reach it. Were the filter to
    // let every key through, the reloaded database (its keys replayed into the memtable)
    // would count 2 per key; a database of one ingested table file counts none even then.
    EXPECT_LT(lookups.work(), 100u) << which;
    lookups.Reset();
    int values = 0;
    store->GetMany(held_views, [&](size_t, std::string_view value) { values += value == "value"; });
    EXPECT_EQ(values, kKeys) << which;
    EXPECT_GE(lookups.work(), static_cast<uint64_t>(kKeys)) << which << ": the work is counted";
    // Keys put now, applied to the database or not, are held too.
    ASSERT_TRUE(store->Put("new", "1").ok());
    EXPECT_EQ(store->Get("new"), "1") << which;
    ASSERT_TRUE(store->Commit().ok());
    EXPECT_EQ(store->metrics().num_keys, kKeys + 1) << which;
    auto next = provider.GetStore(2).ValueOrDie();
    EXPECT_EQ(next->Get("new"), "1") << which;
    next->Abort();
  };
  expect_lookups(*writer, "the provider that put the keys");
  expect_lookups(*NewProvider(), "a provider loading them from the checkpoint");
}

// Removed keys stay in the key filter; once they are most of it, the commit builds it anew
// from the keys held, and lookups stay exact throughout.
TEST_F(RocksDbStateStoreTest, TheKeyFilterIsBuiltAnewOnceRemovedKeysFillIt) {
  constexpr int kKeys = 100'000;  // more than the filter's first layer holds
  auto provider = NewProvider();
  CommitKeys(*provider, kKeys);
  EXPECT_EQ(provider->key_filter().keys(), kKeys);

  auto store = provider->GetStore(1).ValueOrDie();
  for (int i = 1; i < kKeys; ++i) ASSERT_TRUE(store->Remove(Named("k", i)).ok());
  ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  EXPECT_EQ(provider->key_filter().keys(), 1) << "built anew from the one key left";
  EXPECT_LT(provider->key_filter().memory_bytes(), 200'000);

  store = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(store->Get(Named("k", 0)), "v");
  EXPECT_FALSE(store->Get(Named("k", 1)).has_value());
  ASSERT_TRUE(store->Put(Named("k", 1), "again").ok());
  ASSERT_EQ(store->Commit().ValueOrDie(), 3);
  EXPECT_EQ(store->metrics().num_keys, 2);
  store = provider->GetStore(3).ValueOrDie();
  EXPECT_EQ(store->Get(Named("k", 1)), "again");
  store->Abort();
}

// A store that scans every key (ForEach, as an operator evicting by the watermark does each
// batch) builds a crowded key filter anew on the way, and its commit leaves the filter to the
// next scan instead of scanning again. Aborted, its version puts back the keys it removed,
// and the filter is built anew once more, with them.
TEST_F(RocksDbStateStoreTest, AScanOfEveryKeyBuildsACrowdedKeyFilterAnew) {
  constexpr int kKeys = 100'000;  // more than the filter's first layer holds
  auto provider = NewProvider();
  CommitKeys(*provider, kKeys);

  auto remove_all_but_ten_and_scan = [&](StateStore& version) {
    for (int i = 10; i < kKeys; ++i) ASSERT_TRUE(version.Remove(Named("k", i)).ok());
    int visited = 0;
    version.ForEach([&](std::string_view, std::string_view) { ++visited; });
    EXPECT_EQ(visited, 10);
    EXPECT_EQ(provider->key_filter().keys(), 10) << "built anew from the keys left";
  };
  auto store = provider->GetStore(1).ValueOrDie();
  remove_all_but_ten_and_scan(*store);
  store->Abort();
  EXPECT_EQ(provider->key_filter().keys(), kKeys) << "the keys put back are in it again";
  store = provider->GetStore(1).ValueOrDie();
  EXPECT_EQ(store->Get(Named("k", 99)), "v");
  EXPECT_EQ(store->Get(Named("k", kKeys - 1)), "v");

  remove_all_but_ten_and_scan(*store);
  ASSERT_TRUE(store->Put(Named("k", 20), "again").ok());
  ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  EXPECT_EQ(provider->key_filter().keys(), 11) << "no second scan at the commit";
  store = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(store->Get(Named("k", 9)), "v");
  EXPECT_EQ(store->Get(Named("k", 20)), "again");
  EXPECT_FALSE(store->Get(Named("k", 99)).has_value());
  EXPECT_EQ(store->metrics().num_keys, 11);
  store->Abort();
}

TEST_F(RocksDbStateStoreTest, OneOpenStoreAtATime) {
  auto provider = NewProvider();
  auto store = provider->GetStore(0).ValueOrDie();
  EXPECT_FALSE(provider->GetStore(0).ok());
  store->Abort();
  EXPECT_TRUE(provider->GetStore(0).ok());
  auto negative = provider->GetStore(-1).status();
  EXPECT_EQ(ErrorClassOf(negative), "CANNOT_LOAD_STATE_STORE.UNEXPECTED_VERSION");
}

TEST_F(RocksDbStateStoreTest, AbortAndDestructionRollBackWithoutReloading) {
  auto provider = NewProvider();
  CommitVersions(*provider, 2);
  Entries committed = ReadAll(*provider->GetStore(2).ValueOrDie());
  {
    auto store = provider->GetStore(2).ValueOrDie();
    ASSERT_TRUE(store->Put("k2", "changed").ok());
    ASSERT_TRUE(store->Put("k2", "changed twice").ok());
    ASSERT_TRUE(store->Put("new", "x").ok());
    ASSERT_TRUE(store->Remove("k1").ok());
    EXPECT_EQ(store->metrics().num_keys, 2);
    store->Abort();
  }
  EXPECT_EQ(provider->loaded_version(), 2) << "a rollback keeps the database";
  EXPECT_EQ(ReadAll(*provider->GetStore(2).ValueOrDie()), committed);
  {
    auto store = provider->GetStore(2).ValueOrDie();
    ASSERT_TRUE(store->Put("k2", "dropped with the store").ok());
  }
  auto store = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(ReadAll(*store), committed);
  EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(committed.size()));
  EXPECT_EQ(provider->loaded_version(), 2);
  // No changelog of the aborted version 3 was left behind.
  EXPECT_EQ(Files(), (std::set<std::string>{"1.changelog", "2.changelog"}));
}

// A store buffers its changes and applies them to the database in key order once the buffer
// holds 64 MiB, and at Commit: a version larger than that is applied in parts, and reads,
// iteration, Abort and reloads see one consistent version throughout.
TEST_F(RocksDbStateStoreTest, AVersionLargerThanTheWriteBufferIsAppliedInParts) {
  auto provider = NewProvider();
  Entries committed = CommitVersions(*provider, 2).back();
  const std::string big(1 << 20, 'x');
  constexpr int kBigValues = 80;  // 80 MiB: applied once mid-version, the rest at Commit
  auto fill = [&](StateStore& store, Entries* expected) {
    ASSERT_TRUE(store.Put("k2", "before the first apply").ok());
    ASSERT_TRUE(store.Remove("k1").ok());
    for (int i = 0; i < kBigValues; ++i) {
      ASSERT_TRUE(store.Put(Named("big", i), big).ok());
      (*expected)[Named("big", i)] = big;
    }
    ASSERT_TRUE(store.Put("k2", "after it").ok());
    ASSERT_TRUE(store.Remove("big3").ok());
    expected->erase("k1");
    expected->erase("big3");
    (*expected)["k2"] = "after it";
  };
  FillAbortedThenCommitted(*provider, committed, fill, [](StateStore& store) {
    EXPECT_EQ(*store.Get("k2"), "after it");
    EXPECT_FALSE(store.Get("big3").has_value());
    EXPECT_FALSE(store.Get("k1").has_value());
  });
}

// What GetMany learns of each key serves the puts that follow it, also after the write buffer
// was applied amid them: keys applied since then count as what their change made them.
TEST_F(RocksDbStateStoreTest, KeyCountsStayExactWhenAPutManyAppliesTheBuffer) {
  auto provider = NewProvider();
  Entries expected = CommitVersions(*provider, 2).back();  // k1 -> "updated in 2", k2 -> "v2"
  auto store = provider->GetStore(2).ValueOrDie();
  // A change in the buffer, so that the call goes through it (an empty buffer would let it
  // go straight to the database).
  ASSERT_TRUE(store->Put("first", "v").ok());
  expected["first"] = "v";
  const std::string value(16 << 10, 'x');
  // 80 MiB in all: the buffer fills (64 MiB) and is applied amid the call. big10 comes twice,
  // the second time after that apply: it was new when looked up, but no longer.
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back(Named("big", i));
  names.push_back("big10");
  names.push_back("k1");
  names.push_back("k2");
  std::vector<std::string_view> keys(names.begin(), names.end());
  std::vector<std::string_view> values(keys.size(), value);
  std::vector<size_t> found;
  store->GetMany(keys, [&](size_t i, std::string_view) { found.push_back(i); });
  EXPECT_EQ(found, (std::vector<size_t>{5001, 5002}));
  ASSERT_TRUE(store->PutMany(keys, values).ok());
  for (const std::string& name : names) expected[name] = value;
  EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
  // big0 was applied, so it is in the database: removing it counts, putting it back too.
  ASSERT_TRUE(store->Remove("big0").ok());
  EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()) - 1);
  ASSERT_TRUE(store->Put("big0", "back").ok());
  ASSERT_TRUE(store->Put("big1", "small").ok());
  expected["big0"] = "back";
  expected["big1"] = "small";
  EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
  ASSERT_EQ(store->Commit().ValueOrDie(), 3);
  EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size()));
  ExpectVersion(Conf(), 3, expected);
}

// A PutMany that fills the write buffer on its own, while it is empty, goes to the database
// in key order without it: a key put twice keeps its last value and counts once, held keys
// do not count, the lookups' memo learns of the keys written, and the version rolls back and
// reloads as any other.
TEST_F(RocksDbStateStoreTest, APutManyFillingTheBufferAloneGoesStraightToTheDatabase) {
  auto provider = NewProvider();
  const Entries committed = CommitVersions(*provider, 2).back();  // k1 and k2
  const std::string value(16 << 10, 'x');  // 5000 puts: 80 MiB, more than the buffer (64 MiB)
  auto fill = [&](StateStore& store, Entries* expected) {
    // Looked up together; a15 is put first, out of the lookups' order, and the rest after.
    std::vector<std::string> looked_up;
    for (int i = 0; i < 20; ++i) looked_up.push_back(Named("a", i));
    std::vector<std::string_view> lookup_keys(looked_up.begin(), looked_up.end());
    store.GetMany(lookup_keys, [](size_t, std::string_view) {});
    std::vector<std::string> names = {"a15", "k1", "twice"};
    for (int i = 0; i < 5000; ++i) names.push_back(Named("big", 4999 - i));
    names.push_back("k2");
    names.push_back("twice");
    std::vector<std::string_view> keys(names.begin(), names.end());
    std::vector<std::string_view> values(keys.size(), value);
    values.back() = "the last";
    ASSERT_TRUE(store.PutMany(keys, values).ok());
    for (const std::string& name : names) (*expected)[name] = value;
    (*expected)["twice"] = "the last";
    EXPECT_EQ(store.metrics().num_keys, static_cast<int64_t>(expected->size()));
    // Through the buffer now: a15 was written since its lookup and is no longer new.
    std::vector<std::string_view> small_values(lookup_keys.size(), "small");
    ASSERT_TRUE(store.PutMany(lookup_keys, small_values).ok());
    for (const std::string& name : looked_up) (*expected)[name] = "small";
    EXPECT_EQ(store.metrics().num_keys, static_cast<int64_t>(expected->size()));
  };
  FillAbortedThenCommitted(*provider, committed, fill, [&](StateStore& store) {
    EXPECT_EQ(*store.Get("twice"), "the last");
    EXPECT_EQ(*store.Get("big0"), value);
  });
}

// The puts after a lookup take from it whether each key is new, whatever happened between
// them: other puts that applied the buffer, keys repeated, skipped or put in another order.
TEST_F(RocksDbStateStoreTest, KeyCountsStayExactWhateverFollowsALookup) {
  auto provider = NewProvider();
  Entries expected = CommitVersions(*provider, 2).back();  // k1 and k2
  auto store = provider->GetStore(2).ValueOrDie();
  auto expect_count = [&](const char* after) {
    EXPECT_EQ(store->metrics().num_keys, static_cast<int64_t>(expected.size())) << after;
  };
  auto put_many = [&](const std::vector<std::string>& names) {
    std::vector<std::string_view> keys(names.begin(), names.end());
    std::vector<std::string_view> values(keys.size(), "v");
    ASSERT_TRUE(store->PutMany(keys, values).ok());
    for (const std::string& name : names) expected[name] = "v";
  };
  auto get_many = [&](const std::vector<std::string>& names) {
    std::vector<std::string_view> keys(names.begin(), names.end());
    store->GetMany(keys, [](size_t, std::string_view) {});
  };

  // n9 looked up absent, then put, and applied with the puts that fill the buffer (80 MiB).
  const std::vector<std::string> looked_up = {"n0", "k1", "n1", "n2", "n3", "n4",
                                              "n5", "n6", "n7", "n8", "n9"};
  get_many(looked_up);
  ASSERT_TRUE(store->Put("n9", "v").ok());
  const std::string big(1 << 20, 'x');
  for (int i = 0; i < 80; ++i) ASSERT_TRUE(store->Put(Named("big", i), big).ok());
  for (int i = 0; i < 80; ++i) expected[Named("big", i)] = big;
  put_many(looked_up);
  expect_count("a lookup, an apply, then the puts");

  // Repeated, skipped and reordered keys.
  get_many({"r1", "r1", "k2", "r2", "r3", "r4", "r5"});
  put_many({"r1", "r1", "r3", "r5"});
  expect_count("repeated and skipped keys");
  get_many({"s1", "s2", "s3", "n1"});
  put_many({"n1", "s3", "s2", "s1", "s1"});
  expect_count("keys in another order");

  // A removal between the lookup and the put.
  get_many({"k2", "t1"});
  ASSERT_TRUE(store->Remove("k2").ok());
  expected.erase("k2");
  expect_count("a removal");
  put_many({"k2", "t1"});
  expect_count("a removed key put back");
  ASSERT_EQ(store->Commit().ValueOrDie(), 3);
  ExpectVersion(Conf(), 3, expected);
}

TEST_F(RocksDbStateStoreTest, EveryVersionReloadsInAFreshProvider) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  auto versions = CommitVersions(*NewProvider(conf), 8);
  for (int v = 0; v <= 8; ++v) ExpectVersion(conf, v, versions[v]);
  // One provider moving back and forth between versions.
  auto provider = NewProvider(conf);
  for (int v : {8, 2, 5, 5, 0, 7}) {
    EXPECT_EQ(ReadAll(*provider->GetStore(v).ValueOrDie()), versions[v]) << "version " << v;
  }
}

// As Spark's RocksDB changelogs: every put and every remove, even of an absent key, in the
// order made, which the change feed lists; a reload applies them in that order.
TEST_F(RocksDbStateStoreTest, AChangelogListsEveryChangeInTheOrderMade) {
  auto provider = NewProvider();
  sluice::testing::CommitRepeatedChanges(*provider);

  std::vector<std::string> records;
  ASSERT_TRUE(ReadChangelog(PathOf(2, StateFileKind::kChangelog), "store", 2,
                            [&](std::string_view key, std::optional<std::string_view> value) {
                              records.push_back(sluice::testing::RecordText(key, value));
                              return arrow::Status::OK();
                            })
                  .ok());
  EXPECT_EQ(records, (std::vector<std::string>{"k1=a", "k1=b", "k1=removed", "absent=removed",
                                               "k2=x", "k2=y", "kept=2"}));
  EXPECT_EQ(ReadAll(*NewProvider()->GetStore(2).ValueOrDie()),
            (Entries{{"k2", "y"}, {"kept", "2"}}));
}

TEST_F(RocksDbStateStoreTest, AChangelogHoldsOnlyTheChangedKeys) {
  auto provider = NewProvider();
  constexpr int kKeys = 100000;
  auto key = [](int i) { return "user-" + std::to_string(1000000 + i); };
  auto store = provider->GetStore(0).ValueOrDie();
  for (int i = 0; i < kKeys; ++i) ASSERT_TRUE(store->Put(key(i), "count=1;sum=10").ok());
  ASSERT_TRUE(store->Commit().ok());

  // Version 2 touches 1% of the keys: 500 updates, 400 removals, 100 new keys.
  store = provider->GetStore(1).ValueOrDie();
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(store->Put(key(i * 100), "count=2;sum=20").ok());
  for (int i = 0; i < 400; ++i) ASSERT_TRUE(store->Remove(key(i * 100 + 1)).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(store->Put(key(kKeys + i), "count=1;sum=10").ok());
  ASSERT_TRUE(store->Commit().ok());
  int64_t full = static_cast<int64_t>(fs::file_size(PathOf(1, StateFileKind::kChangelog)));
  int64_t changes = static_cast<int64_t>(fs::file_size(PathOf(2, StateFileKind::kChangelog)));
  EXPECT_EQ(store->metrics().checkpoint_bytes_written, changes);
  EXPECT_EQ(store->metrics().num_keys, kKeys - 400 + 100);
  EXPECT_LE(changes, full / 100 + 64) << "changes " << changes << ", full " << full;
  EXPECT_GE(changes, full / 200) << "changes " << changes << ", full " << full;
}

TEST_F(RocksDbStateStoreTest, SnapshotEveryNVersionsAndLoadFromSnapshotPlusChangelogs) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  auto versions = CommitVersions(*NewProvider(conf), 7);
  EXPECT_EQ(Files(), (std::set<std::string>{"1.changelog", "2.changelog", "3.changelog",
                                            "3.snapshot", "4.changelog", "5.changelog",
                                            "6.changelog", "6.snapshot", "7.changelog"}));
  EXPECT_TRUE(fs::is_directory(PathOf(6, StateFileKind::kSnapshot)));
  EXPECT_TRUE(fs::exists(PathOf(6, StateFileKind::kSnapshot) + "/metadata"));
  // Version 7 needs only 6.snapshot and 7.changelog: without the older changelogs it loads.
  for (int v = 1; v <= 6; ++v) fs::remove(PathOf(v, StateFileKind::kChangelog));
  for (int v : {7, 6}) ExpectVersion(conf, v, versions[v]);
}

TEST_F(RocksDbStateStoreTest, ACrashWhileWritingASnapshotLeavesNothingALoadTrusts) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 4;
  auto versions = CommitVersions(*NewProvider(conf), 3);
  // What a kill in the middle of writing 4.snapshot and 4.changelog leaves behind: a hidden
  // folder with some of the database's files, and a hidden partial changelog.
  std::string temp_snapshot = folder_ + "/.4.snapshot.0f3c2a-killed.tmp";
  scratch_.Write(Relative(temp_snapshot + "/000009.sst"), "half a table file");
  scratch_.Write(Relative(temp_snapshot + "/CURRENT"), "MANIFEST-000005\n");
  std::string temp_changelog = scratch_.Write(
      Relative(folder_ + "/.4.changelog.77aa01-killed.tmp"), "SLST\x01\x00\x03");

  auto provider = NewProvider(conf);
  auto store = provider->GetStore(3).ValueOrDie();
  EXPECT_EQ(ReadAll(*store), versions[3]);
  ASSERT_TRUE(store->Put("k4", "v4").ok());
  ASSERT_TRUE(store->Commit().ok());
  EXPECT_FALSE(fs::exists(temp_snapshot)) << "cleanup removes the remains of the write";
  EXPECT_FALSE(fs::exists(temp_changelog));
  EXPECT_TRUE(fs::exists(PathOf(4, StateFileKind::kSnapshot) + "/metadata"));
  Entries expected = versions[3];
  expected["k4"] = "v4";
  ExpectVersion(conf, 4, expected);

  // A re-run of the batch writes version 4 again: the snapshot is replaced whole.
  auto again = provider->GetStore(3).ValueOrDie();
  ASSERT_TRUE(again->Put("k4", "v4 again").ok());
  ASSERT_TRUE(again->Commit().ok());
  expected["k4"] = "v4 again";
  ExpectVersion(conf, 4, expected);
  for (const std::string& name : Files()) EXPECT_NE(name.front(), '.') << name;
}

TEST_F(RocksDbStateStoreTest, AMissingOrDamagedSnapshotFileFailsNamingIt) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 2;
  CommitVersions(*NewProvider(conf), 2);
  std::string snapshot = PathOf(2, StateFileKind::kSnapshot);
  std::string table;
  for (const auto& entry : fs::directory_iterator(snapshot)) {
    if (entry.path().extension() == ".sst") table = entry.path().string();
  }
  ASSERT_FALSE(table.empty());
  std::string contents = checkpoint::ReadWholeFile(table).ValueOrDie();

  scratch_.Write(Relative(table), contents.substr(0, contents.size() / 2));
  auto status = NewProvider(conf)->GetStore(2).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.UNEXPECTED_FILE_SIZE") << status;
  EXPECT_NE(status.message().find(table), std::string::npos) << status;

  fs::remove(table);
  status = NewProvider(conf)->GetStore(2).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.CANNOT_READ_MISSING_SNAPSHOT_FILE")
      << status;
  EXPECT_NE(status.message().find(table + " does not exist"), std::string::npos) << status;

  std::string metadata = snapshot + "/metadata";
  std::string damaged = checkpoint::ReadWholeFile(metadata).ValueOrDie();
  damaged[10] ^= 0x01;
  scratch_.Write(Relative(metadata), damaged);
  status = NewProvider(conf)->GetStore(2).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE") << status;
  EXPECT_NE(status.message().find(metadata), std::string::npos) << status;
}

TEST_F(RocksDbStateStoreTest, ACorruptTruncatedOrMissingChangelogFailsNamingIt) {
  auto versions = CommitVersions(*NewProvider(), 3);
  std::string path = PathOf(2, StateFileKind::kChangelog);
  std::string original = checkpoint::ReadWholeFile(path).ValueOrDie();

  std::string flipped = original;
  flipped[20] ^= 0x40;
  scratch_.Write(Relative(path), flipped);
  auto status = NewProvider()->GetStore(3).status();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE");
  EXPECT_NE(status.message().find(path), std::string::npos) << status;

  scratch_.Write(Relative(path), original.substr(0, original.size() - 5));
  status = NewProvider()->GetStore(3).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE");
  EXPECT_NE(status.message().find(path), std::string::npos) << status;

  // Version 1 does not need the damaged file.
  ExpectVersion(Conf(), 1, versions[1]);

  fs::remove(path);
  status = NewProvider()->GetStore(3).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.CANNOT_READ_STREAMING_STATE_FILE");
  EXPECT_NE(status.message().find(path + " does not exist"), std::string::npos) << status;
}

TEST_F(RocksDbStateStoreTest, ANewerChangelogFormatIsRefused) {
  CommitVersions(*NewProvider(), 1);
  std::string path = PathOf(1, StateFileKind::kChangelog);
  std::string contents = checkpoint::ReadWholeFile(path).ValueOrDie();
  contents[4] = static_cast<char>(kStateFileFormatVersion + 1);
  size_t crc_at = contents.size() - sizeof(uint32_t);
  uint32_t crc = arrow::internal::crc32(0, contents.data(), crc_at);
  std::memcpy(contents.data() + crc_at, &crc, sizeof(crc));
  scratch_.Write(Relative(path), contents);
  auto status = NewProvider()->GetStore(1).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.INVALID_CHANGE_LOG_READER_VERSION");
  EXPECT_NE(status.message().find(path), std::string::npos) << status;
}

TEST_F(RocksDbStateStoreTest, CleanupKeepsExactlyWhatTheRetainedVersionsNeed) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  conf.min_versions_to_retain = 4;
  auto versions = CommitVersions(*NewProvider(conf), 12);
  // Retained: versions 9..12. Version 9 loads from 9.snapshot; 10..12 add their changelogs.
  EXPECT_EQ(Files(), (std::set<std::string>{"9.snapshot", "10.changelog", "11.changelog",
                                            "12.changelog", "12.snapshot"}));
  for (int v = 9; v <= 12; ++v) ExpectVersion(conf, v, versions[v]);
  EXPECT_FALSE(NewProvider(conf)->GetStore(8).ok());
}

// As Spark's RocksDB provider: a snapshot is taken at the commit it is due, while the cleanup
// waits for the maintenance task, which runs every maintenanceInterval.
TEST_F(RocksDbStateStoreTest, CleanupWaitsForTheMaintenanceInterval) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 2;
  conf.min_versions_to_retain = 1;
  conf.maintenance_interval_ms = 3'600'000;
  auto versions = CommitVersions(*NewProvider(conf), 4);
  EXPECT_EQ(Files(), (std::set<std::string>{"1.changelog", "2.changelog", "2.snapshot",
                                            "3.changelog", "4.changelog", "4.snapshot"}));

  conf.maintenance_interval_ms = 50;
  auto provider = NewProvider(conf);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto store = provider->GetStore(4).ValueOrDie();
  ASSERT_TRUE(store->Put("k5", "v5").ok());
  ASSERT_TRUE(store->Commit().ok());
  EXPECT_EQ(Files(), (std::set<std::string>{"4.snapshot", "5.changelog"}))
      << "the first commit after the interval cleans up";
  versions.push_back(versions[4]);
  versions[5]["k5"] = "v5";
  ExpectVersion(conf, 5, versions[5]);
}

TEST_F(RocksDbStateStoreTest, TheLocalFolderGoesWithTheProvider) {
  std::string local;
  {
    auto provider = NewProvider();
    CommitVersions(*provider, 1);
    local = provider->local_folder();
    EXPECT_TRUE(fs::exists(local + "/db"));
    EXPECT_EQ(fs::path(local).parent_path(), fs::path(scratch_ / "local"));
  }
  EXPECT_FALSE(fs::exists(local));
}

TEST_F(RocksDbStateStoreTest, BoundedMemoryIsSharedAndHonoured) {
  StateStoreConf conf = Conf();
  conf.rocksdb.bounded_memory_usage = true;
  conf.rocksdb.max_memory_usage_mb = 16;
  conf.rocksdb.write_buffer_size_mb = 4;
  auto shared = RocksDbSharedResources::Make(conf.rocksdb).ValueOrDie();
  constexpr int kProviders = 3;
  constexpr int kKeysPerProvider = 400000;  // about 3x the cap in memtables alone
  std::vector<std::unique_ptr<RocksDbStateStoreProvider>> providers;
  int64_t peak_usage = 0;
  int64_t peak_store_memory = 0;
  for (int p = 0; p < kProviders; ++p) {
    std::string folder = StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()),
                                          StateStoreId{0, p, StateStoreId::kDefaultStoreName});
    providers.push_back(RocksDbStateStoreProvider::Make(
                            folder, StateStoreId{0, p, StateStoreId::kDefaultStoreName}, conf,
                            shared)
                            .ValueOrDie());
    auto store = providers.back()->GetStore(0).ValueOrDie();
    char value[16] = {};
    for (int64_t i = 0; i < kKeysPerProvider; ++i) {
      std::string key = "key-" + std::to_string(i * 7919 % kKeysPerProvider) + "-padding";
      std::memcpy(value, &i, sizeof(i));
      ASSERT_TRUE(store->Put(key, std::string_view(value, sizeof(value))).ok());
      if (i % 10000 == 0) {
        peak_usage = std::max(peak_usage, shared->usage_bytes());
        peak_store_memory = std::max(peak_store_memory, store->metrics().memory_used_bytes);
      }
    }
    ASSERT_TRUE(store->Commit().ok());
    EXPECT_EQ(store->metrics().num_keys, kKeysPerProvider);
  }
  int64_t cap = conf.rocksdb.max_memory_usage_mb << 20;
  EXPECT_GT(peak_usage, cap / 8) << "the memtables are charged to the shared cache";
  // The cap is not strict (as Spark's): a memtable being filled may overshoot it a little.
  EXPECT_LE(peak_usage, cap + cap / 2) << "peak " << peak_usage;
  // A store's write buffer (16 MB of changes here) is applied once the buffers pass their
  // share of the cap, long before its own limit.
  EXPECT_LE(peak_store_memory, cap) << "peak " << peak_store_memory;
  int64_t own = 0;
  for (auto& provider : providers) {
    own += provider->GetStore(1).ValueOrDie()->metrics().memory_used_bytes;
  }
  EXPECT_LE(own, cap);
}

// The changes a store holds before applying them to its database take the place of memtables,
// and are charged to the shared cache as memtables are, until the store closes.
TEST_F(RocksDbStateStoreTest, WriteBuffersAreChargedToTheSharedCache) {
  StateStoreConf conf = Conf();
  conf.rocksdb.bounded_memory_usage = true;
  conf.rocksdb.max_memory_usage_mb = 64;
  auto shared = RocksDbSharedResources::Make(conf.rocksdb).ValueOrDie();
  StateStoreId id{0, 0, StateStoreId::kDefaultStoreName};
  auto provider =
      RocksDbStateStoreProvider::Make(
          StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()), id), id, conf, shared)
          .ValueOrDie();
  auto store = provider->GetStore(0).ValueOrDie();
  const int64_t before = shared->usage_bytes();
  const std::string value(1000, 'v');
  for (int i = 0; i < 8000; ++i) ASSERT_TRUE(store->Put(Named("key", i), value).ok());
  const int64_t buffered = store->metrics().memory_used_bytes;
  EXPECT_GE(buffered, 8000 * 1000);
  EXPECT_GE(shared->usage_bytes() - before, buffered - (1 << 20)) << "charged in MiB units";
  store->Abort();
  EXPECT_LE(shared->usage_bytes(), before) << "released when the store closes";
}

TEST_F(RocksDbStateStoreTest, InvalidSettingsAreRefused) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 0;
  auto shared = RocksDbSharedResources::Make(conf.rocksdb).ValueOrDie();
  auto status = RocksDbStateStoreProvider::Make(folder_, StateStoreId{}, conf, shared).status();
  EXPECT_NE(status.message().find("minDeltasForSnapshot"), std::string::npos) << status;
  conf = Conf();
  conf.min_versions_to_retain = 0;
  status = RocksDbStateStoreProvider::Make(folder_, StateStoreId{}, conf, shared).status();
  EXPECT_NE(status.message().find("minBatchesToRetain"), std::string::npos) << status;
  conf = Conf();
  conf.maintenance_interval_ms = -1;
  status = RocksDbStateStoreProvider::Make(folder_, StateStoreId{}, conf, shared).status();
  EXPECT_NE(status.message().find("maintenanceInterval"), std::string::npos) << status;
  conf = Conf();
  conf.rocksdb.compression = "brotli";
  status = RocksDbStateStoreProvider::Make(folder_, StateStoreId{}, conf, shared).status();
  EXPECT_EQ(ErrorClassOf(status), "INVALID_CONF_VALUE");
  EXPECT_NE(status.message().find("spark.sql.streaming.stateStore.rocksdb.compression"),
            std::string::npos)
      << status;
  EXPECT_NE(status.message().find("'brotli'"), std::string::npos) << status;
  conf = Conf();
  conf.rocksdb.bounded_memory_usage = true;
  conf.rocksdb.write_buffer_cache_ratio = 0.95;
  status = RocksDbSharedResources::Make(conf.rocksdb).status();
  EXPECT_NE(status.message().find("writeBufferCacheRatio"), std::string::npos) << status;
}

TEST(StateStoreProviderFactoryTest, SparksClassNamesChooseTheProvider) {
  testing::ScratchDir scratch;
  StateStoreConf conf;
  conf.rocksdb.local_dir = scratch.path();
  auto memory = StateStoreProviderFactory::Make(conf).ValueOrDie();
  auto provider = memory->MakeProvider(scratch / "state/0/0", StateStoreId{}).ValueOrDie();
  EXPECT_NE(dynamic_cast<MemoryStateStoreProvider*>(provider.get()), nullptr);

  conf.provider_class = kRocksDbProviderClass;
  auto rocksdb = StateStoreProviderFactory::Make(conf).ValueOrDie();
  for (int partition = 0; partition < 2; ++partition) {
    StateStoreId id{0, partition, StateStoreId::kDefaultStoreName};
    provider = rocksdb->MakeProvider(scratch / ("state/0/" + std::to_string(partition)), id)
                   .ValueOrDie();
    EXPECT_NE(dynamic_cast<RocksDbStateStoreProvider*>(provider.get()), nullptr);
    auto store = provider->GetStore(0).ValueOrDie();
    ASSERT_TRUE(store->Put("key", "value").ok());
    EXPECT_EQ(store->Commit().ValueOrDie(), 1);
  }

  conf.provider_class = "org.example.NoSuchStateStoreProvider";
  auto status = StateStoreProviderFactory::Make(conf).status();
  EXPECT_EQ(ErrorClassOf(status), "INVALID_CONF_VALUE");
  EXPECT_NE(status.message().find("spark.sql.streaming.stateStore.providerClass"),
            std::string::npos)
      << status;
  EXPECT_NE(status.message().find("org.example.NoSuchStateStoreProvider"), std::string::npos)
      << status;
}

}  // namespace
}  // namespace sluice::state
