// The state store providers of one running query.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include <arrow/result.h>

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/state/operator_metadata.h"
#include "sluice/state/state_store.h"
#include "sluice/state/state_store_provider_factory.h"

namespace sluice::state {

/// One provider per store id, made on first use and kept for the life of the query start, so
/// each keeps its newest version loaded between batches (Spark keeps loaded providers on its
/// executors the same way). Thread-safe: partitions of an operator open their stores in
/// parallel. The providers are destroyed with the cache.
class StateProviderCache {
 public:
  StateProviderCache(checkpoint::CheckpointPaths paths,
                     std::shared_ptr<const StateStoreProviderFactory> factory)
      : paths_(std::move(paths)), factory_(std::move(factory)) {}

  /// The provider of `id`, made now if this is its first use.
  arrow::Result<StateStoreProvider*> Get(const StateStoreId& id);

  /// The checkpoint the stores live in.
  const checkpoint::CheckpointPaths& paths() const { return paths_; }

  /// WriteOrCheckOperatorMetadata(paths(), info), unless this query start has already
  /// recorded the same info for the operator. transformWithState learns its variables from
  /// its processor in every batch; they seldom change, and checking them again would read
  /// the operator's schema files each batch.
  arrow::Status RecordOperatorMetadata(const StateOperatorInfo& info);

 private:
  checkpoint::CheckpointPaths paths_;
  std::shared_ptr<const StateStoreProviderFactory> factory_;
  std::mutex mutex_;
  std::map<std::tuple<int64_t, int32_t, std::string>, std::unique_ptr<StateStoreProvider>>
      providers_;
  /// What RecordOperatorMetadata last recorded, by operator id.
  std::map<int64_t, std::string> recorded_;
};

}  // namespace sluice::state
