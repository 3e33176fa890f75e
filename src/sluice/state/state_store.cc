#include "sluice/state/state_store.h"

#include "sluice/common/errors.h"

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

void StateStore::GetMany(
    std::span<const std::string_view> keys,
    const std::function<void(size_t i, std::string_view value)>& found) const {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::optional<std::string_view> value = Get(keys[i])) found(i, *value);
  }
}

arrow::Status StateStore::PutMany(std::span<const std::string_view> keys,
                                  std::span<const std::string_view> values) {
  for (size_t i = 0; i < keys.size(); ++i) ARROW_RETURN_NOT_OK(Put(keys[i], values[i]));
  return arrow::Status::OK();
}

arrow::Status StateStore::RemoveMany(std::span<const std::string_view> keys) {
  for (std::string_view key : keys) ARROW_RETURN_NOT_OK(Remove(key));
  return arrow::Status::OK();
}

arrow::Status StateStore::RemoveHeld(std::span<const std::string_view> keys) {
  return RemoveMany(keys);
}

arrow::Status StateStore::TakeHeld(
    std::span<const std::string_view> keys,
    const std::function<void(size_t i, std::string_view value)>& taken) {
  std::vector<std::string_view> found;
  found.reserve(keys.size());
  GetMany(keys, [&](size_t i, std::string_view value) {
    taken(i, value);
    found.push_back(keys[i]);
  });
  return RemoveHeld(found);
}

void StateStore::ForEachOfPart(
    int part, int /*parts*/,
    const std::function<void(std::string_view key, std::string_view value)>& visit) const {
  if (part == 0) ForEach(visit);
}

arrow::Status CheckVersionToLoad(int64_t version) {
  if (version >= 0) return arrow::Status::OK();
  return SparkError("CANNOT_LOAD_STATE_STORE.UNEXPECTED_VERSION",
                    "An error occurred during loading state. Version cannot be " +
                        std::to_string(version) + " because it is less than 0.");
}

}  // namespace sluice::state
