// A byte-string hash map that keeps its entries in a few large blocks instead of one heap
// object per entry: the in-memory state store's storage.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/common/huge_pages.h"
#include "sluice/common/prefaulted_blocks.h"

namespace sluice::state {

/// Maps byte-string keys to byte-string values. Each entry is one record (key length, value
/// length, key, value) bump-allocated in an arena of large blocks; the index is an
/// open-addressing table (linear probing, backward-shift removal, no tombstones) of 8-byte
/// slots, each holding the record's address, up to 10 bits of its key's hash (its tag) so most
/// probes never touch a record and a doubling of the index reads none, how far the entry sits
/// from its home slot so a removal shifts the entries after it without reading their records,
/// and the entry's mark. Space of overwritten and
/// removed records is reclaimed in two ways: a block left with no live record is freed at
/// once, which costs no copy when entries leave in about the order they came (state evicted
/// by event time); and once the arena holds more garbage than live bytes, the live records of
/// its sparsest blocks are copied to its end and those blocks freed.
/// The mark is a flag an entry keeps until it is cleared (MarkingUpsertHashed sets it;
/// UnmarkHashed and UnmarkAll clear it): a store changed in place marks the entries a version
/// changed, so that it records each one's old value once.
/// While the table holds its garbage (HoldGarbage), nothing is reclaimed: the records of
/// removed entries, and of values replaced by values of another length, keep their bytes, so
/// an undo log can point at them instead of copying them.
/// Not thread-safe. Views it returns stay valid until the next Upsert, Erase or Clear; while
/// garbage is held, those of removed and replaced records stay valid until ReleaseGarbage.
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
    constexpr size_t kSlotsScannedAhead = 4;  // mostly in the cache line prefetched
    uint64_t hashes[kRing];
    for (size_t i = 0; i < n + kSlotsAhead; ++i) {
      if (i < n) {
        uint64_t hash = Hash(key_of(i));
        hashes[i % kRing] = hash;
        __builtin_prefetch(&slots_[hash & mask_]);
      }
      if (i >= kRecordsAhead && i - kRecordsAhead < n) {
        // The record the probe will compare the key with: the first along the key's cluster
        // whose tag says it may be the key's (an insert mostly meets other keys, whose records
        // it never reads; a key present is often a slot or two past its home).
        const uint64_t hash = hashes[(i - kRecordsAhead) % kRing];
        for (size_t at = hash & mask_, seen = 0; seen < kSlotsScannedAhead;
             at = (at + 1) & mask_, ++seen) {
          const uint64_t slot = slots_[at];
          if (slot == kEmpty) break;
          if ((slot & kTagMask) == TagOf(hash)) {
            __builtin_prefetch(RecordOf(slot));
            break;
          }
        }
      }
      if (i >= kSlotsAhead) visit(i - kSlotsAhead, hashes[(i - kSlotsAhead) % kRing]);
    }
  }

  /// Sets the value of `key`, keeping its mark. A value of the same length as the old one is
  /// overwritten in place; otherwise a new record is appended.
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
    UpsertAt(index, hash, key, value, /*mark=*/false);
  }

  /// Upsert that marks the entry, first showing `before` the key's current value (nullopt
  /// when absent) unless the entry is marked already, with a single probe: what an undo log of
  /// the changes since the marks were cleared needs. `before` must not change this table.
  /// Returns the key as the table keeps it: its bytes never change, and they stay where they
  /// are as long as views do, or while garbage is held, until ReleaseGarbage.
  template <typename Before>
  std::string_view MarkingUpsertHashed(std::string_view key, uint64_t hash,
                                       std::string_view value, Before&& before) {
    size_t index = Probe(key, hash);
    uint64_t slot = slots_[index];
    if (slot == kEmpty) {
      before(std::optional<std::string_view>());
    } else if ((slot & kMarkBit) == 0) {
      before(std::optional<std::string_view>(ValueOf(RecordOf(slot))));
    }
    return KeyOf(UpsertAt(index, hash, key, value, /*mark=*/true));
  }

  /// An entry's key, value and mark, as FindEntry, UnmarkHashed and EraseHashed report them.
  struct Entry {
    std::string_view key;
    std::string_view value;
    bool marked = false;
  };

  /// The entry of `key`, or nullopt.
  std::optional<Entry> FindEntry(std::string_view key) const;

  /// Clears the mark of `key`'s entry (with the key's Hash already computed); returns the entry
  /// as it was, or nullopt when the key is absent.
  std::optional<Entry> UnmarkHashed(std::string_view key, uint64_t hash);

  /// Clears every mark.
  void UnmarkAll();

  /// Slots of the index: what a walk over all of them (ForEach, UnmarkAll) visits.
  size_t slot_count() const { return slots_.size(); }

  /// Removes `key`; returns whether it was present.
  bool Erase(std::string_view key) {
    return EraseHashed(key, Hash(key), [](const Entry&) {});
  }

  /// Erase with the key's Hash already computed that first shows `before` the entry being
  /// removed, with a single probe: what an undo log needs. `before` must not change this table.
  template <typename Before>
  bool EraseHashed(std::string_view key, uint64_t hash, Before&& before) {
    size_t hole = Probe(key, hash);
    uint64_t slot = slots_[hole];
    if (slot == kEmpty) return false;
    before(EntryOf(slot));
    EraseAt(hole);
    return true;
  }

  /// Removes every entry and releases the memory.
  void Clear();

  /// Sizes the index for `entries` entries now, rather than growing it step by step (each
  /// step a pass over every entry) as they come.
  void Reserve(int64_t entries);

  /// Keeps the records of removed and replaced entries, and their bytes, until ReleaseGarbage.
  void HoldGarbage() { holding_garbage_ = true; }
  /// Ends HoldGarbage and reclaims what the garbage gathered meanwhile allows.
  void ReleaseGarbage() {
    holding_garbage_ = false;
    Reclaim();
    taken_while_held_ = 0;
  }

  /// Calls `visit(key, value)` for every entry, in ForEachRecord's order. `visit` must not
  /// modify the table.
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    ForEachRecord([&](const char* record) { visit(KeyOf(record), ValueOf(record)); });
  }

  /// Calls `visit(record)` for every entry, with the address of its record: 8 bytes that
  /// stand for the entry, read with KeyOf and ValueOf until the table changes. The walk reads
  /// the arena in order, stepping over the records of removed and replaced entries: reading
  /// memory in order beat walking the index (records in no order, a cache miss each, even
  /// fetched ahead) by more than the garbage costs to step over, which compaction keeps
  /// below the live bytes. `visit` must not modify the table.
  template <typename Visit>
  void ForEachRecord(Visit&& visit) const {
    ForEachRecordOfPart(0, 1, visit);
  }

  /// ForEach over part `part` of `parts`: the arena's blocks in runs of about equal bytes,
  /// one run a part. Walking part 0, then 1 and on visits the entries in ForEach's order, and
  /// parts may be walked at once on several threads, as a walk only reads.
  template <typename Visit>
  void ForEachOfPart(size_t part, size_t parts, Visit&& visit) const {
    ForEachRecordOfPart(part, parts,
                        [&](const char* record) { visit(KeyOf(record), ValueOf(record)); });
  }

  /// ForEachRecord over part `part` of `parts` (ForEachOfPart).
  template <typename Visit>
  void ForEachRecordOfPart(size_t part, size_t parts, Visit&& visit) const {
    const auto [first, end] = BlocksOfPart(part, parts);
    for (size_t b = first; b < end; ++b) {
      const Block& block = blocks_[b];
      for (size_t at = 0; at < block.used;) {
        const char* record = block.data.get() + at;
        at += static_cast<size_t>(RecordBytesOf(record));
        if (!IsDiscarded(record)) visit(record);
      }
    }
  }

  /// The key and the value of a record ForEachRecord showed.
  static std::string_view KeyOf(const char* record) {
    return {record + kRecordHeader, KeyLengthOf(record)};
  }
  static std::string_view ValueOf(const char* record) {
    uint32_t value_length;
    std::memcpy(&value_length, record + sizeof(uint32_t), sizeof(value_length));
    return {record + kRecordHeader + KeyLengthOf(record), value_length};
  }

  /// Bytes held: the slot array and the arena blocks (live records, garbage and the blocks kept
  /// for reuse).
  int64_t memory_used_bytes() const;

  /// Bytes of the live records: 8 bytes of lengths plus the key and value of each entry.
  int64_t record_bytes() const { return record_bytes_; }

  /// Bytes of the records no entry refers to any more, not yet reclaimed.
  int64_t garbage_bytes() const { return garbage_bytes_; }

  /// The bytes a record of `key` and `value` takes in the arena.
  static int64_t RecordBytes(std::string_view key, std::string_view value) {
    return static_cast<int64_t>(kRecordHeader + key.size() + value.size());
  }

 private:
  // A slot packs a record's address (low 48 bits: user-space addresses on x86-64 and AArch64
  // fit) with the entry's distance from its home slot (bits 48 to 52; kFarFromHome when it
  // is that far or farther, and then worked out from the key: rare below three quarters
  // full), its tag (bits 53 to 62), so a probe compares it before touching memory, and the
  // entry's mark (bit 63). The tag holds the tag_bits_ bits of its key's hash just above
  // those of the home slot (from bit tag_shift_, the log2 of the slots): doubling the index
  // takes each entry's next home bit from its tag, without reading its record (Grow).
  static constexpr uint64_t kEmpty = 0;
  static constexpr uint64_t kAddressMask = (uint64_t{1} << 48) - 1;
  static constexpr int kDistanceShift = 48;
  static constexpr uint64_t kFarFromHome = 31;
  static constexpr uint64_t kDistanceMask = kFarFromHome << kDistanceShift;
  static constexpr uint64_t kMarkBit = uint64_t{1} << 63;
  static constexpr uint64_t kTagMask = ~kAddressMask & ~kDistanceMask & ~kMarkBit;
  static constexpr int kTagShift = 53;
  static constexpr int kTagBits = 10;
  // A doubling that would leave tags narrower than this reads every record to rehash
  // instead, which gives them back all their bits; narrower tags send more probes to records
  // that are not the key's.
  static constexpr int kMinTagBits = 4;
  // A record's header: its key's length, whose top bit is set once no entry refers to the
  // record (Discard), then its value's length.
  static constexpr size_t kRecordHeader = 2 * sizeof(uint32_t);
  static constexpr uint32_t kDiscardedBit = uint32_t{1} << 31;

  static uint32_t KeyLengthOf(const char* record) {
    uint32_t key_length;
    std::memcpy(&key_length, record, sizeof(key_length));
    return key_length & ~kDiscardedBit;
  }
  static bool IsDiscarded(const char* record) {
    uint32_t key_length;
    std::memcpy(&key_length, record, sizeof(key_length));
    return (key_length & kDiscardedBit) != 0;
  }

  static const char* RecordOf(uint64_t slot) {
    return reinterpret_cast<const char*>(static_cast<uintptr_t>(slot & kAddressMask));
  }
  /// The tag of a key of `hash`, in its place in a slot.
  uint64_t TagOf(uint64_t hash) const {
    return ((hash >> tag_shift_) & ((uint64_t{1} << tag_bits_) - 1)) << kTagShift;
  }
  uint64_t MakeSlot(uint64_t hash, const char* record) const;
  /// Sizes the index to `slots` empty slots (a power of two), its tags in full.
  void ResetSlots(size_t slots);
  /// `slot` with its distance from home set for sitting at `index`, its home being `home`.
  uint64_t AtIndex(uint64_t slot, size_t index, size_t home) const {
    const uint64_t distance = std::min<uint64_t>((index - home) & mask_, kFarFromHome);
    return (slot & ~kDistanceMask) | (distance << kDistanceShift);
  }
  /// The home slot of the entry in slot `index`.
  size_t HomeOf(uint64_t slot, size_t index) const {
    const uint64_t distance = (slot & kDistanceMask) >> kDistanceShift;
    if (distance == kFarFromHome) return Hash(KeyOf(RecordOf(slot))) & mask_;
    return (index - distance) & mask_;
  }
  static Entry EntryOf(uint64_t slot) {
    const char* record = RecordOf(slot);
    return Entry{KeyOf(record), ValueOf(record), (slot & kMarkBit) != 0};
  }
  static int64_t RecordBytesOf(const char* record) {
    return RecordBytes(KeyOf(record), ValueOf(record));
  }

  /// The slot index holding `key`, or the empty slot where it would go.
  size_t Probe(std::string_view key, uint64_t hash) const;
  /// Removes the entry in slot `hole`, which must hold one.
  void EraseAt(size_t hole);
  /// Sets `key` to `value` at `index`, the slot Probe found for it, keeping the entry's mark,
  /// and marking it when `mark`; returns the entry's record.
  const char* UpsertAt(size_t index, uint64_t hash, std::string_view key,
                       std::string_view value, bool mark);
  char* AppendRecord(std::string_view key, std::string_view value);
  char* Allocate(size_t bytes);
  void Grow();
  /// Counts a record no slot refers to any more as garbage, and marks it so.
  void Discard(const char* record);
  /// Frees the blocks left without live records, then compacts if garbage outweighs the live
  /// bytes; does nothing while garbage is held.
  void Reclaim();
  void FreeEmptyBlocks();
  /// Copies the live records out of the sparsest blocks and frees them once garbage outweighs
  /// the live bytes.
  void CompactIfWasteful();
  /// The blocks [first, end) of part `part` of `parts`: a block belongs to the part its
  /// middle byte falls in, counting the bytes used of every block in order.
  std::pair<size_t, size_t> BlocksOfPart(size_t part, size_t parts) const;
  /// The index in blocks_ of the block holding `record`.
  size_t BlockOf(const char* record) const;
  void IndexBlocks();

  struct Block {
    std::unique_ptr<char[], LargeDeleter> data;
    size_t capacity = 0;
    size_t used = 0;
    size_t live = 0;  // bytes of the records slots refer to
  };
  /// Keeps a freed block of the largest size for the next one needed, within a bound, or
  /// frees it: fresh memory costs a page fault per page on first touch.
  void KeepSpare(Block block);

  // Probes land anywhere in a large index: huge pages spare them most TLB misses.
  HugePageVector<uint64_t> slots_;
  size_t mask_ = 0;
  int tag_shift_ = 0;  // log2 of the slots
  int tag_bits_ = kTagBits;
  int64_t size_ = 0;
  /// Records are appended to the last block.
  std::vector<Block> blocks_;
  /// Freed blocks of the largest size, kept for reuse (KeepSpare).
  std::vector<std::unique_ptr<char[], LargeDeleter>> spare_blocks_;
  /// Blocks of the largest size faulted in ahead, once the table is large (Allocate).
  std::unique_ptr<PrefaultedBlocks> prefaulted_;
  /// The start address of each block with its index in blocks_, sorted by address.
  std::vector<std::pair<const char*, size_t>> blocks_by_address_;
  bool has_empty_blocks_ = false;
  bool holding_garbage_ = false;
  /// Bytes of the blocks taken since garbage was last released: what a version (a batch) of
  /// a store changed in place needs.
  size_t taken_while_held_ = 0;
  int64_t block_bytes_ = 0;
  /// Bytes of records that are no longer referenced (overwritten or removed).
  int64_t garbage_bytes_ = 0;
  int64_t record_bytes_ = 0;
};

}  // namespace sluice::state
