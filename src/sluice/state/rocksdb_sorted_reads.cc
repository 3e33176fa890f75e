#include "sluice/state/rocksdb_sorted_reads.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include <rocksdb/db.h>

#include "sluice/common/recycling_memory_pool.h"
#include "sluice/state/key_order.h"

namespace sluice::state {

namespace {

/// A read may walk the database in key order (Walk) when it has at least one key to look up
/// per this many keys in the store; with fewer, each key would cost many steps.
constexpr size_t kMaxStepsPerLookup = 16;
/// Walk seeks a key when stepping to it took this many steps: a seek costs about as much, as
/// it moves the iterator of every sorted run (reading a block of each). With 128, keys read
/// in clusters far apart took 20% longer.
constexpr size_t kMaxStepsToNextKey = 16;
/// ReadManySorted reads its keys in chunks of this many, and times both ways of reading on
/// two chunks of every kChunksPerTiming.
constexpr size_t kChunkKeys = 1024;
constexpr size_t kChunksPerTiming = 64;

/// Calls `take(j, status, value)` for each keys[j], j in [begin, end), in order of j, with
/// what the database holds for it: RocksDB's MultiGet of the keys.
void MultiGetSorted(rocksdb::DB* db, const SortedKeys& keys, size_t begin, size_t end,
                    const TakeRead& take) {
  constexpr size_t kKeysPerRead = 256;
  std::vector<rocksdb::PinnableSlice> values(std::min(kKeysPerRead, end - begin));
  std::vector<rocksdb::Status> statuses(values.size());
  for (size_t first = begin; first < end; first += kKeysPerRead) {
    const size_t n = std::min(kKeysPerRead, end - first);
    db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), n, keys.data() + first,
                 values.data(), statuses.data(), /*sorted_input=*/true);
    for (size_t j = 0; j < n; ++j) {
      take(first + j, statuses[j], values[j]);
      values[j].Reset();
    }
  }
}

/// As MultiGetSorted, by the iterator `it` over the database, which seeks the first key and
/// goes from each key to the next: by a few steps when it is near, else by a seek. False when
/// the iterator failed (`take` was told, and the keys after are left unread).
bool Walk(rocksdb::Iterator* it, const SortedKeys& keys, size_t begin, size_t end,
          const TakeRead& take) {
  const rocksdb::Status not_found = rocksdb::Status::NotFound();
  for (size_t j = begin; j < end; ++j) {
    const rocksdb::Slice& key = keys[j];
    if (j == begin) {
      it->Seek(key);
    } else {
      for (size_t step = 0; it->Valid() && it->key().compare(key) < 0; ++step) {
        if (step == kMaxStepsToNextKey) {
          it->Seek(key);
          break;
        }
        it->Next();
      }
    }
    if (!it->status().ok()) {
      take(j, it->status(), rocksdb::Slice());
      return false;
    }
    const bool held = it->Valid() && it->key() == key;
    take(j, held ? rocksdb::Status::OK() : not_found, held ? it->value() : rocksdb::Slice());
  }
  return true;
}

/// As MultiGetSorted, for keys many against those the store holds, chunk by chunk, each
/// either walked (Walk) or read by MultiGet, whichever was faster when last timed. Which wins
/// depends on more than the share of keys read: on how they cluster, how many entries a
/// block holds, how many sorted runs there are and what the cache holds. An aggregation
/// updating a fifth of 10M small entries ran its batch 1.5 times as fast walking; Nexmark
/// q7's join, reading 40% of 1M rows of bids, took 10% longer walking.
void ReadManySorted(rocksdb::DB* db, const SortedKeys& keys, const TakeRead& take) {
  rocksdb::ReadOptions options;
  options.fill_cache = false;  // the blocks walked would flush the cache
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(options));
  // Nanoseconds per key of each way (walk, MultiGet) when last timed.
  double cost[2] = {0, 0};
  size_t chunk = 0;
  for (size_t begin = 0; begin < keys.size(); begin += kChunkKeys, ++chunk) {
    const size_t end = std::min(begin + kChunkKeys, keys.size());
    const size_t phase = chunk % kChunksPerTiming;
    const bool timed = phase < 2;
    const bool walk = timed ? phase == 0 : cost[0] <= cost[1];
    const auto start = std::chrono::steady_clock::now();
    if (walk) {
      if (!Walk(it.get(), keys, begin, end, take)) return;
    } else {
      MultiGetSorted(db, keys, begin, end, take);
    }
    if (timed) {
      const std::chrono::duration<double, std::nano> took =
          std::chrono::steady_clock::now() - start;
      cost[walk ? 0 : 1] = took.count() / static_cast<double>(end - begin);
    }
  }
}

}  // namespace

arrow::MemoryPool* CallArrayPool() { return BatchMemoryPool(); }

void SortInKeyOrder(std::span<const std::string_view> keys, CallArray<uint32_t>* indices) {
  CallArray<KeyOrderEntry<uint32_t>> entries =
      NewCallArray<KeyOrderEntry<uint32_t>>(indices->size());
  for (size_t i = 0; i < entries.size(); ++i) entries[i].payload = (*indices)[i];
  SortByKey(&entries, [&](uint32_t index) { return keys[index]; });
  for (size_t i = 0; i < entries.size(); ++i) (*indices)[i] = entries[i].payload;
}

SortedKeys::SortedKeys(std::span<const std::string_view> keys,
                       const CallArray<uint32_t>& lookups)
    : bytes_(NewCallArray<char>()), slices_(NewCallArray<rocksdb::Slice>(lookups.size())) {
  size_t total = 0;
  for (size_t j = 0; j < lookups.size(); ++j) total += keys[lookups[j]].size();
  bytes_.resize(total);
  char* out = bytes_.data();
  for (size_t j = 0; j < lookups.size(); ++j) {
    // Two misses a key, one on its view and one on its bytes: each fetched ahead, the view
    // twice as far.
    constexpr size_t kAhead = 8;
    if (j + 2 * kAhead < lookups.size()) __builtin_prefetch(&keys[lookups[j + 2 * kAhead]]);
    if (j + kAhead < lookups.size()) __builtin_prefetch(keys[lookups[j + kAhead]].data());
    const std::string_view key = keys[lookups[j]];
    std::copy(key.begin(), key.end(), out);
    slices_[j] = rocksdb::Slice(out, key.size());
    out += key.size();
  }
}

void ReadInKeyOrder(rocksdb::DB* db, const SortedKeys& keys, int64_t held_keys,
                    const TakeRead& take) {
  const auto held = static_cast<size_t>(std::max<int64_t>(held_keys, 0));
  if (keys.size() * kMaxStepsPerLookup >= held) {
    ReadManySorted(db, keys, take);
  } else {
    MultiGetSorted(db, keys, 0, keys.size(), take);
  }
}

}  // namespace sluice::state
