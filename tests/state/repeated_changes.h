// The changes both providers' tests make to show that a version's delta or changelog logs
// every change in the order made, as Spark's do.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/state/state_store.h"

namespace sluice::testing {

/// Version 1 holds kept=1; version 2 puts k1 twice and removes it, removes an absent key,
/// puts k2 twice and kept once more (the last three in one PutMany).
inline void CommitRepeatedChanges(state::StateStoreProvider& provider) {
  auto store = provider.GetStore(0).ValueOrDie();
  ASSERT_TRUE(store->Put("kept", "1").ok());
  ASSERT_TRUE(store->Commit().ok());
  store = provider.GetStore(1).ValueOrDie();
  ASSERT_TRUE(store->Put("k1", "a").ok());
  ASSERT_TRUE(store->Put("k1", "b").ok());
  ASSERT_TRUE(store->Remove("k1").ok());
  ASSERT_TRUE(store->Remove("absent").ok());
  std::vector<std::string_view> keys = {"k2", "k2", "kept"};
  std::vector<std::string_view> values = {"x", "y", "2"};
  ASSERT_TRUE(store->PutMany(keys, values).ok());
  ASSERT_TRUE(store->Commit().ok());
  EXPECT_EQ(store->metrics().num_removed_rows, 1);
}

/// A record of a state file as "key=value", or "key=removed".
inline std::string RecordText(std::string_view key, std::optional<std::string_view> value) {
  return std::string(key) + "=" + (value ? std::string(*value) : "removed");
}

}  // namespace sluice::testing
