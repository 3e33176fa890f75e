// What a RocksDB state store learned about keys the last time it looked them up: whether its
// database holds each one. A stateful operator reads the states of a batch's keys, then writes
// them in the same order; the writes take from here whether each key is new (for the count
// of keys) without reading it again or hashing it into a table.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "sluice/common/huge_pages.h"

namespace sluice::state {

/// The keys of one lookup call in order, each with what is known of it. Not thread-safe.
class LookupMemo {
 public:
  /// A memo whose memory comes from `pool` (see HugePageAllocator), or from the system.
  explicit LookupMemo(arrow::MemoryPool* pool = nullptr)
      : bytes_(HugePageAllocator<char>(pool)),
        ends_(HugePageAllocator<size_t>(pool)),
        known_(HugePageAllocator<Known>(pool)) {}

  enum class Known : uint8_t {
    kNothing,  // nothing: the buffer answered, the read failed or the database changed since
    kHeld,     // the database holds the key
    kAbsent,   // the database does not hold it
  };

  /// Forgets every key (keeping the memory, for the next call of about the same size).
  void Clear() {
    bytes_.clear();
    ends_.clear();
    known_.clear();
    next_ = 0;
  }

  /// Forgets every key and releases the memory.
  void Release() { *this = LookupMemo(bytes_.get_allocator().pool); }

  void Add(std::string_view key, Known known) {
    bytes_.insert(bytes_.end(), key.begin(), key.end());
    ends_.push_back(bytes_.size());
    known_.push_back(known);
  }

  /// Whether the database holds `key`, when that is known and `key` comes next in the order
  /// of the lookups: at the next unmatched place or a few places further, so that writes
  /// skipping some of the keys they read stay in step. A match moves past the place.
  std::optional<bool> Match(std::string_view key) {
    const size_t end = std::min(next_ + kLookAhead, known_.size());
    for (size_t i = next_; i < end; ++i) {
      if (key_at(i) != key) continue;
      next_ = i + 1;
      if (known_[i] == Known::kNothing) return std::nullopt;
      return known_[i] == Known::kHeld;
    }
    return std::nullopt;
  }

  /// The places not matched yet, [next(), size()): what changes to the database can still
  /// make stale (set_known keeps them true).
  size_t next() const { return next_; }
  size_t size() const { return known_.size(); }
  std::string_view key_at(size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_.data() + begin, ends_[i] - begin);
  }
  Known known_at(size_t i) const { return known_[i]; }
  void set_known(size_t i, Known known) { known_[i] = known; }

  int64_t memory_used_bytes() const {
    return static_cast<int64_t>(bytes_.capacity() + ends_.capacity() * sizeof(size_t) +
                                known_.capacity());
  }

 private:
  static constexpr size_t kLookAhead = 8;

  HugePageVector<char> bytes_;
  HugePageVector<size_t> ends_;
  HugePageVector<Known> known_;
  size_t next_ = 0;
};

}  // namespace sluice::state
