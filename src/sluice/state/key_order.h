// Sorting keys in the bytewise order of std::string_view and of RocksDB's BytewiseComparator,
// which the RocksDB store needs twice: its write buffer's changes, written in that order as a
// table file, and the keys a lookup leaves to the database, read in that order.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice::state {

/// One item to sort by key: what the caller needs back (an index, a record's address), and
/// the 8 bytes of its key that SortByKey compares first.
template <typename Payload>
struct KeyOrderEntry {
  Payload payload{};
  uint64_t prefix = 0;
};

namespace key_order {

/// The 8 bytes of `key` from `offset` (zeros past its end) as a big-endian integer: comparing
/// two such prefixes orders their keys as bytewise comparison does, except where they tie.
uint64_t KeyPrefix(std::string_view key, size_t offset);

/// The first 16 bytes of a key, as two KeyPrefix.
struct LeadingBytes {
  explicit LeadingBytes(std::string_view key) : high(KeyPrefix(key, 0)), low(KeyPrefix(key, 8)) {}
  uint64_t high;
  uint64_t low;
};

/// How many leading bytes `key` shares with `first`, if fewer than `limit`; else `limit`.
size_t SharedLength(std::string_view first, const LeadingBytes& first_bytes,
                    std::string_view key, const LeadingBytes& key_bytes, size_t limit);

}  // namespace key_order

/// Sorts `entries` (a std::vector of KeyOrderEntry, of any allocator, which its scratch
/// arrays use too) by the keys `key_of(entry.payload)` gives, in bytewise order. Keys often
/// start alike (a null flag, a window's start), so the order is decided past the bytes all of
/// them share: one walk learns how many those are and each key's first 16 bytes; a
/// least-significant-digit radix sort then orders the 8 bytes that follow them (as a
/// big-endian integer, a shorter key's missing bytes counting as zeros), skipping the bytes
/// in which all keys agree; keys whose prefixes tie are put in order by all their bytes.
template <typename Entries, typename KeyOf>
void SortByKey(Entries* entries, KeyOf&& key_of) {
  using Entry = typename Entries::value_type;
  using WordAllocator = typename std::allocator_traits<
      typename Entries::allocator_type>::template rebind_alloc<uint64_t>;
  Entries& sorted = *entries;
  if (sorted.empty()) return;
  std::vector<uint64_t, WordAllocator> low_bytes(sorted.size(),
                                                 WordAllocator(sorted.get_allocator()));
  const std::string_view first = key_of(sorted.front().payload);
  const key_order::LeadingBytes first_bytes(first);
  size_t common = first.size();
  for (size_t i = 0; i < sorted.size(); ++i) {
    const std::string_view key = key_of(sorted[i].payload);
    const key_order::LeadingBytes bytes(key);
    if (common > 0) common = key_order::SharedLength(first, first_bytes, key, bytes, common);
    sorted[i].prefix = bytes.high;
    low_bytes[i] = bytes.low;
  }
  if (common == 8) {
    for (size_t i = 0; i < sorted.size(); ++i) sorted[i].prefix = low_bytes[i];
  } else if (common > 0 && common < 8) {
    const int shift = 8 * static_cast<int>(common);
    for (size_t i = 0; i < sorted.size(); ++i) {
      sorted[i].prefix = (sorted[i].prefix << shift) | (low_bytes[i] >> (64 - shift));
    }
  }
  low_bytes = std::vector<uint64_t, WordAllocator>(WordAllocator(sorted.get_allocator()));
  if (common > 8) {
    // Keys alike in more than their first 8 bytes: their prefixes are read anew.
    for (Entry& entry : sorted) entry.prefix = key_order::KeyPrefix(key_of(entry.payload), common);
  }
  uint64_t differing = 0;  // the bits in which some key's prefix differs from the first's
  for (const Entry& entry : sorted) differing |= entry.prefix ^ sorted.front().prefix;
  // Each pass is stable, so after the last the entries are in prefix order.
  Entries scattered(sorted.size(), sorted.get_allocator());
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differing >> shift) & 0xff) == 0) continue;
    std::array<size_t, 256> next{};
    for (const Entry& entry : sorted) ++next[(entry.prefix >> shift) & 0xff];
    size_t start = 0;
    for (size_t& place : next) start += std::exchange(place, start);
    for (const Entry& entry : sorted) scattered[next[(entry.prefix >> shift) & 0xff]++] = entry;
    sorted.swap(scattered);
  }
  scattered = Entries(sorted.get_allocator());  // frees it before the ties are sorted
  // Keys whose prefixes tie: longer keys alike in those bytes, or a key and the same key
  // with zeros appended.
  for (size_t begin = 0; begin < sorted.size();) {
    size_t end = begin + 1;
    while (end < sorted.size() && sorted[end].prefix == sorted[begin].prefix) ++end;
    if (end - begin > 1) {
      std::sort(sorted.begin() + static_cast<std::ptrdiff_t>(begin),
                sorted.begin() + static_cast<std::ptrdiff_t>(end),
                [&](const Entry& a, const Entry& b) {
                  return key_of(a.payload) < key_of(b.payload);
                });
    }
    begin = end;
  }
}

}  // namespace sluice::state
