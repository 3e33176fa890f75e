// Chooses the state store provider of a query from spark.sql.streaming.stateStore.providerClass.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>

#include "sluice/state/rocksdb_shared_resources.h"
#include "sluice/state/state_store.h"

namespace sluice::state {

/// Spark's class name of the default provider, served by MemoryStateStoreProvider.
inline constexpr const char* kHdfsBackedProviderClass =
    "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
/// Spark's class name of the RocksDB provider, served by RocksDbStateStoreProvider.
inline constexpr const char* kRocksDbProviderClass =
    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

/// Makes the state store providers of one query, all of the class conf.provider_class names,
/// all sharing one RocksDbSharedResources (so the memory bound of the RocksDB settings holds
/// for the whole query). Thread-safe: tasks of different partitions may make their providers
/// concurrently.
class StateStoreProviderFactory {
 public:
  /// Fails, naming the setting and its value, when conf.provider_class is not one of the two
  /// classes above, or when the RocksDB settings are invalid.
  static arrow::Result<std::unique_ptr<StateStoreProviderFactory>> Make(StateStoreConf conf);

  /// A provider for the store `id` whose files live in `folder` (see StateStoreFolder).
  arrow::Result<std::unique_ptr<StateStoreProvider>> MakeProvider(std::string folder,
                                                                  StateStoreId id) const;

  const StateStoreConf& conf() const { return conf_; }

 private:
  StateStoreProviderFactory(StateStoreConf conf, bool rocksdb,
                            std::shared_ptr<RocksDbSharedResources> shared)
      : conf_(std::move(conf)), rocksdb_(rocksdb), shared_(std::move(shared)) {}

  StateStoreConf conf_;
  bool rocksdb_;
  std::shared_ptr<RocksDbSharedResources> shared_;
};

}  // namespace sluice::state
