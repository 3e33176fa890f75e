#include "sluice/state/pending_writes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>
#include <utility>

namespace sluice::state {

namespace {

/// The 8 bytes of `key` from `offset` (zeros past its end) as a big-endian integer: comparing
/// two such prefixes orders their keys as bytewise comparison does, except where they tie.
uint64_t KeyPrefix(std::string_view key, size_t offset) {
  unsigned char bytes[8] = {};
  if (offset < key.size()) {
    std::memcpy(bytes, key.data() + offset, std::min(key.size() - offset, sizeof(bytes)));
  }
  uint64_t prefix = 0;
  for (unsigned char byte : bytes) prefix = (prefix << 8) | byte;
  return prefix;
}

/// The first 16 bytes of a key, as two KeyPrefix.
struct LeadingBytes {
  explicit LeadingBytes(std::string_view key) : high(KeyPrefix(key, 0)), low(KeyPrefix(key, 8)) {}
  uint64_t high;
  uint64_t low;
};

/// How many leading bytes `key` shares with `first`, if fewer than `limit`; else `limit`.
size_t SharedLength(std::string_view first, const LeadingBytes& first_bytes,
                    std::string_view key, const LeadingBytes& key_bytes, size_t limit) {
  // The zeros that pad a short key's leading bytes count for no shared bytes: the lengths
  // bound what is shared.
  limit = std::min(limit, key.size());
  if (key_bytes.high != first_bytes.high) {
    return std::min<size_t>(limit, std::countl_zero(key_bytes.high ^ first_bytes.high) / 8);
  }
  if (key_bytes.low != first_bytes.low) {
    return std::min<size_t>(limit, 8 + std::countl_zero(key_bytes.low ^ first_bytes.low) / 8);
  }
  size_t same = std::min<size_t>(limit, 16);
  while (same < limit && key[same] == first[same]) ++same;
  return same;
}

}  // namespace

void PendingWrites::Put(std::string_view key, std::string_view value) {
  PutMany({&key, 1}, {&value, 1}, [](size_t, const Lookup&) {});
}

void PendingWrites::Remove(std::string_view key) {
  table_.Upsert(key, std::string_view(&kRemoveTag, 1));
}

std::vector<PendingWrites::Change> PendingWrites::SortedChanges() const {
  // The order is decided past the bytes every key shares with the first (a state key often
  // starts alike: a null flag, a window's start): the prefixes compared are the 8 bytes
  // that follow them. The one walk over the records gathers what it takes to know them: how
  // many bytes are shared, and each key's first 16.
  std::vector<Change> changes;
  std::vector<uint64_t> low_bytes;
  changes.reserve(static_cast<size_t>(table_.size()));
  low_bytes.reserve(static_cast<size_t>(table_.size()));
  std::string_view first;
  std::optional<LeadingBytes> first_bytes;
  size_t common = 0;
  table_.ForEachRecord([&](const char* record) {
    const std::string_view key = ArenaHashTable::KeyOf(record);
    const LeadingBytes bytes(key);
    if (!first_bytes) {
      first = key;
      first_bytes = bytes;
      common = key.size();
    } else if (common > 0) {
      common = SharedLength(first, *first_bytes, key, bytes, common);
    }
    Change change;
    change.prefix_ = bytes.high;
    change.record_ = record;
    changes.push_back(change);
    low_bytes.push_back(bytes.low);
  });
  if (common == 8) {
    for (size_t i = 0; i < changes.size(); ++i) changes[i].prefix_ = low_bytes[i];
  } else if (common > 0 && common < 8) {
    const int shift = 8 * static_cast<int>(common);
    for (size_t i = 0; i < changes.size(); ++i) {
      changes[i].prefix_ = (changes[i].prefix_ << shift) | (low_bytes[i] >> (64 - shift));
    }
  }
  low_bytes = std::vector<uint64_t>();
  if (common > 8) {
    // Keys alike in more than their first 8 bytes: their prefixes are read anew.
    constexpr size_t kAhead = 16;
    for (size_t i = 0; i < changes.size(); ++i) {
      if (i + kAhead < changes.size()) __builtin_prefetch(changes[i + kAhead].record_);
      changes[i].prefix_ = KeyPrefix(changes[i].key(), common);
    }
  }
  uint64_t differing = 0;  // the bits in which some key's prefix differs from the first's
  for (const Change& change : changes) differing |= change.prefix_ ^ changes.front().prefix_;
  // A least-significant-digit radix sort of the prefixes, a byte at a time, skipping the
  // bytes in which all of them agree: each pass is stable, so after the last the changes are
  // in prefix order. Prefixes compare as integers, and as they are big-endian that is the
  // bytewise order of string_view and of RocksDB's BytewiseComparator (a shorter key's
  // missing bytes count as zeros in the prefix, and the full keys then decide).
  std::vector<Change> scattered(changes.size());
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differing >> shift) & 0xff) == 0) continue;
    std::array<size_t, 256> next{};
    for (const Change& change : changes) ++next[(change.prefix_ >> shift) & 0xff];
    size_t start = 0;
    for (size_t& place : next) start += std::exchange(place, start);
    for (const Change& change : changes) {
      scattered[next[(change.prefix_ >> shift) & 0xff]++] = change;
    }
    changes.swap(scattered);
  }
  scattered = std::vector<Change>();  // frees it before the ties are sorted
  // Keys whose prefixes tie (longer keys alike in those bytes, or a key and the same key with
  // zeros appended) are put in order by all their bytes.
  for (size_t begin = 0; begin < changes.size();) {
    size_t end = begin + 1;
    while (end < changes.size() && changes[end].prefix_ == changes[begin].prefix_) ++end;
    if (end - begin > 1) {
      std::sort(changes.begin() + static_cast<std::ptrdiff_t>(begin),
                changes.begin() + static_cast<std::ptrdiff_t>(end),
                [](const Change& a, const Change& b) { return a.key() < b.key(); });
    }
    begin = end;
  }
  return changes;
}

}  // namespace sluice::state
