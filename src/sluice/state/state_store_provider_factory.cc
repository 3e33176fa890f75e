#include "sluice/state/state_store_provider_factory.h"

#include "sluice/common/errors.h"
#include "sluice/state/memory_state_store_provider.h"
#include "sluice/state/rocksdb_state_store_provider.h"

namespace sluice::state {

arrow::Result<std::unique_ptr<StateStoreProviderFactory>> StateStoreProviderFactory::Make(
    StateStoreConf conf) {
  bool rocksdb = conf.provider_class == kRocksDbProviderClass;
  if (!rocksdb && conf.provider_class != kHdfsBackedProviderClass) {
    return SparkError("INVALID_CONF_VALUE",
                      "The value '" + conf.provider_class +
                          "' in the config \"spark.sql.streaming.stateStore.providerClass\" is "
                          "invalid. Use " +
                          kHdfsBackedProviderClass + " (the default) or " +
                          kRocksDbProviderClass + ".");
  }
  std::shared_ptr<RocksDbSharedResources> shared;
  if (rocksdb) {
    ARROW_ASSIGN_OR_RAISE(shared, RocksDbSharedResources::Make(conf.rocksdb));
  }
  return std::unique_ptr<StateStoreProviderFactory>(
      new StateStoreProviderFactory(std::move(conf), rocksdb, std::move(shared)));
}

arrow::Result<std::unique_ptr<StateStoreProvider>> StateStoreProviderFactory::MakeProvider(
    std::string folder, StateStoreId id) const {
  if (rocksdb_) {
    ARROW_ASSIGN_OR_RAISE(auto provider, RocksDbStateStoreProvider::Make(
                                             std::move(folder), std::move(id), conf_, shared_));
    return std::unique_ptr<StateStoreProvider>(std::move(provider));
  }
  ARROW_ASSIGN_OR_RAISE(auto provider,
                        MemoryStateStoreProvider::Make(std::move(folder), std::move(id), conf_));
  return std::unique_ptr<StateStoreProvider>(std::move(provider));
}

}  // namespace sluice::state
