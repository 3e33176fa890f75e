#include "sluice/state/arena_hash_table.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <iterator>
#include <numeric>

#include <arrow/util/hashing.h>
#include <arrow/util/logging.h>

namespace sluice::state {

namespace {

static_assert(sizeof(void*) == 8, "slots pack 48-bit addresses");

constexpr size_t kInitialSlots = 16;
// Blocks start small so the many tiny stores of a query (operators x partitions) stay tiny,
// and grow with the table up to a size where one allocation per block is negligible.
constexpr size_t kFirstBlockBytes = 64 * 1024;
constexpr size_t kLargestBlockBytes = 8 * 1024 * 1024;
// A table this large gets its next blocks faulted in ahead, a few at a time: a growing table
// is what pays for fresh memory, and the blocks kept ready are a small share of it.
constexpr int64_t kPrefaultFromBytes = int64_t{256} << 20;
constexpr size_t kPrefaultedBlocks = 4;
// A slot array this large, made when the table doubles, is faulted in on two threads.
constexpr size_t kPrefaultOnTwoThreadsBytes = size_t{16} << 20;
// Records go in small pages, though a large table's are read in no order: a table growing by
// gigabytes (q20's join state) spent a quarter of its CPU time clearing huge pages on first
// touch (see Pages::kSmall), 16 CPU-s against 12 in small pages, while the queries that read
// records at random in a large table (q5, q7) ran no slower. The slots, which every probe
// reads, stay in huge pages.
constexpr Pages kRecordPages = Pages::kSmall;

}  // namespace

ArenaHashTable::ArenaHashTable() { ResetSlots(kInitialSlots); }

void ArenaHashTable::ResetSlots(size_t slots) {
  slots_.assign(slots, kEmpty);
  mask_ = slots - 1;
  tag_shift_ = std::countr_zero(slots);
  tag_bits_ = kTagBits;
}

uint64_t ArenaHashTable::Hash(std::string_view key) {
  return arrow::internal::ComputeStringHash<0>(key.data(), static_cast<int64_t>(key.size()));
}

uint64_t ArenaHashTable::MakeSlot(uint64_t hash, const char* record) const {
  auto address = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(record));
  ARROW_CHECK_EQ(address & ~kAddressMask, 0u) << "a state record address exceeds 48 bits";
  return TagOf(hash) | address;
}

size_t ArenaHashTable::Probe(std::string_view key, uint64_t hash) const {
  uint64_t tag = TagOf(hash);
  size_t index = hash & mask_;
  while (true) {
    uint64_t slot = slots_[index];
    if (slot == kEmpty) return index;
    if ((slot & kTagMask) == tag && KeyOf(RecordOf(slot)) == key) return index;
    index = (index + 1) & mask_;
  }
}

std::optional<std::string_view> ArenaHashTable::FindHashed(std::string_view key,
                                                           uint64_t hash) const {
  uint64_t slot = slots_[Probe(key, hash)];
  if (slot == kEmpty) return std::nullopt;
  return ValueOf(RecordOf(slot));
}

std::optional<ArenaHashTable::Entry> ArenaHashTable::FindEntry(std::string_view key) const {
  uint64_t slot = slots_[Probe(key, Hash(key))];
  if (slot == kEmpty) return std::nullopt;
  return EntryOf(slot);
}

std::optional<ArenaHashTable::Entry> ArenaHashTable::UnmarkHashed(std::string_view key,
                                                                  uint64_t hash) {
  uint64_t& slot = slots_[Probe(key, hash)];
  if (slot == kEmpty) return std::nullopt;
  Entry entry = EntryOf(slot);
  slot &= ~kMarkBit;
  return entry;
}

void ArenaHashTable::UnmarkAll() {
  for (uint64_t& slot : slots_) slot &= ~kMarkBit;
}

char* ArenaHashTable::Allocate(size_t bytes) {
  if (blocks_.empty() || blocks_.back().capacity - blocks_.back().used < bytes) {
    // About half the live bytes: the blocks grow with the table, so there are few of them, and
    // shrink with it after a compaction, so a small table's garbage is soon reclaimed.
    const size_t next = std::clamp(std::bit_ceil(static_cast<size_t>(record_bytes_) / 2),
                                   kFirstBlockBytes, kLargestBlockBytes);
    const size_t capacity = std::max(next, bytes);
    std::unique_ptr<char[], LargeDeleter> data;
    if (capacity == kLargestBlockBytes && !spare_blocks_.empty()) {
      data = std::move(spare_blocks_.back());
      spare_blocks_.pop_back();
    } else if (capacity == kLargestBlockBytes && record_bytes_ >= kPrefaultFromBytes) {
      if (prefaulted_ == nullptr) {
        prefaulted_ = std::make_unique<PrefaultedBlocks>(kLargestBlockBytes, kPrefaultedBlocks,
                                                         kRecordPages);
      }
      data = prefaulted_->Take();
    }
    if (data == nullptr) {
      data.reset(static_cast<char*>(AllocateLarge(capacity, nullptr, kRecordPages)));
      data.get_deleter().bytes = capacity;
    }
    blocks_.push_back(Block{std::move(data), capacity, 0, 0});
    block_bytes_ += static_cast<int64_t>(capacity);
    if (holding_garbage_) taken_while_held_ += capacity;
    const char* start = blocks_.back().data.get();
    auto at = std::lower_bound(blocks_by_address_.begin(), blocks_by_address_.end(),
                               std::make_pair(start, size_t{0}));
    blocks_by_address_.insert(at, {start, blocks_.size() - 1});
  }
  Block& block = blocks_.back();
  char* at = block.data.get() + block.used;
  block.used += bytes;
  block.live += bytes;
  return at;
}

char* ArenaHashTable::AppendRecord(std::string_view key, std::string_view value) {
  size_t size = kRecordHeader + key.size() + value.size();
  char* record = Allocate(size);
  record_bytes_ += static_cast<int64_t>(size);
  ARROW_CHECK_LT(key.size(), size_t{kDiscardedBit}) << "a state key of 2 GiB or more";
  auto key_length = static_cast<uint32_t>(key.size());
  auto value_length = static_cast<uint32_t>(value.size());
  std::memcpy(record, &key_length, sizeof(key_length));
  std::memcpy(record + sizeof(uint32_t), &value_length, sizeof(value_length));
  std::memcpy(record + kRecordHeader, key.data(), key.size());
  if (!value.empty()) std::memcpy(record + kRecordHeader + key.size(), value.data(), value.size());
  return record;
}

void ArenaHashTable::Upsert(std::string_view key, std::string_view value) {
  uint64_t hash = Hash(key);
  UpsertAt(Probe(key, hash), hash, key, value, /*mark=*/false);
}

const char* ArenaHashTable::UpsertAt(size_t index, uint64_t hash, std::string_view key,
                                     std::string_view value, bool mark) {
  const uint64_t mark_bit = mark ? kMarkBit : 0;
  uint64_t slot = slots_[index];
  if (slot != kEmpty) {
    const char* record = RecordOf(slot);
    std::string_view old_value = ValueOf(record);
    if (old_value.size() == value.size()) {
      // The record lives in a block this table owns; only the const view makes it const.
      if (!value.empty()) {
        std::memcpy(const_cast<char*>(old_value.data()), value.data(), value.size());
      }
      slots_[index] = slot | mark_bit;
      return record;
    }
    Discard(record);
    // The same slot: its distance from home and its mark stay.
    slots_[index] = MakeSlot(hash, AppendRecord(key, value)) |
                    (slot & (kDistanceMask | kMarkBit)) | mark_bit;
    Reclaim();  // a compaction moves the record, and leaves the slot where it was
    return RecordOf(slots_[index]);
  }
  const char* record = AppendRecord(key, value);
  slots_[index] = AtIndex(MakeSlot(hash, record), index, hash & mask_) | mark_bit;
  ++size_;
  // Linear probing stays short below three quarters full.
  if (static_cast<size_t>(size_) * 4 > slots_.size() * 3) Grow();
  return record;
}

void ArenaHashTable::EraseAt(size_t hole) {
  Discard(RecordOf(slots_[hole]));
  --size_;
  // Backward-shift: move later entries of the cluster into the hole when their home slot
  // does not lie cyclically in (hole, current], so every entry stays reachable from its home.
  size_t current = hole;
  while (true) {
    current = (current + 1) & mask_;
    uint64_t slot = slots_[current];
    if (slot == kEmpty) break;
    const size_t home = HomeOf(slot, current);
    bool home_in_between = ((current - home) & mask_) < ((current - hole) & mask_);
    if (!home_in_between) {
      slots_[hole] = AtIndex(slot, hole, home);
      hole = current;
    }
  }
  slots_[hole] = kEmpty;
  Reclaim();
}

void ArenaHashTable::Grow() {
  auto old = std::move(slots_);
  const size_t n = old.size();
  const size_t old_mask = mask_;
  const bool from_tags = tag_bits_ > kMinTagBits;
  // A large array's pages are faulted in on two threads first: on a virtual machine the first
  // touch of fresh memory can cost more than the rest of a doubling, on the thread every later
  // put waits for (q20's join values from 4M to 16M slots: 440-520 ms on one thread, 250-290
  // on two, when the memory was not the process's before).
  slots_.reserve(n * 2);
  if (n * 2 * sizeof(uint64_t) >= kPrefaultOnTwoThreadsBytes) {
    PrefaultOnTwoThreads(reinterpret_cast<char*>(slots_.data()), n * 2 * sizeof(uint64_t));
  }
  slots_.assign(n * 2, kEmpty);
  mask_ = slots_.size() - 1;
  auto place = [this](uint64_t slot, size_t home) {
    size_t index = home;
    while (slots_[index] != kEmpty) index = (index + 1) & mask_;
    slots_[index] = AtIndex(slot, index, home);
  };
  if (from_tags) {
    // Each entry's new home is its old one with the next bit of its hash, the lowest of its
    // tag, which gives that bit up. The old slots are read in order, and the new ones filled
    // near two points moving with them: no record is read but those of entries far from home.
    tag_shift_ += 1;
    tag_bits_ -= 1;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t slot = old[i];
      if (slot == kEmpty) continue;
      const uint64_t distance = (slot & kDistanceMask) >> kDistanceShift;
      const size_t old_home = distance == kFarFromHome
                                  ? Hash(KeyOf(RecordOf(slot))) & old_mask
                                  : (i - distance) & old_mask;
      const size_t home = old_home | (((slot >> kTagShift) & 1) * n);
      place((slot & ~kTagMask) | (((slot & kTagMask) >> 1) & kTagMask), home);
    }
    return;
  }
  // Tags too narrow for another doubling: every key hashed again, and tagged in full.
  tag_shift_ += 1;
  tag_bits_ = kTagBits;
  // A pipeline, as Pipelined runs probes: each record is prefetched well before its key is
  // hashed, and each new home slot a few entries before it is filled. Entry by entry, every
  // move of a table larger than the caches would wait on memory twice.
  constexpr size_t kRecordsAhead = 16;
  constexpr size_t kPlacesAhead = 8;
  struct Move {
    uint64_t slot;
    size_t home;
  };
  Move ring[kPlacesAhead];
  size_t moves = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i + kRecordsAhead < n && old[i + kRecordsAhead] != kEmpty) {
      __builtin_prefetch(RecordOf(old[i + kRecordsAhead]));
    }
    const uint64_t slot = old[i];
    if (slot == kEmpty) continue;
    const uint64_t hash = Hash(KeyOf(RecordOf(slot)));
    const size_t home = hash & mask_;
    __builtin_prefetch(&slots_[home]);
    Move& move = ring[moves % kPlacesAhead];
    if (moves >= kPlacesAhead) place(move.slot, move.home);
    move = {(slot & ~kTagMask) | TagOf(hash), home};
    ++moves;
  }
  for (size_t m = moves > kPlacesAhead ? moves - kPlacesAhead : 0; m < moves; ++m) {
    place(ring[m % kPlacesAhead].slot, ring[m % kPlacesAhead].home);
  }
}

void ArenaHashTable::Discard(const char* record) {
  const auto size = static_cast<size_t>(RecordBytesOf(record));
  // The record lives in a block this table owns; only the const view makes it const.
  const uint32_t marked = KeyLengthOf(record) | kDiscardedBit;
  std::memcpy(const_cast<char*>(record), &marked, sizeof(marked));
  garbage_bytes_ += static_cast<int64_t>(size);
  record_bytes_ -= static_cast<int64_t>(size);
  Block& block = blocks_[BlockOf(record)];
  block.live -= size;
  if (block.live == 0) has_empty_blocks_ = true;
}

std::pair<size_t, size_t> ArenaHashTable::BlocksOfPart(size_t part, size_t parts) const {
  if (parts <= 1) return {0, blocks_.size()};
  size_t total = 0;
  for (const Block& block : blocks_) total += block.used;
  size_t first = blocks_.size();
  size_t end = blocks_.size();
  size_t before = 0;
  for (size_t b = 0; b < blocks_.size(); ++b) {
    const size_t middle = before + blocks_[b].used / 2;
    const size_t part_of = total == 0 ? 0 : middle * parts / total;
    before += blocks_[b].used;
    if (part_of < part) continue;
    if (part_of > part) {
      end = b;
      break;
    }
    if (first == blocks_.size()) first = b;
  }
  if (first == blocks_.size()) return {0, 0};
  return {first, end};
}

size_t ArenaHashTable::BlockOf(const char* record) const {
  // The last block starting at or before the record (the first one does). A binary search
  // without branches: records come in no order (each discard, every entry a compaction
  // walks), so a branch on each comparison was mispredicted half the time, and BlockOf was
  // 2.3% of q7's samples.
  const auto at = reinterpret_cast<uintptr_t>(record);
  const std::pair<const char*, size_t>* base = blocks_by_address_.data();
  size_t n = blocks_by_address_.size();
  while (n > 1) {
    const size_t half = n / 2;
    base = reinterpret_cast<uintptr_t>(base[half].first) <= at ? base + half : base;
    n -= half;
  }
  return base->second;
}

void ArenaHashTable::IndexBlocks() {
  blocks_by_address_.clear();
  for (size_t i = 0; i < blocks_.size(); ++i) {
    blocks_by_address_.emplace_back(blocks_[i].data.get(), i);
  }
  std::sort(blocks_by_address_.begin(), blocks_by_address_.end());
}

void ArenaHashTable::Reclaim() {
  if (holding_garbage_) return;
  if (has_empty_blocks_) FreeEmptyBlocks();
  CompactIfWasteful();
}

void ArenaHashTable::FreeEmptyBlocks() {
  has_empty_blocks_ = false;
  std::vector<Block> kept;
  kept.reserve(blocks_.size());
  for (size_t i = 0; i < blocks_.size(); ++i) {
    Block& block = blocks_[i];
    if (block.live > 0) {
      kept.push_back(std::move(block));
      continue;
    }
    garbage_bytes_ -= static_cast<int64_t>(block.used);
    if (i + 1 == blocks_.size()) {
      // The block appends go to: emptied, it takes appends from its start again.
      block.used = 0;
      kept.push_back(std::move(block));
      continue;
    }
    block_bytes_ -= static_cast<int64_t>(block.capacity);
    KeepSpare(std::move(block));
  }
  blocks_ = std::move(kept);
  IndexBlocks();
}

void ArenaHashTable::KeepSpare(Block block) {
  // Where entries leave about as fast as others come, a batch's new records land in memory
  // the last batch's old ones left: up to half the live bytes are kept, or as much as the
  // last batch took, if more (a stream-stream join writes each row it keeps twice, once when
  // it comes and again when it moves into the index of one that left).
  const auto limit = std::max(static_cast<size_t>(record_bytes_ / 2), taken_while_held_);
  if (block.capacity != kLargestBlockBytes ||
      (spare_blocks_.size() + 1) * kLargestBlockBytes > limit) {
    return;  // freed with `block`
  }
  spare_blocks_.push_back(std::move(block.data));
}

void ArenaHashTable::CompactIfWasteful() {
  // Copying costs about the live bytes copied, so compact only once garbage outweighs the
  // live bytes, and then copy out of the sparsest blocks only, until a quarter of the arena at
  // most is garbage: the amortized cost per change stays constant and memory at most doubles.
  // Where entries leave in about the order they came, the old blocks are nearly empty and the
  // recent ones full; copying only the former moves a fraction of the entries.
  if (garbage_bytes_ < static_cast<int64_t>(kFirstBlockBytes) ||
      garbage_bytes_ * 2 < block_bytes_) {
    return;
  }
  // Every block but the last, which copies are appended to: the sparsest first.
  std::vector<size_t> by_density(blocks_.size() - 1);
  std::iota(by_density.begin(), by_density.end(), size_t{0});
  std::sort(by_density.begin(), by_density.end(), [&](size_t a, size_t b) {
    return blocks_[a].live * blocks_[b].used < blocks_[b].live * blocks_[a].used;
  });
  std::vector<bool> evacuated(blocks_.size(), false);
  int64_t garbage_after = garbage_bytes_;
  int64_t block_bytes_after = block_bytes_;
  for (size_t index : by_density) {
    if (garbage_after * 4 <= block_bytes_after) break;
    const Block& block = blocks_[index];
    evacuated[index] = true;
    garbage_after -= static_cast<int64_t>(block.used - block.live);
    block_bytes_after -= static_cast<int64_t>(block.capacity - block.live);
  }
  // The slots whose records move, found first so that each record is fetched ahead of its
  // copy: they lie in no order.
  std::vector<size_t> moving;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i] != kEmpty && evacuated[BlockOf(RecordOf(slots_[i]))]) moving.push_back(i);
  }
  constexpr size_t kRecordsAhead = 8;
  for (size_t m = 0; m < moving.size(); ++m) {
    if (m + kRecordsAhead < moving.size()) {
      __builtin_prefetch(RecordOf(slots_[moving[m + kRecordsAhead]]));
    }
    uint64_t& slot = slots_[moving[m]];
    const char* record = RecordOf(slot);
    const uint64_t tag = slot & ~kAddressMask;  // the distance, the hash bits and the mark
    char* copy = AppendRecord(KeyOf(record), ValueOf(record));
    Discard(record);
    slot = tag | static_cast<uint64_t>(reinterpret_cast<uintptr_t>(copy));
  }
  // The evacuated blocks hold no live record now.
  FreeEmptyBlocks();
}

void ArenaHashTable::Reserve(int64_t entries) {
  // Grow keeps the index at most three quarters full.
  auto fits = [&] { return static_cast<size_t>(entries) * 4 <= slots_.size() * 3; };
  if (size_ == 0) {
    size_t slots = slots_.size();
    while (static_cast<size_t>(entries) * 4 > slots * 3) slots *= 2;
    ResetSlots(slots);
  }
  while (!fits()) Grow();
}

void ArenaHashTable::Clear() {
  ResetSlots(kInitialSlots);
  size_ = 0;
  blocks_.clear();
  blocks_by_address_.clear();
  spare_blocks_.clear();
  prefaulted_.reset();
  has_empty_blocks_ = false;
  taken_while_held_ = 0;
  block_bytes_ = 0;
  garbage_bytes_ = 0;
  record_bytes_ = 0;
}

int64_t ArenaHashTable::memory_used_bytes() const {
  return static_cast<int64_t>(slots_.size() * sizeof(uint64_t)) + block_bytes_ +
         static_cast<int64_t>(spare_blocks_.size() * kLargestBlockBytes) +
         static_cast<int64_t>(prefaulted_ ? prefaulted_->held_bytes() : 0) +
         static_cast<int64_t>(blocks_.capacity() * sizeof(Block) +
                              blocks_by_address_.capacity() * sizeof(blocks_by_address_[0]));
}

}  // namespace sluice::state
