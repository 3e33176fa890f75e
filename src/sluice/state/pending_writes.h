// The changes of one state store version not yet applied to its database: a write buffer
// the RocksDB store fills key by key and applies in key order, as a sorted table file.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/state/arena_hash_table.h"

namespace sluice::state {

/// The last change to each key since the buffer was cleared: a new value or a removal.
/// Not thread-safe. Views it returns stay valid until the next Put, Remove or Clear.
class PendingWrites {
 public:
  /// What the buffer knows of a key.
  struct Lookup {
    /// False when the buffer holds no change to the key (ask the database).
    bool changed = false;
    /// The key's new value; nullopt when it was removed (or when !changed).
    std::optional<std::string_view> value;
  };

  Lookup Find(std::string_view key) const;
  void Put(std::string_view key, std::string_view value);
  void Remove(std::string_view key);

  /// Number of keys changed.
  int64_t size() const { return table_.size(); }
  /// Bytes of keys and values held, the measure for when to apply them.
  int64_t record_bytes() const { return table_.record_bytes(); }
  /// Bytes of memory held (the table's slots and arena).
  int64_t memory_used_bytes() const { return table_.memory_used_bytes(); }

  /// One change: the key and its new value, or nullopt for a removal.
  using Change = std::pair<std::string_view, std::optional<std::string_view>>;
  /// Every change, sorted by key in bytewise order (RocksDB's default comparator). Views are
  /// valid until the next Put, Remove or Clear.
  std::vector<Change> SortedChanges() const;

  /// Forgets every change and releases the memory.
  void Clear() { table_.Clear(); }

 private:
  // Each value is a tag byte (kPutTag or kRemoveTag) followed by the new value's bytes.
  ArenaHashTable table_;
};

}  // namespace sluice::state
