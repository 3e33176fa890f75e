// GetMany, PutMany and RemoveMany, the batched calls of the StateStore interface, on both
// providers: the same answers as Get, Put and Remove one key at a time, in order, through
// commit, abort and reload.
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/scratch_dir.h"

namespace sluice::state {
namespace {

class StateStoreBatchTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::unique_ptr<StateStoreProvider> NewProvider() {
    StateStoreConf conf;
    conf.provider_class = GetParam();
    conf.rocksdb.local_dir = scratch_ / "local";
    if (!factory_) factory_ = StateStoreProviderFactory::Make(conf).ValueOrDie();
    return factory_
        ->MakeProvider(StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()),
                                        StateStoreId{}),
                       StateStoreId{})
        .ValueOrDie();
  }

  /// Commits version 1 of `provider`'s store: keys "key-0" to "key-<n-1>", each its own
  /// value. Returns the keys.
  static std::vector<std::string> CommitNamedKeys(StateStoreProvider& provider, int n) {
    std::vector<std::string> names;
    for (int i = 0; i < n; ++i) names.push_back("key-" + std::to_string(i));
    const std::vector<std::string_view> keys(names.begin(), names.end());
    auto store = provider.GetStore(0).ValueOrDie();
    EXPECT_TRUE(store->PutMany(keys, keys).ok());
    EXPECT_EQ(store->Commit().ValueOrDie(), 1);
    return names;
  }

  /// GetMany's answers as (index, value) pairs.
  static std::vector<std::pair<size_t, std::string>> Found(
      const StateStore& store, const std::vector<std::string_view>& keys) {
    std::vector<std::pair<size_t, std::string>> found;
    store.GetMany(keys, [&](size_t i, std::string_view value) {
      found.emplace_back(i, std::string(value));
    });
    return found;
  }

  testing::ScratchDir scratch_;
  std::unique_ptr<StateStoreProviderFactory> factory_;
};

TEST_P(StateStoreBatchTest, ManyKeysAtOnceAnswerAsOneAtATime) {
  auto provider = NewProvider();
  // More keys than the lookahead of the prefetching pipeline, some repeated.
  constexpr int kKeys = 1000;
  std::vector<std::string> names;
  for (int i = 0; i < kKeys; ++i) names.push_back("key-" + std::to_string(i));
  std::vector<std::string_view> keys(names.begin(), names.end());
  std::vector<std::string> value_names;
  for (int i = 0; i < kKeys; ++i) value_names.push_back("value-" + std::to_string(i));
  std::vector<std::string_view> values(value_names.begin(), value_names.end());

  auto store = provider->GetStore(0).ValueOrDie();
  EXPECT_TRUE(Found(*store, keys).empty());
  // The even keys, then key-0 again with a new value: the later put wins.
  std::vector<std::string_view> even_keys, even_values;
  for (int i = 0; i < kKeys; i += 2) {
    even_keys.push_back(keys[i]);
    even_values.push_back(values[i]);
  }
  even_keys.push_back(keys[0]);
  even_values.push_back("value-0 again");
  ASSERT_TRUE(store->PutMany(even_keys, even_values).ok());
  EXPECT_EQ(store->metrics().num_keys, kKeys / 2);
  EXPECT_EQ(store->metrics().num_updated_rows, kKeys / 2 + 1);
  std::vector<std::pair<size_t, std::string>> expected;
  expected.emplace_back(0, "value-0 again");
  for (int i = 2; i < kKeys; i += 2) expected.emplace_back(i, value_names[i]);
  EXPECT_EQ(Found(*store, keys), expected);
  ASSERT_EQ(store->Commit().ValueOrDie(), 1);

  // An aborted PutMany leaves version 1 as it was; a reload answers the same.
  {
    auto aborted = provider->GetStore(1).ValueOrDie();
    ASSERT_TRUE(aborted->PutMany(keys, values).ok());
    EXPECT_EQ(aborted->metrics().num_keys, kKeys);
    EXPECT_EQ(Found(*aborted, keys).size(), static_cast<size_t>(kKeys));
    aborted->Abort();
  }
  EXPECT_EQ(Found(*provider->GetStore(1).ValueOrDie(), keys), expected);
  factory_.reset();
  provider = NewProvider();
  EXPECT_EQ(Found(*provider->GetStore(1).ValueOrDie(), keys), expected);
}

TEST_P(StateStoreBatchTest, RemoveManyRemovesAsOneAtATime) {
  auto provider = NewProvider();
  constexpr int kKeys = 1000;
  const std::vector<std::string> names = CommitNamedKeys(*provider, kKeys);
  const std::vector<std::string_view> keys(names.begin(), names.end());
  // Every third key, an absent one, and a key removed twice.
  std::vector<std::string_view> removed;
  for (int i = 0; i < kKeys; i += 3) removed.push_back(keys[i]);
  removed.push_back("absent");
  removed.push_back(keys[0]);
  std::vector<std::pair<size_t, std::string>> expected;
  for (int i = 0; i < kKeys; ++i) {
    if (i % 3 != 0) expected.emplace_back(i, names[i]);
  }
  {
    // Aborted, version 1 keeps every key.
    auto aborted = provider->GetStore(1).ValueOrDie();
    ASSERT_TRUE(aborted->RemoveMany(removed).ok());
    EXPECT_EQ(Found(*aborted, keys), expected);
    aborted->Abort();
  }
  EXPECT_EQ(Found(*provider->GetStore(1).ValueOrDie(), keys).size(), static_cast<size_t>(kKeys));
  // And a key put by the same version (in its write buffer, not in the database).
  auto store = provider->GetStore(1).ValueOrDie();
  ASSERT_TRUE(store->Put("put by this version", "v").ok());
  removed.push_back("put by this version");
  ASSERT_TRUE(store->RemoveMany(removed).ok());
  EXPECT_EQ(store->metrics().num_removed_rows, (kKeys + 2) / 3 + 1);
  EXPECT_EQ(store->metrics().num_keys, kKeys - (kKeys + 2) / 3);
  EXPECT_FALSE(store->Get("put by this version").has_value());
  ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  factory_.reset();
  provider = NewProvider();
  EXPECT_EQ(Found(*provider->GetStore(2).ValueOrDie(), keys), expected);
}

// Keys a scan showed, held in the database or put by the version itself, removed as
// RemoveMany would: the counts of keys and of removals stay exact, and the keys are gone.
TEST_P(StateStoreBatchTest, RemoveHeldRemovesTheKeysAScanShowed) {
  auto provider = NewProvider();
  constexpr int kKeys = 1000;
  const std::vector<std::string> names = CommitNamedKeys(*provider, kKeys);
  const std::vector<std::string_view> keys(names.begin(), names.end());
  auto store = provider->GetStore(1).ValueOrDie();
  ASSERT_TRUE(store->Put("put by this version", "v").ok());
  std::vector<std::string> shown;
  store->ForEach([&](std::string_view key, std::string_view) {
    if (key.back() == '7' || key == "put by this version") shown.emplace_back(key);
  });
  ASSERT_EQ(shown.size(), static_cast<size_t>(kKeys / 10 + 1));
  const std::vector<std::string_view> removed(shown.begin(), shown.end());
  ASSERT_TRUE(store->RemoveHeld(removed).ok());
  EXPECT_EQ(store->metrics().num_removed_rows, kKeys / 10 + 1);
  EXPECT_EQ(store->metrics().num_keys, kKeys - kKeys / 10);
  ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  std::vector<std::pair<size_t, std::string>> expected;
  for (int i = 0; i < kKeys; ++i) {
    if (i % 10 != 7) expected.emplace_back(i, names[i]);
  }
  factory_.reset();
  provider = NewProvider();
  auto reloaded = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(Found(*reloaded, keys), expected);
  EXPECT_FALSE(reloaded->Get("put by this version").has_value());
  EXPECT_EQ(reloaded->metrics().num_keys, kKeys - kKeys / 10);
}

// Keys a scan showed taken out with their values (as a join takes the rows it moves): each
// value is handed over in order before its key goes, a value put by this version included,
// and the store is as RemoveHeld leaves it, after a reload too.
TEST_P(StateStoreBatchTest, TakeHeldHandsOverEachValueAndRemovesItsKey) {
  auto provider = NewProvider();
  constexpr int kKeys = 1000;
  const std::vector<std::string> names = CommitNamedKeys(*provider, kKeys);
  const std::vector<std::string_view> keys(names.begin(), names.end());
  auto store = provider->GetStore(1).ValueOrDie();
  ASSERT_TRUE(store->Put("key-3", "put by this version").ok());
  std::vector<std::string_view> taken_keys;
  for (int i = kKeys - 1; i >= 0; i -= 3) taken_keys.push_back(keys[i]);
  std::vector<std::pair<size_t, std::string>> taken;
  ASSERT_TRUE(store
                  ->TakeHeld(taken_keys,
                             [&](size_t i, std::string_view value) {
                               taken.emplace_back(i, std::string(value));
                             })
                  .ok());
  ASSERT_EQ(taken.size(), taken_keys.size());
  for (size_t t = 0; t < taken.size(); ++t) {
    EXPECT_EQ(taken[t].first, t);
    const std::string expected =
        taken_keys[t] == "key-3" ? "put by this version" : std::string(taken_keys[t]);
    EXPECT_EQ(taken[t].second, expected);
  }
  EXPECT_EQ(store->metrics().num_removed_rows, static_cast<int64_t>(taken_keys.size()));
  EXPECT_EQ(store->metrics().num_keys, kKeys - static_cast<int64_t>(taken_keys.size()));
  ASSERT_EQ(store->Commit().ValueOrDie(), 2);
  std::vector<std::pair<size_t, std::string>> expected;
  for (int i = 0; i < kKeys; ++i) {
    if ((kKeys - 1 - i) % 3 != 0) expected.emplace_back(i, names[i]);
  }
  factory_.reset();
  provider = NewProvider();
  auto reloaded = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(Found(*reloaded, keys), expected);
  EXPECT_EQ(reloaded->metrics().num_keys, kKeys - static_cast<int64_t>(taken_keys.size()));
}

INSTANTIATE_TEST_SUITE_P(
    Providers, StateStoreBatchTest,
    ::testing::Values(kHdfsBackedProviderClass, kRocksDbProviderClass),
    [](const auto& info) { return info.index == 0 ? "Default" : "RocksDb"; });

}  // namespace
}  // namespace sluice::state
