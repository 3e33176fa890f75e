#include "sluice/state/state_store.h"

namespace sluice::state {

std::string StateStoreId::ToString() const {
  return "StateStoreId[operatorId=" + std::to_string(operator_id) +
         ", partitionId=" + std::to_string(partition_id) + ", name=" + store_name + "]";
}

std::string StateStoreFolder(const checkpoint::CheckpointPaths& paths, const StateStoreId& id) {
  std::string folder = paths.state() + "/" + std::to_string(id.operator_id) + "/" +
                       std::to_string(id.partition_id);
  if (id.store_name != StateStoreId::kDefaultStoreName) folder += "/" + id.store_name;
  return folder;
}

}  // namespace sluice::state
