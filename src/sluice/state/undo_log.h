// The undo log of a store changed in place: what a version's keys held before it changed them.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice::state {

/// Keys with the value each had before a change (or none when it was absent), in the order
/// they were appended, readable by position. Records are packed one after another in a single
/// buffer, so appending costs a copy of the bytes and nothing else. Not thread-safe; views it
/// returns stay valid until the next Append or Clear.
class UndoLog {
 public:
  /// Appends `key` with the value it had, or nullopt when it was absent.
  void Append(std::string_view key, std::optional<std::string_view> previous) {
    starts_.push_back(bytes_.size());
    const auto key_length = static_cast<uint32_t>(key.size());
    const uint32_t value_length =
        previous ? static_cast<uint32_t>(previous->size()) : kAbsentLength;
    char header[kHeaderSize];
    std::memcpy(header, &key_length, sizeof(key_length));
    std::memcpy(header + sizeof(uint32_t), &value_length, sizeof(value_length));
    bytes_.append(header, kHeaderSize);
    bytes_.append(key);
    if (previous) bytes_.append(*previous);
  }

  /// The number of records.
  size_t size() const { return starts_.size(); }

  /// The key of record i.
  std::string_view key(size_t i) const {
    const char* record = bytes_.data() + starts_[i];
    uint32_t key_length;
    std::memcpy(&key_length, record, sizeof(key_length));
    return {record + kHeaderSize, key_length};
  }

  /// The value the key of record i had, or nullopt when it was absent.
  std::optional<std::string_view> previous(size_t i) const {
    const char* record = bytes_.data() + starts_[i];
    uint32_t key_length, value_length;
    std::memcpy(&key_length, record, sizeof(key_length));
    std::memcpy(&value_length, record + sizeof(uint32_t), sizeof(value_length));
    if (value_length == kAbsentLength) return std::nullopt;
    return std::string_view(record + kHeaderSize + key_length, value_length);
  }

  /// Bytes of the records: 8 bytes of lengths plus the key and previous value of each.
  int64_t record_bytes() const { return static_cast<int64_t>(bytes_.size()); }

  /// Bytes held, records and spare capacity.
  int64_t memory_used_bytes() const {
    return static_cast<int64_t>(bytes_.capacity() + starts_.capacity() * sizeof(size_t));
  }

  /// Removes every record. Keeps the memory for the next version, which usually changes about
  /// as many keys, unless the records filled less than a quarter of it: then it is released,
  /// so memory follows the recent versions and is not held at the largest one forever.
  void Clear() {
    if (bytes_.size() * 4 < bytes_.capacity()) {
      std::string().swap(bytes_);
      std::vector<size_t>().swap(starts_);
      return;
    }
    bytes_.clear();
    starts_.clear();
  }

 private:
  static constexpr size_t kHeaderSize = 2 * sizeof(uint32_t);
  static constexpr uint32_t kAbsentLength = 0xFFFFFFFFu;

  std::string bytes_;
  std::vector<size_t> starts_;
};

}  // namespace sluice::state
