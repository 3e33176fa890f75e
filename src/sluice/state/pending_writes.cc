#include "sluice/state/pending_writes.h"

#include <string>
#include <vector>

#include "sluice/state/key_order.h"

namespace sluice::state {

void PendingWrites::Put(std::string_view key, std::string_view value) {
  PutMany({&key, 1}, {&value, 1}, [](size_t, const Lookup&) {});
}

void PendingWrites::Remove(std::string_view key) {
  table_.Upsert(key, std::string_view(&kRemoveTag, 1));
}

std::vector<PendingWrites::Change> PendingWrites::SortedChanges() const {
  std::vector<KeyOrderEntry<const char*>> entries;
  entries.reserve(static_cast<size_t>(table_.size()));
  table_.ForEachRecord([&](const char* record) { entries.push_back({record, 0}); });
  SortByKey(&entries, [](const char* record) { return ArenaHashTable::KeyOf(record); });
  std::vector<Change> changes(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) changes[i].record_ = entries[i].payload;
  return changes;
}

}  // namespace sluice::state
