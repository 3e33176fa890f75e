#include "sluice/state/pending_writes.h"

#include <algorithm>
#include <string>

namespace sluice::state {

namespace {

constexpr char kPutTag = 'P';
constexpr char kRemoveTag = 'R';

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
  std::vector<Change> changes;
  changes.reserve(static_cast<size_t>(table_.size()));
  table_.ForEach([&](std::string_view key, std::string_view record) {
    if (record.front() == kRemoveTag) {
      changes.emplace_back(key, std::nullopt);
    } else {
      changes.emplace_back(key, record.substr(1));
    }
  });
  // string_view compares as unsigned bytes, the order of RocksDB's BytewiseComparator.
  std::sort(changes.begin(), changes.end(),
            [](const Change& a, const Change& b) { return a.first < b.first; });
  return changes;
}

}  // namespace sluice::state
