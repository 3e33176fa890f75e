#include "sluice/state/key_filter.h"

#include <algorithm>
#include <cstring>

#include <arrow/util/hashing.h>

#include "sluice/common/huge_pages.h"
#include "sluice/common/mix_integer.h"

namespace sluice::state {

namespace {

/// The bits a hash sets in its block: from its low 32 bits, re-mixed by a multiplication per
/// probe, 9 bits at a time (a bit of the 512), as RocksDB's own local Bloom filter does.
template <typename Each>
void ForEachBit(uint64_t hash, Each&& each) {
  auto h = static_cast<uint32_t>(hash);
  for (int probe = 0; probe < KeyFilter::kProbes; ++probe) {
    each(h >> 23);
    h *= 0x9e3779b9u;
  }
}

}  // namespace

KeyFilter::KeyFilter(int64_t first_layer_keys) {
  AddLayer(std::max<int64_t>(1, first_layer_keys));
}
KeyFilter::KeyFilter(KeyFilter&&) noexcept = default;
KeyFilter& KeyFilter::operator=(KeyFilter&&) noexcept = default;
KeyFilter::~KeyFilter() = default;

uint64_t KeyFilter::Hash(std::string_view key) {
  // Arrow's hash of a short string leaves its high bits to a few of the key's bytes (those of
  // a little-endian integer's low bytes). Keys that come in their byte order would crowd a few
  // blocks of the newest layer until they seem held: mixed, every bit of the key counts.
  return MixInteger(
      arrow::internal::ComputeStringHash<1>(key.data(), static_cast<int64_t>(key.size())));
}

void KeyFilter::AddLayer(int64_t capacity) {
  Layer layer;
  layer.capacity = capacity;
  layer.num_blocks = static_cast<uint64_t>((capacity * kBitsPerKey + 511) / 512);
  // Probes land anywhere in a layer: a large one goes in huge pages (AllocateLarge).
  const size_t bytes = layer.num_blocks * sizeof(Block);
  void* memory = AllocateLarge(bytes);
  std::memset(memory, 0, bytes);
  layer.blocks = std::unique_ptr<Block[], LargeDeleter>(static_cast<Block*>(memory), {bytes});
  memory_bytes_ += static_cast<int64_t>(bytes);
  layers_.push_back(std::move(layer));
}

KeyFilter::Block& KeyFilter::BlockOf(const Layer& layer, uint64_t hash) {
  // The high 32 bits pick the block (by a multiplication, not a modulo); the low 32 its bits.
  return layer.blocks[((hash >> 32) * layer.num_blocks) >> 32];
}

void KeyFilter::Prefetch(uint64_t hash) const {
  for (const Layer& layer : layers_) __builtin_prefetch(&BlockOf(layer, hash));
}

bool KeyFilter::MayContain(uint64_t hash) const {
  // The key's bits are the same in every layer: test them all at once against each block.
  const Block mask = MaskOf(hash);
  for (const Layer& layer : layers_) {
    const Block& block = BlockOf(layer, hash);
    uint64_t missing = 0;
    for (int w = 0; w < 8; ++w) missing |= mask.words[w] & ~block.words[w];
    if (missing == 0) return true;
  }
  return false;
}

void KeyFilter::AddNew(uint64_t hash) {
  if (layers_.back().keys >= layers_.back().capacity) AddLayer(2 * layers_.back().capacity);
  Layer& layer = layers_.back();
  Block& block = BlockOf(layer, hash);
  const Block mask = MaskOf(hash);
  for (int w = 0; w < 8; ++w) block.words[w] |= mask.words[w];
  ++layer.keys;
  ++keys_;
}

KeyFilter::Block KeyFilter::MaskOf(uint64_t hash) {
  Block mask{};
  ForEachBit(hash, [&](uint32_t bit) { mask.words[bit >> 6] |= uint64_t{1} << (bit & 63); });
  return mask;
}

}  // namespace sluice::state
