#include "sluice/state/state_provider_cache.h"

namespace sluice::state {

arrow::Result<StateStoreProvider*> StateProviderCache::Get(const StateStoreId& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_tuple(id.operator_id, id.partition_id, id.store_name);
  auto found = providers_.find(key);
  if (found != providers_.end()) return found->second.get();
  ARROW_ASSIGN_OR_RAISE(auto provider, factory_->MakeProvider(StateStoreFolder(paths_, id), id));
  return providers_.emplace(std::move(key), std::move(provider)).first->second.get();
}

}  // namespace sluice::state
