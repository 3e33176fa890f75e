#include "sluice/expr/key_grouper.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/common/huge_pages.h"
#include "sluice/expr/key_bytes.h"
#include "sluice/expr/key_grouper_internal.h"
#include "sluice/types/row_codec.h"

namespace sluice::expr {

namespace {

using key_grouper_internal::IsIntegralKey;
using key_grouper_internal::kPrefetchDistance;
using key_grouper_internal::kSliceRows;
using key_grouper_internal::ReadIntegral;
using key_grouper_internal::UniqueRows;

// One integral key column: open addressing over (key, id) slots with linear probing.
class IntegralGrouper final : public KeyGrouper {
 public:
  IntegralGrouper(std::shared_ptr<arrow::DataType> type, arrow::MemoryPool* pool)
      : slots_(HugePageAllocator<Slot>(pool)), uniques_({type}, pool) {
    Rehash(1 << 10);
  }

  void Reserve(int64_t groups) override { EnsureCapacity(groups); }

  arrow::Status Consume(const arrow::ArrayVector& keys, int64_t num_rows,
                        std::vector<uint32_t>* group_ids) override {
    group_ids->resize(num_rows);
    const arrow::ArrayData& data = *keys[0]->data();
    std::vector<int64_t> new_rows;
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      EnsureCapacity(num_groups_ + n);
      values_.resize(n);
      ReadIntegral(data, begin, n, values_.data());
      const uint8_t* validity =
          data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
      uint32_t* out = group_ids->data() + begin;
      new_rows.clear();
      const int64_t* values = values_.data();
      for (int64_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n) {
          __builtin_prefetch(&slots_[SlotOf(values[i + kPrefetchDistance])]);
        }
        if (validity && !arrow::bit_util::GetBit(validity, data.offset + begin + i)) {
          if (null_group_ < 0) {
            null_group_ = num_groups_++;
            new_rows.push_back(i);
          }
          out[i] = static_cast<uint32_t>(null_group_);
          continue;
        }
        const int64_t key = values[i];
        uint64_t slot = SlotOf(key);
        while (true) {
          Slot& s = slots_[slot];
          if (s.id == kEmpty) {
            s.key = key;
            s.id = static_cast<uint32_t>(num_groups_++);
            new_rows.push_back(i);
            out[i] = s.id;
            break;
          }
          if (s.key == key) {
            out[i] = s.id;
            break;
          }
          slot = (slot + 1) & mask_;
        }
      }
      ARROW_RETURN_NOT_OK(uniques_.Append(keys, begin, new_rows));
    }
    return arrow::Status::OK();
  }

  arrow::Status Lookup(const arrow::ArrayVector& keys, int64_t num_rows, bool null_matches,
                       std::vector<int32_t>* group_ids) const override {
    group_ids->resize(num_rows);
    const arrow::ArrayData& data = *keys[0]->data();
    std::vector<int64_t> values;
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      values.resize(n);
      ReadIntegral(data, begin, n, values.data());
      const uint8_t* validity =
          data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
      int32_t* out = group_ids->data() + begin;
      for (int64_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n) {
          __builtin_prefetch(&slots_[SlotOf(values[i + kPrefetchDistance])]);
        }
        if (validity && !arrow::bit_util::GetBit(validity, data.offset + begin + i)) {
          out[i] = null_matches ? static_cast<int32_t>(null_group_) : -1;
          continue;
        }
        const int64_t key = values[i];
        uint64_t slot = SlotOf(key);
        out[i] = -1;
        while (slots_[slot].id != kEmpty) {
          if (slots_[slot].key == key) {
            out[i] = static_cast<int32_t>(slots_[slot].id);
            break;
          }
          slot = (slot + 1) & mask_;
        }
      }
    }
    return arrow::Status::OK();
  }

  int64_t num_groups() const override { return num_groups_; }
  arrow::Result<arrow::ArrayVector> GetUniques() const override { return uniques_.Get(); }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    int64_t key;
    uint32_t id;
    uint32_t padding;
  };

  uint64_t SlotOf(int64_t key) const {
    return (static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ULL) >> shift_;
  }

  void EnsureCapacity(int64_t groups) {
    uint64_t capacity = slots_.size();
    while (static_cast<uint64_t>(groups) * 4 > capacity * 3) capacity *= 2;
    if (capacity != slots_.size()) Rehash(capacity);
  }

  void Rehash(uint64_t capacity) {
    HugePageVector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{0, kEmpty, 0});
    mask_ = capacity - 1;
    shift_ = 64 - arrow::bit_util::Log2(capacity);
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      uint64_t slot = SlotOf(s.key);
      while (slots_[slot].id != kEmpty) slot = (slot + 1) & mask_;
      slots_[slot] = s;
    }
  }

  // In huge pages: a probe of a table larger than the caches would otherwise miss the TLB
  // too, and a prefetch that misses it may not be served before the probe.
  HugePageVector<Slot> slots_;
  uint64_t mask_ = 0;
  int shift_ = 0;
  int64_t num_groups_ = 0;
  int64_t null_group_ = -1;
  std::vector<int64_t> values_;
  UniqueRows uniques_;
};

// ---------------------------------------------------------------------------------------------
// Keys as bytes: arbitrary keys encoded into rows, or one string or binary column as it is.

// The rows of a slice of key columns, encoded canonically for grouping (types/row_codec.h):
// equal keys, as Spark groups them, have equal bytes and different keys different bytes. A
// null is encoded too, so no row is null.
class EncodedSlice {
 public:
  explicit EncodedSlice(std::shared_ptr<const types::RowEncoder> encoder)
      : encoder_(std::move(encoder)) {}

  void Load(const arrow::ArrayVector& keys, int64_t begin, int64_t n) {
    encoder_->EncodeRows(keys, begin, n, &data_, &offsets_);
  }
  static constexpr bool kMayBeNull = false;
  bool is_null(int64_t) const { return false; }
  const uint8_t* row(int64_t i) const {
    return reinterpret_cast<const uint8_t*>(data_.data()) + offsets_[i];
  }
  size_t length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  /// Whether a key of row `row` is null (for Lookup without null matches).
  static bool AnyNull(const arrow::ArrayVector& keys, int64_t row) {
    for (const auto& key : keys) {
      if (key->IsNull(row)) return true;
    }
    return false;
  }

 private:
  std::shared_ptr<const types::RowEncoder> encoder_;
  std::string data_;
  std::vector<uint32_t> offsets_;
};

// The values of one string or binary column, read where they lie: a grouping key or a
// memoized regex's input is a single string often, and copying it into an encoded row cost
// more than hashing it.
template <typename Offset>
class BinarySlice {
 public:
  void Load(const arrow::ArrayVector& keys, int64_t begin, int64_t) {
    const arrow::ArrayData& data = *keys[0]->data();
    offsets_ = data.GetValues<Offset>(1) + begin;
    values_ = data.buffers[2] == nullptr ? nullptr : data.buffers[2]->data();
    validity_ = data.MayHaveNulls() ? data.buffers[0]->data() : nullptr;
    validity_offset_ = data.offset + begin;
  }
  static constexpr bool kMayBeNull = true;
  bool is_null(int64_t i) const {
    return validity_ != nullptr && !arrow::bit_util::GetBit(validity_, validity_offset_ + i);
  }
  const uint8_t* row(int64_t i) const { return values_ + offsets_[i]; }
  size_t length(int64_t i) const { return static_cast<size_t>(offsets_[i + 1] - offsets_[i]); }
  // A null row is its own group, kept out of the table: the rows looked up there have no null.
  static bool AnyNull(const arrow::ArrayVector&, int64_t) { return false; }

 private:
  const Offset* offsets_ = nullptr;
  const uint8_t* values_ = nullptr;
  const uint8_t* validity_ = nullptr;
  int64_t validity_offset_ = 0;
};

// Open addressing over (hash, id) slots with linear probing; the bytes of each group's key are
// kept once, in group order, to compare with. `Slice` gives the bytes of a slice's rows.
template <typename Slice>
class BytesGrouper final : public KeyGrouper {
 public:
  BytesGrouper(std::vector<std::shared_ptr<arrow::DataType>> types, Slice slice,
               arrow::MemoryPool* pool)
      : slots_(HugePageAllocator<Slot>(pool)), slice_(std::move(slice)),
        uniques_(std::move(types), pool) {
    key_offsets_.push_back(0);
    Rehash(1 << 10);
  }

  void Reserve(int64_t groups) override {
    EnsureCapacity(groups);
    key_offsets_.reserve(static_cast<size_t>(groups) + 1);
  }

  arrow::Status Consume(const arrow::ArrayVector& keys, int64_t num_rows,
                        std::vector<uint32_t>* group_ids) override {
    group_ids->resize(num_rows);
    std::vector<int64_t> new_rows;
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      EnsureCapacity(num_groups() + n);
      slice_.Load(keys, begin, n);
      Hash(n);
      new_rows.clear();
      uint32_t* out = group_ids->data() + begin;
      for (int64_t i = 0; i < n; ++i) {
        if (i + kPrefetchDistance < n) {
          __builtin_prefetch(&slots_[hashes_[i + kPrefetchDistance] & mask_]);
        }
        if (Slice::kMayBeNull && slice_.is_null(i)) {
          if (null_group_ < 0) {
            null_group_ = num_groups();
            key_offsets_.push_back(key_data_.size());
            new_rows.push_back(i);
          }
          out[i] = static_cast<uint32_t>(null_group_);
          continue;
        }
        const uint64_t hash = hashes_[i];
        const uint8_t* row = slice_.row(i);
        const size_t length = slice_.length(i);
        uint64_t slot = hash & mask_;
        while (true) {
          Slot& s = slots_[slot];
          if (s.id == kEmpty) {
            s.hash = hash;
            s.id = static_cast<uint32_t>(num_groups());
            key_data_.insert(key_data_.end(), row, row + length);
            key_offsets_.push_back(key_data_.size());
            new_rows.push_back(i);
            out[i] = s.id;
            break;
          }
          if (s.hash == hash && SameKey(s.id, row, length)) {
            out[i] = s.id;
            break;
          }
          slot = (slot + 1) & mask_;
        }
      }
      ARROW_RETURN_NOT_OK(uniques_.Append(keys, begin, new_rows));
    }
    return arrow::Status::OK();
  }

  arrow::Status Lookup(const arrow::ArrayVector& keys, int64_t num_rows, bool null_matches,
                       std::vector<int32_t>* group_ids) const override {
    group_ids->resize(num_rows);
    for (int64_t begin = 0; begin < num_rows; begin += kSliceRows) {
      const int64_t n = std::min(kSliceRows, num_rows - begin);
      slice_.Load(keys, begin, n);
      Hash(n);
      int32_t* out = group_ids->data() + begin;
      for (int64_t i = 0; i < n; ++i) {
        out[i] = -1;
        if (Slice::kMayBeNull && slice_.is_null(i)) {
          if (null_matches) out[i] = static_cast<int32_t>(null_group_);
          continue;
        }
        if (!null_matches && Slice::AnyNull(keys, begin + i)) continue;
        const uint64_t hash = hashes_[i];
        const uint8_t* row = slice_.row(i);
        const size_t length = slice_.length(i);
        uint64_t slot = hash & mask_;
        while (slots_[slot].id != kEmpty) {
          if (slots_[slot].hash == hash && SameKey(slots_[slot].id, row, length)) {
            out[i] = static_cast<int32_t>(slots_[slot].id);
            break;
          }
          slot = (slot + 1) & mask_;
        }
      }
    }
    return arrow::Status::OK();
  }

  int64_t num_groups() const override { return static_cast<int64_t>(key_offsets_.size()) - 1; }
  arrow::Result<arrow::ArrayVector> GetUniques() const override { return uniques_.Get(); }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  struct Slot {
    uint64_t hash;
    uint32_t id;
    uint32_t padding;
  };

  void Hash(int64_t n) const {
    hashes_.resize(n);
    for (int64_t i = 0; i < n; ++i) {
      // A null row's bytes are whatever its offsets span; it is never looked up.
      hashes_[i] = HashKeyBytes(slice_.row(i), slice_.length(i));
    }
  }

  bool SameKey(uint32_t id, const uint8_t* row, size_t length) const {
    const uint64_t begin = key_offsets_[id];
    return key_offsets_[id + 1] - begin == length &&
           EqualKeyBytes(key_data_.data() + begin, row, length);
  }

  void EnsureCapacity(int64_t groups) {
    uint64_t capacity = slots_.size();
    while (static_cast<uint64_t>(groups) * 4 > capacity * 3) capacity *= 2;
    if (capacity != slots_.size()) Rehash(capacity);
  }

  void Rehash(uint64_t capacity) {
    HugePageVector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{0, kEmpty, 0});
    mask_ = capacity - 1;
    for (const Slot& s : old) {
      if (s.id == kEmpty) continue;
      uint64_t slot = s.hash & mask_;
      while (slots_[slot].id != kEmpty) slot = (slot + 1) & mask_;
      slots_[slot] = s;
    }
  }

  // In huge pages: a probe of a table larger than the caches would otherwise miss the TLB
  // too, and a prefetch that misses it may not be served before the probe.
  HugePageVector<Slot> slots_;
  uint64_t mask_ = 0;
  // The key bytes of each group (none for the null group).
  std::vector<uint8_t> key_data_;
  std::vector<uint64_t> key_offsets_;
  int64_t null_group_ = -1;
  // Scratch space of the slice being processed (Lookup is logically const).
  mutable Slice slice_;
  mutable std::vector<uint64_t> hashes_;
  UniqueRows uniques_;
};

}  // namespace

bool IsGroupableType(const arrow::DataType& type) {
  if (type.id() == arrow::Type::MAP) return false;
  for (const auto& field : type.fields()) {
    if (!IsGroupableType(*field->type())) return false;
  }
  return true;
}

arrow::Result<std::unique_ptr<KeyGrouper>> KeyGrouper::Make(
    std::vector<std::shared_ptr<arrow::DataType>> types, arrow::MemoryPool* pool) {
  if (types.empty()) return arrow::Status::Invalid("a key grouper needs at least one key");
  if (types.size() == 1 && IsIntegralKey(*types[0])) {
    return std::make_unique<IntegralGrouper>(types[0], pool);
  }
  if (types.size() == 1) {
    switch (types[0]->id()) {
      case arrow::Type::STRING:
      case arrow::Type::BINARY:
        return std::make_unique<BytesGrouper<BinarySlice<int32_t>>>(std::move(types),
                                                                   BinarySlice<int32_t>(), pool);
      case arrow::Type::LARGE_STRING:
      case arrow::Type::LARGE_BINARY:
        return std::make_unique<BytesGrouper<BinarySlice<int64_t>>>(std::move(types),
                                                                   BinarySlice<int64_t>(), pool);
      default:
        break;
    }
  }
  if (auto grouper = key_grouper_internal::MakeWordKeyGrouper(types, pool)) return grouper;
  ARROW_ASSIGN_OR_RAISE(auto encoder, types::RowEncoder::Make(types, /*for_keys=*/true));
  return std::make_unique<BytesGrouper<EncodedSlice>>(types, EncodedSlice(std::move(encoder)),
                                                      pool);
}

}  // namespace sluice::expr
