#include "sluice/state/pending_writes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

namespace sluice::state {

namespace {

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

void PendingWrites::Put(std::string_view key, std::string_view value) {
  PutMany({&key, 1}, {&value, 1}, [](size_t, const Lookup&) {});
}

void PendingWrites::Remove(std::string_view key) {
  table_.Upsert(key, std::string_view(&kRemoveTag, 1));
}

std::vector<PendingWrites::Change> PendingWrites::SortedChanges() const {
  std::vector<Change> unsorted;
  unsorted.reserve(static_cast<size_t>(table_.size()));
  uint64_t differing = 0;  // the bits in which some key's prefix differs from the first's
  table_.ForEachRecord([&](const char* record) {
    Change change;
    change.prefix_ = KeyPrefix(ArenaHashTable::KeyOf(record));
    change.record_ = record;
    if (!unsorted.empty()) differing |= change.prefix_ ^ unsorted.front().prefix_;
    unsorted.push_back(change);
  });
  // Distributed into 256 buckets by the eight highest bits in which the prefixes differ (the
  // bits above are the same in all), then each bucket sorted: small sorts that stay in the
  // CPU caches instead of one over the whole buffer. Prefixes compare as integers, the full
  // keys only where those tie. The prefixes are big-endian, so both orders are the bytewise
  // order of string_view and of RocksDB's BytewiseComparator (a shorter key's missing bytes
  // count as zeros in the prefix, and the full keys then decide).
  const int shift = differing == 0 ? 0 : std::max(0, 64 - std::countl_zero(differing) - 8);
  auto bucket_of = [shift](const Change& change) { return (change.prefix_ >> shift) & 0xff; };
  std::array<size_t, 257> starts{};
  for (const Change& change : unsorted) ++starts[bucket_of(change) + 1];
  for (size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
  std::vector<Change> sorted(unsorted.size());
  std::array<size_t, 256> next;
  std::copy(starts.begin(), starts.end() - 1, next.begin());
  for (const Change& change : unsorted) sorted[next[bucket_of(change)]++] = change;
  unsorted = std::vector<Change>();  // frees it before the sorts
  for (size_t b = 0; b < 256; ++b) {
    std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(starts[b]),
              sorted.begin() + static_cast<std::ptrdiff_t>(starts[b + 1]),
              [](const Change& a, const Change& b) {
                if (a.prefix_ != b.prefix_) return a.prefix_ < b.prefix_;
                return a.key() < b.key();
              });
  }
  return sorted;
}

}  // namespace sluice::state
