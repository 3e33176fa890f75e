// The bytes the stateful operators with several entries per key keep (stream-stream joins,
// transformWithState): counts, indexes and times as the row codec writes a non-null bigint,
// rows with a matched flag, and the small helpers around them.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>

#include "sluice/physical/state_key_encoding.h"
#include "sluice/state/arena_hash_table.h"

namespace sluice::physical {

// Counts and indexes are stored as the row codec writes a non-null bigint: a present flag,
// then 8 little-endian bytes; the matched flag of a kept row as a non-null boolean.
inline void AppendLong(int64_t value, std::string* out) {
  char bytes[1 + sizeof(value)];
  bytes[0] = 1;
  std::memcpy(bytes + 1, &value, sizeof(value));
  out->append(bytes, sizeof(bytes));
}

/// The bigint a byte string ends with (0 when it is too short).
inline int64_t ReadLong(std::string_view bytes) {
  int64_t value = 0;
  if (bytes.size() >= 1 + sizeof(value)) {
    std::memcpy(&value, bytes.data() + bytes.size() - sizeof(value), sizeof(value));
  }
  return value;
}

/// The bytes of a non-null bigint.
inline constexpr size_t kLongBytes = 1 + sizeof(int64_t);

inline std::string EncodeLong(int64_t value) {
  std::string out;
  AppendLong(value, &out);
  return out;
}

/// Appends the key of the row kept at `index` under `key` (the key, then the index as a
/// bigint, as Spark keys a join's kept rows) to `out` as one row.
inline void AppendIndexedKey(std::string_view key, int64_t index, EncodedRows* out) {
  out->bytes.append(key);
  AppendLong(index, &out->bytes);
  out->offsets.push_back(static_cast<uint32_t>(out->bytes.size()));
}

inline constexpr size_t kFlagBytes = 2;  // the matched flag after a kept row: present, 0 or 1

inline std::string_view RowOf(std::string_view value) {
  return value.substr(0, value.size() - kFlagBytes);
}
inline bool MatchedOf(std::string_view value) {
  return value.size() >= kFlagBytes && value.back() == 1;
}

/// Appends a kept row's value, the row and its matched flag, to `out` as one row.
inline void AppendKeptRow(std::string_view row, bool matched, EncodedRows* out) {
  out->bytes.append(row);
  out->bytes.push_back(1);
  out->bytes.push_back(matched ? 1 : 0);
  out->offsets.push_back(static_cast<uint32_t>(out->bytes.size()));
}

inline std::vector<std::string_view> Views(const EncodedRows& rows) {
  std::vector<std::string_view> views;
  views.reserve(rows.size());
  for (int64_t r = 0; r < rows.size(); ++r) views.push_back(rows.row(r));
  return views;
}

/// The distinct keys of a batch, numbered densely in order of first sight: an open-addressing
/// index over views of the keys, far cheaper than a node-based map for the keys of a batch.
class KeyIndex {
 public:
  explicit KeyIndex(size_t expected)
      : slots_(std::bit_ceil(std::max<size_t>(2 * expected, 16))), mask_(slots_.size() - 1) {}

  /// The number of `key`, numbering it if new. The bytes of `key` must outlive the index.
  int32_t Insert(std::string_view key) {
    return InsertHashed(key, state::ArenaHashTable::Hash(key));
  }

  /// Insert with the key's ArenaHashTable::Hash already computed.
  int32_t InsertHashed(std::string_view key, uint64_t hash) {
    size_t slot = hash & mask_;
    while (slots_[slot].id >= 0) {
      if (Holds(slots_[slot], hash, key)) return slots_[slot].id;
      slot = (slot + 1) & mask_;
    }
    slots_[slot] = {static_cast<int32_t>(keys_.size()), Tag(hash)};
    keys_.push_back(key);
    if (keys_.size() * 2 > slots_.size()) Grow();
    return static_cast<int32_t>(keys_.size() - 1);
  }

  /// The number of `key`, or -1 when it was never inserted.
  int32_t Find(std::string_view key) const {
    const uint64_t hash = state::ArenaHashTable::Hash(key);
    size_t slot = hash & mask_;
    while (slots_[slot].id >= 0) {
      if (Holds(slots_[slot], hash, key)) return slots_[slot].id;
      slot = (slot + 1) & mask_;
    }
    return -1;
  }

  /// The keys by number.
  const std::vector<std::string_view>& keys() const { return keys_; }

 private:
  // A slot keeps the low half of its key's hash: a probe compares the bytes of a key only
  // when the bits past the slot's position match, so most probes pass other keys without
  // reading them, and growing places each key again without reading it either (its position
  // is those bits under the mask).
  struct Slot {
    int32_t id = -1;
    uint32_t tag = 0;
  };
  static uint32_t Tag(uint64_t hash) { return static_cast<uint32_t>(hash); }
  bool Holds(const Slot& slot, uint64_t hash, std::string_view key) const {
    return slot.tag == Tag(hash) && keys_[static_cast<size_t>(slot.id)] == key;
  }

  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& moved : old) {
      if (moved.id < 0) continue;
      size_t slot = moved.tag & mask_;
      while (slots_[slot].id >= 0) slot = (slot + 1) & mask_;
      slots_[slot] = moved;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_;
  std::vector<std::string_view> keys_;
};

/// Items grouped by the number of their key, in a counting sort: the items of key k, in their
/// order, are members[starts[k]] to members[starts[k + 1] - 1].
struct KeyGroups {
  std::vector<size_t> starts;
  std::vector<uint32_t> members;
};

/// The positions of `key_of` (each item's key number below `num_keys`, or -1 for an item left
/// out) grouped by key.
inline KeyGroups GroupByKey(const std::vector<int32_t>& key_of, size_t num_keys) {
  KeyGroups groups;
  groups.starts.assign(num_keys + 1, 0);
  for (int32_t key : key_of) {
    if (key >= 0) ++groups.starts[static_cast<size_t>(key) + 1];
  }
  for (size_t k = 0; k < num_keys; ++k) groups.starts[k + 1] += groups.starts[k];
  groups.members.resize(groups.starts[num_keys]);
  std::vector<size_t> next(groups.starts.begin(), groups.starts.end() - 1);
  for (size_t item = 0; item < key_of.size(); ++item) {
    const int32_t key = key_of[item];
    if (key >= 0) groups.members[next[static_cast<size_t>(key)]++] = static_cast<uint32_t>(item);
  }
  return groups;
}

/// The event time of each row, in microseconds, from a timestamp column or a window struct
/// (its end); nullopt where null.
struct EventTimes {
  std::shared_ptr<arrow::Array> times;
  std::optional<int64_t> operator[](int64_t i) const {
    if (times == nullptr || times->IsNull(i)) return std::nullopt;
    return times->data()->GetValues<int64_t>(1)[i];
  }
};

inline EventTimes EventTimesOf(const std::shared_ptr<arrow::Array>& column) {
  if (column->type_id() != arrow::Type::STRUCT) return {column};
  const auto& window = static_cast<const arrow::StructArray&>(*column);
  // The end of each window, null where the window is null.
  return {window.GetFlattenedField(1).ValueOr(window.field(1))};
}

}  // namespace sluice::physical
