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

namespace {

/// Everything WriteOrCheckOperatorMetadata writes or checks for `info`.
std::string RecordedForm(const StateOperatorInfo& info) {
  std::string form = info.operator_name + "\n" + std::to_string(info.num_partitions) + "\n" +
                     info.properties_json + "\n";
  for (const auto& store : info.stores) {
    form += store.store_name + "\n" + EncodeStateSchemaFile(*store.key_schema, *store.value_schema);
  }
  return form;
}

}  // namespace

arrow::Status StateProviderCache::RecordOperatorMetadata(const StateOperatorInfo& info) {
  std::string form = RecordedForm(info);
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = recorded_.find(info.operator_id);
  if (found != recorded_.end() && found->second == form) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(WriteOrCheckOperatorMetadata(paths_, info));
  recorded_[info.operator_id] = std::move(form);
  return arrow::Status::OK();
}

}  // namespace sluice::state
