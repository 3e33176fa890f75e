// A filter of the keys a RocksDB state store's database may hold, kept in memory beside it.
// Most lookups of a growing aggregation are of keys the store has never held. RocksDB answers
// each of them by probing the filter of every sorted run, with its per-file plumbing around
// each probe (file picking, table cache lookups, key sorting): for a store taking 50M new
// keys, leaving those lookups out doubled the puts per CPU-second. One filter over the whole
// database answers them with a probe per layer, and sends only the keys it may hold to
// RocksDB.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "sluice/common/huge_pages.h"

namespace sluice::state {

/// A blocked Bloom filter of key hashes (each key's bits in one 64-byte block, so a probe is
/// one cache line) that grows by layers: when the newest layer holds as many keys as it was
/// sized for, a layer twice its size is added, and a probe asks every layer. No false
/// negatives; a key that was removed stays in (until the filter is made anew), so a lookup of
/// it falls through to the database, which answers exactly. Not thread-safe.
class KeyFilter {
 public:
  /// Bits per key of a layer at capacity, with kProbes bits set per key: about 0.2% false
  /// positives per full layer.
  static constexpr int64_t kBitsPerKey = 14;
  static constexpr int kProbes = 8;

  /// An empty filter whose first layer is sized for `first_layer_keys` keys (at least 1).
  explicit KeyFilter(int64_t first_layer_keys);
  KeyFilter(KeyFilter&&) noexcept;
  KeyFilter& operator=(KeyFilter&&) noexcept;
  ~KeyFilter();

  /// The hash the other calls take.
  static uint64_t Hash(std::string_view key);

  /// False when no key of this hash was added since the filter was made.
  bool MayContain(uint64_t hash) const;

  /// Adds a key unless the filter may already hold it (so a key added twice counts once).
  void Add(uint64_t hash) {
    if (!MayContain(hash)) AddNew(hash);
  }

  /// Adds a key the filter does not hold (MayContain was false, or the key is one the
  /// database lacks): one block of the newest layer, without probing the others.
  void AddNew(uint64_t hash);

  /// Calls `visit(i, MayContain(hashes[i]))` for every i in order, fetching the blocks of the
  /// hashes a few places ahead from memory: the large layers are mostly cache misses.
  template <typename Visit>
  void MayContainMany(std::span<const uint64_t> hashes, Visit&& visit) const {
    for (size_t i = 0; i < hashes.size() + kAhead; ++i) {
      if (i < hashes.size()) Prefetch(hashes[i]);
      if (i >= kAhead) visit(i - kAhead, MayContain(hashes[i - kAhead]));
    }
  }

  /// AddNew of every hash, fetching ahead as MayContainMany does.
  void AddNewMany(std::span<const uint64_t> hashes) {
    for (size_t i = 0; i < hashes.size() + kAhead; ++i) {
      if (i < hashes.size()) __builtin_prefetch(&BlockOf(layers_.back(), hashes[i]));
      if (i >= kAhead) AddNew(hashes[i - kAhead]);
    }
  }

  /// Keys added: those Add found new, and every AddNew.
  int64_t keys() const { return keys_; }
  /// Number of layers.
  size_t layers() const { return layers_.size(); }
  /// Bytes of memory the layers hold.
  int64_t memory_bytes() const { return memory_bytes_; }

 private:
  struct alignas(64) Block {
    uint64_t words[8];
  };
  struct Layer {
    std::unique_ptr<Block[], LargeDeleter> blocks;
    uint64_t num_blocks = 0;
    int64_t capacity = 0;
    int64_t keys = 0;
  };

  /// How many hashes ahead the *Many calls fetch.
  static constexpr size_t kAhead = 8;

  void AddLayer(int64_t capacity);
  static Block& BlockOf(const Layer& layer, uint64_t hash);
  /// The bits of `hash` in its block.
  static Block MaskOf(uint64_t hash);
  void Prefetch(uint64_t hash) const;

  std::vector<Layer> layers_;
  int64_t keys_ = 0;
  int64_t memory_bytes_ = 0;
};

}  // namespace sluice::state
