// What a stateful operator keeps from one of its batches to the next besides its state. The
// executor plans a new operator object for every batch, so whatever should outlive a batch
// lives here, under the operator's id.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <typeindex>
#include <typeinfo>
#include <utility>

namespace sluice::physical {

/// Per operator id, objects of the operator's choosing, one of each type, made on first use
/// and kept by the executor from batch to batch: hints and buffers that make the next batch
/// cheaper (how many groups the last one had, memory to refill), never anything a result
/// depends on, since a query restarted from its checkpoint starts without them. Thread-safe;
/// an operator that uses an object from several threads at once divides it between them.
class OperatorCarryOver {
 public:
  template <typename T>
  std::shared_ptr<T> Of(int64_t operator_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<void>& carried = carried_[{operator_id, typeid(T)}];
    if (carried == nullptr) carried = std::make_shared<T>();
    return std::static_pointer_cast<T>(carried);
  }

 private:
  std::mutex mutex_;
  std::map<std::pair<int64_t, std::type_index>, std::shared_ptr<void>> carried_;
};

}  // namespace sluice::physical
