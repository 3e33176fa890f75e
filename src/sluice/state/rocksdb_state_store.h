// One version of a RocksDbStateStoreProvider's store, open for reads and changes (internal to
// the provider).
#pragma once

#include <cstdint>
#include <memory>

#include "sluice/state/state_store.h"

namespace sluice::state {

class RocksDbStateStoreProvider;

/// Opens version `version` of the store whose database `provider` holds loaded at that
/// version; the provider outlives the store.
std::unique_ptr<StateStore> OpenRocksDbStateStore(RocksDbStateStoreProvider* provider,
                                                  int64_t version);

}  // namespace sluice::state
