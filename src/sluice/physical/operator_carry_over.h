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

namespace sluice::physical {

/// Per operator id, one object of the operator's choosing, made on first use and kept by the
/// executor from batch to batch: hints and buffers that make the next batch cheaper (how many
/// groups the last one had, memory to refill), never anything a result depends on, since a
/// query restarted from its checkpoint starts without them. Thread-safe; an operator that
/// uses its object from several threads at once divides it between them.
class OperatorCarryOver {
 public:
  template <typename T>
  std::shared_ptr<T> Of(int64_t operator_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    Carried& carried = carried_[operator_id];
    if (carried.object == nullptr || carried.type != typeid(T)) {
      carried.object = std::make_shared<T>();
      carried.type = typeid(T);
    }
    return std::static_pointer_cast<T>(carried.object);
  }

 private:
  struct Carried {
    std::shared_ptr<void> object;
    std::type_index type = typeid(void);
  };
  std::mutex mutex_;
  std::map<int64_t, Carried> carried_;
};

}  // namespace sluice::physical
