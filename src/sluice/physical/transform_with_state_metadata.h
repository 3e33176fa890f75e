// What transformWithState records in the checkpoint: the stores of its timers and of its state
// variables, and Spark's operator properties (its modes and variables), which the state readers
// read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/plan/transform_with_state.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::physical {

/// The store of the timers, by grouping key and expiry time.
inline constexpr const char* kTimersStore = "$timers";

/// A state variable as the processor's init() declared it.
struct DeclaredVariable {
  std::string name;
  std::string kind;  // value, list or map
  bool ttl = false;
  /// Its store: the grouping key (and a map's user key), then the value and its expiry.
  state::StateStoreSchema schema;
};

/// Spark's name of a time mode in TTL errors and operator properties.
const char* TimeModeName(plan::TimeMode mode);

/// The operator with its timers' store. Its state variables each have a store named after
/// them, added when the processor's init declares them.
state::StateOperatorInfo TransformWithStateInfo(const plan::TransformWithState& node,
                                                int64_t operator_id, int32_t num_partitions);

/// Spark's operatorProperties of the operator: its modes and its variables (declaration order,
/// then the timers when the time mode has them).
std::string OperatorProperties(const plan::TransformWithState& node,
                               const std::vector<DeclaredVariable>& variables);

}  // namespace sluice::physical
