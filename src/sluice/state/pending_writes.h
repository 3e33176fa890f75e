// The changes of one state store version not yet applied to its database: a write buffer
// the RocksDB store fills key by key and applies in key order, as a sorted table file.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

  Lookup Find(std::string_view key) const { return FromRecord(table_.Find(key)); }
  void Put(std::string_view key, std::string_view value);
  void Remove(std::string_view key);

  /// Calls `visit(i, Find(key_of(i)))` for i = 0 .. n-1 in order, with the lookups pipelined
  /// (ArenaHashTable::Pipelined): a large buffer is mostly cache misses.
  template <typename KeyAt, typename Visit>
  void FindMany(size_t n, KeyAt&& key_of, Visit&& visit) const {
    if (size() == 0) {
      // Without hashing the keys: a batch's lookups mostly come before its first change.
      for (size_t i = 0; i < n; ++i) visit(i, Lookup{});
      return;
    }
    table_.Pipelined(n, key_of, [&](size_t i, uint64_t hash) {
      visit(i, FromRecord(table_.FindHashed(key_of(i), hash)));
    });
  }

  /// Put of keys[i] -> values[i] for every i, in order, pipelined as FindMany, first calling
  /// `before(i, lookup)` with what the buffer held for keys[i] until then (its value valid
  /// during the call only): one probe per key.
  template <typename Before>
  void PutMany(std::span<const std::string_view> keys, std::span<const std::string_view> values,
               Before&& before) {
    std::string& record = RecordBuffer();
    table_.Pipelined(
        keys.size(), [&](size_t i) { return keys[i]; },
        [&](size_t i, uint64_t hash) {
          AssemblePut(values[i], &record);
          table_.UpsertHashed(keys[i], hash, record,
                              [&](const std::optional<std::string_view>& current) {
                                before(i, FromRecord(current));
                              });
        });
  }

  /// Number of keys changed.
  int64_t size() const { return table_.size(); }
  /// Bytes of keys and values held, the measure for when to apply them.
  int64_t record_bytes() const { return table_.record_bytes(); }
  /// Bytes of memory held (the table's slots and arena).
  int64_t memory_used_bytes() const { return table_.memory_used_bytes(); }

  /// One change: the key and its new value, or nullopt for a removal. It stands for the
  /// buffer's record of the change (8 bytes, whatever the sizes of the key and value), so
  /// it and its views are valid until the next Put, Remove or Clear.
  class Change {
   public:
    std::string_view key() const { return ArenaHashTable::KeyOf(record_); }
    std::optional<std::string_view> value() const {
      return FromRecord(ArenaHashTable::ValueOf(record_)).value;
    }
    /// Where the record lies, to prefetch it.
    const void* address() const { return record_; }

   private:
    friend class PendingWrites;
    const char* record_ = nullptr;
  };
  /// Every change, sorted by key in bytewise order (RocksDB's default comparator).
  std::vector<Change> SortedChanges() const;

  /// Calls `visit(key, value)` for every change, in no particular order: value is nullopt for
  /// a removal.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    table_.ForEach([&](std::string_view key, std::string_view record) {
      visit(key, FromRecord(record).value);
    });
  }

  /// Forgets every change and releases the memory.
  void Clear() { table_.Clear(); }
  /// Makes room for `changes` changes at once (ArenaHashTable::Reserve).
  void Reserve(int64_t changes) { table_.Reserve(changes); }

 private:
  // Each value is a tag byte (kPutTag or kRemoveTag) followed by the new value's bytes.
  static constexpr char kPutTag = 'P';
  static constexpr char kRemoveTag = 'R';

  static Lookup FromRecord(const std::optional<std::string_view>& record) {
    if (!record) return {};
    if (record->front() == kRemoveTag) return {true, std::nullopt};
    return {true, record->substr(1)};
  }
  /// The record of a put of `value`, assembled in `record` (a reused buffer: the table copies
  /// the record, so one allocation serves every put).
  static void AssemblePut(std::string_view value, std::string* record) {
    record->clear();
    record->push_back(kPutTag);
    record->append(value);
  }
  static std::string& RecordBuffer() {
    thread_local std::string record;
    return record;
  }

  ArenaHashTable table_;
};

}  // namespace sluice::state
