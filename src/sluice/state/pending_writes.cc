#include "sluice/state/pending_writes.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace sluice::state {

namespace {

constexpr char kPutTag = 'P';
constexpr char kRemoveTag = 'R';

/// The first 8 bytes of `key` (zeros past its end) as a big-endian integer: comparing two
/// prefixes orders their keys as bytewise comparison does, except where they tie.
uint64_t KeyPrefix(std::string_view key) {
  unsigned char bytes[8] = {};
  if (!key.empty()) std::memcpy(bytes, key.data(), std::min(key.size(), sizeof(bytes)));
  uint64_t prefix = 0;
  for (unsigned char byte : bytes) prefix = (prefix << 8) | byte;
  return prefix;
}

}  // namespace

PendingWrites::Lookup PendingWrites::Find(std::string_view key) const {
  std::optional<std::string_view> record = table_.Find(key);
  if (!record) return {};
  if (record->front() == kRemoveTag) return {true, std::nullopt};
  return {true, record->substr(1)};
}

void PendingWrites::Put(std::string_view key, std::string_view value) {
  // Assembled in a reused buffer: the table copies the record, so one allocation serves all.
  thread_local std::string record;
  record.clear();
  record.push_back(kPutTag);
  record.append(value);
  table_.Upsert(key, record);
}

void PendingWrites::Remove(std::string_view key) {
  table_.Upsert(key, std::string_view(&kRemoveTag, 1));
}

std::vector<PendingWrites::Change> PendingWrites::SortedChanges() const {
  // Sorted as (first 8 bytes as a big-endian integer, position) pairs, the full keys compared
  // only where those bytes tie: integer compares of 16-byte entries instead of a memcmp call
  // for every compare of 40-byte ones.
  struct Order {
    uint64_t prefix;
    uint64_t index;
  };
  std::vector<Change> changes;
  std::vector<Order> order;
  changes.reserve(static_cast<size_t>(table_.size()));
  order.reserve(static_cast<size_t>(table_.size()));
  table_.ForEach([&](std::string_view key, std::string_view record) {
    order.push_back({KeyPrefix(key), changes.size()});
    if (record.front() == kRemoveTag) {
      changes.emplace_back(key, std::nullopt);
    } else {
      changes.emplace_back(key, record.substr(1));
    }
  });
  // string_view compares as unsigned bytes, the order of RocksDB's BytewiseComparator; so do
  // the big-endian prefixes, a shorter key's missing bytes counting as zeros (the full keys
  // then decide).
  std::sort(order.begin(), order.end(), [&](const Order& a, const Order& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return changes[a.index].first < changes[b.index].first;
  });
  // changes[i] becomes changes[order[i].index], moved along each cycle of the permutation in
  // place (a second vector of changes would double the memory of a full buffer's apply).
  for (size_t i = 0; i < changes.size(); ++i) {
    if (order[i].index == i) continue;
    Change first = changes[i];
    size_t at = i;
    while (order[at].index != i) {
      const size_t from = order[at].index;
      changes[at] = changes[from];
      order[at].index = at;
      at = from;
    }
    changes[at] = first;
    order[at].index = at;
  }
  return changes;
}

}  // namespace sluice::state
