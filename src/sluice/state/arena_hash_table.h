// A byte-string hash map that keeps its entries in a few large blocks instead of one heap
// object per entry: the in-memory state store's storage.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sluice::state {

/// Maps byte-string keys to byte-string values. Each entry is one record (key length, value
/// length, key, value) bump-allocated in an arena of large blocks; the index is an
/// open-addressing table (linear probing, backward-shift removal, no tombstones) of 8-byte
/// slots, each holding the record's address and 16 bits of its key's hash so most probes
/// never touch a record. Space of overwritten and removed records is reclaimed by compacting
/// the arena once it holds more garbage than live bytes.
/// Not thread-safe. Views it returns stay valid until the next Upsert, Erase or Clear.
class ArenaHashTable {
 public:
  ArenaHashTable();
  ArenaHashTable(const ArenaHashTable&) = delete;
  ArenaHashTable& operator=(const ArenaHashTable&) = delete;

  /// Number of entries.
  int64_t size() const { return size_; }

  /// The hash of `key` that the *Hashed calls take (the one every ArenaHashTable uses).
  static uint64_t Hash(std::string_view key);

  /// The value of `key`, or nullopt.
  std::optional<std::string_view> Find(std::string_view key) const {
    return FindHashed(key, Hash(key));
  }
  /// Find with the key's Hash already computed.
  std::optional<std::string_view> FindHashed(std::string_view key, uint64_t hash) const;

  /// Calls `visit(i, hash)` for i = 0 .. n-1 in order, `hash` being Hash(key_of(i)), while
  /// prefetching the slots and records of the keys 8 to 16 places ahead. On a table larger
  /// than the CPU caches, a run of *Hashed calls made this way waits on memory far less than
  /// the same calls one by one. `visit` may change the table.
  template <typename KeyAt, typename Visit>
  void Pipelined(size_t n, KeyAt&& key_of, Visit&& visit) const {
    constexpr size_t kSlotsAhead = 16;
    constexpr size_t kRecordsAhead = 8;
    constexpr size_t kRing = 32;  // a power of two above kSlotsAhead
    uint64_t hashes[kRing];
    for (size_t i = 0; i < n + kSlotsAhead; ++i) {
      if (i < n) {
        uint64_t hash = Hash(key_of(i));
        hashes[i % kRing] = hash;
        __builtin_prefetch(&slots_[hash & mask_]);
      }
      if (i >= kRecordsAhead && i - kRecordsAhead < n) {
        uint64_t slot = slots_[hashes[(i - kRecordsAhead) % kRing] & mask_];
        if (slot != kEmpty) __builtin_prefetch(RecordOf(slot));
      }
      if (i >= kSlotsAhead) visit(i - kSlotsAhead, hashes[(i - kSlotsAhead) % kRing]);
    }
  }

  /// Sets the value of `key`. A value of the same length as the old one is overwritten in
  /// place; otherwise a new record is appended.
  void Upsert(std::string_view key, std::string_view value);

  /// Upsert that first shows `before` the key's current value (nullopt when absent), with a
  /// single probe: what an undo log needs. `before` must not change this table.
  template <typename Before>
  void Upsert(std::string_view key, std::string_view value, Before&& before) {
    UpsertHashed(key, Hash(key), value, before);
  }
  /// Upsert with `before`, with the key's Hash already computed.
  template <typename Before>
  void UpsertHashed(std::string_view key, uint64_t hash, std::string_view value,
                    Before&& before) {
    size_t index = Probe(key, hash);
    std::optional<std::string_view> current;
    if (slots_[index] != kEmpty) current = ValueOf(RecordOf(slots_[index]));
    before(current);
    UpsertAt(index, hash, key, value);
  }

  /// Inserts `key` with the value `make()` returns (a view valid during the call) unless the
  /// key is present, with a single probe; returns whether it inserted.
  template <typename Make>
  bool InsertIfAbsent(std::string_view key, Make&& make) {
    return InsertIfAbsentHashed(key, Hash(key), make);
  }
  /// InsertIfAbsent with the key's Hash already computed.
  template <typename Make>
  bool InsertIfAbsentHashed(std::string_view key, uint64_t hash, Make&& make) {
    size_t index = Probe(key, hash);
    if (slots_[index] != kEmpty) return false;
    UpsertAt(index, hash, key, make());
    return true;
  }

  /// Removes `key`; returns whether it was present.
  bool Erase(std::string_view key);

  /// Removes every entry and releases the memory.
  void Clear();

  /// Removes every entry, for a table filled again to about the same size: keeps the slot
  /// array and the arena's memory (no growing, no fresh pages to fault in), unless the
  /// entries filled less than a quarter of the slots, when it releases them as Clear does.
  /// So memory follows the recent fills and is not held at the largest one forever.
  void ClearForRefill();

  /// Calls `visit(key, value)` for every entry, in slot order. `visit` must not modify the
  /// table.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    for (uint64_t slot : slots_) {
      if (slot != kEmpty) visit(KeyOf(RecordOf(slot)), ValueOf(RecordOf(slot)));
    }
  }

  /// Bytes held: the slot array and the arena blocks (live records and garbage).
  int64_t memory_used_bytes() const;

  /// Bytes of the live records: 8 bytes of lengths plus the key and value of each entry.
  int64_t record_bytes() const { return record_bytes_; }

 private:
  static constexpr uint64_t kEmpty = 0;
  static constexpr size_t kRecordHeader = 2 * sizeof(uint32_t);

  static const char* RecordOf(uint64_t slot);
  static std::string_view KeyOf(const char* record);
  static std::string_view ValueOf(const char* record);
  static uint64_t MakeSlot(uint64_t hash, const char* record);
  static size_t RecordSize(const char* record);

  /// The slot index holding `key`, or the empty slot where it would go.
  size_t Probe(std::string_view key, uint64_t hash) const;
  /// Sets `key` to `value` at `index`, the slot Probe found for it.
  void UpsertAt(size_t index, uint64_t hash, std::string_view key, std::string_view value);
  char* AppendRecord(std::string_view key, std::string_view value);
  char* Allocate(size_t bytes);
  void Grow();
  void CompactIfWasteful();

  struct Block {
    std::unique_ptr<char[]> data;
    size_t capacity = 0;
    size_t used = 0;
  };

  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
  int64_t size_ = 0;
  std::vector<Block> blocks_;
  int64_t block_bytes_ = 0;
  /// Bytes of records that are no longer referenced (overwritten or removed).
  int64_t garbage_bytes_ = 0;
  int64_t record_bytes_ = 0;
};

}  // namespace sluice::state
