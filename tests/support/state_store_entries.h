// A state store's rows as a sorted map, for tests that compare whole stores.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "sluice/state/state_store.h"

namespace sluice::testing {

using StoreEntries = std::map<std::string, std::string>;

/// Every row `store` holds, by key.
inline StoreEntries ReadAll(const state::StateStore& store) {
  StoreEntries entries;
  store.ForEach([&](std::string_view key, std::string_view value) {
    entries.emplace(std::string(key), std::string(value));
  });
  return entries;
}

}  // namespace sluice::testing
