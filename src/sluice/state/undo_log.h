// The undo log of a store changed in place: what a version's keys held before it changed them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sluice::state {

/// Keys with the value each had before a change (or none when it was absent), in the order
/// they were appended, readable by position. A record points at its bytes: the caller keeps
/// them valid until Clear (a table holding its garbage keeps every key and every removed or
/// replaced value where it is), or they are copies the log made, in blocks of its own. Not
/// thread-safe; views it returns stay valid until Clear.
class UndoLog {
 public:
  /// Appends `key` with the value it had, or nullopt when it was absent, without copying
  /// either: their bytes must stay valid until Clear (or be copies the log made with Copy).
  void AppendKept(std::string_view key, std::optional<std::string_view> previous) {
    bytes_ += static_cast<int64_t>(key.size() + (previous ? previous->size() : 0));
    records_.push_back(Record{key.data(), previous ? previous->data() : nullptr,
                              static_cast<uint32_t>(key.size()),
                              previous ? static_cast<uint32_t>(previous->size())
                                       : kAbsentLength});
  }

  /// A copy of `bytes` in the log's own blocks, which never move: valid until Clear.
  std::string_view Copy(std::string_view bytes) {
    while (current_ < blocks_.size() &&
           blocks_[current_].capacity - blocks_[current_].used < bytes.size()) {
      ++current_;
    }
    if (current_ == blocks_.size()) {
      const size_t capacity = std::max(kBlockBytes, bytes.size());
      blocks_.push_back(Block{std::unique_ptr<char[]>(new char[capacity]), capacity, 0});
      block_bytes_ += capacity;
    }
    Block& block = blocks_[current_];
    char* at = block.data.get() + block.used;
    if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
    block.used += bytes.size();
    copied_bytes_ += bytes.size();
    return {at, bytes.size()};
  }

  /// Copies the bytes of every record into the log's own blocks, so that nothing the log
  /// pointed at need stay valid any more.
  void CopyAll() {
    UndoLog copy;
    copy.records_.reserve(records_.size());
    for (size_t i = 0; i < size(); ++i) {
      const std::optional<std::string_view> value = previous(i);
      copy.AppendKept(copy.Copy(key(i)), value ? std::optional(copy.Copy(*value)) : value);
    }
    *this = std::move(copy);
  }

  /// The number of records.
  size_t size() const { return records_.size(); }

  /// Bytes of the records' keys and values, copied or not.
  int64_t bytes() const { return bytes_; }

  /// The key of record i.
  std::string_view key(size_t i) const { return {records_[i].key, records_[i].key_length}; }

  /// The value the key of record i had, or nullopt when it was absent.
  std::optional<std::string_view> previous(size_t i) const {
    const Record& record = records_[i];
    if (record.value_length == kAbsentLength) return std::nullopt;
    return std::string_view(record.value, record.value_length);
  }

  /// Bytes held: the records, the blocks of copies and spare capacity of both.
  int64_t memory_used_bytes() const {
    return static_cast<int64_t>(records_.capacity() * sizeof(Record) + block_bytes_);
  }

  /// Removes every record. Keeps the memory for the next version, which usually changes about
  /// as many keys, unless the records filled less than a quarter of it: then it is released,
  /// so memory follows the recent versions and is not held at the largest one forever.
  void Clear() {
    if (records_.size() * 4 < records_.capacity()) std::vector<Record>().swap(records_);
    records_.clear();
    bytes_ = 0;
    if (copied_bytes_ * 4 < block_bytes_) {
      blocks_.clear();
      block_bytes_ = 0;
    }
    for (Block& block : blocks_) block.used = 0;
    current_ = 0;
    copied_bytes_ = 0;
  }

 private:
  static constexpr uint32_t kAbsentLength = 0xFFFFFFFFu;
  static constexpr size_t kBlockBytes = 256 * 1024;

  struct Record {
    const char* key;
    const char* value;
    uint32_t key_length;
    uint32_t value_length;  // kAbsentLength when the key was absent
  };
  struct Block {
    std::unique_ptr<char[]> data;
    size_t capacity = 0;
    size_t used = 0;
  };

  std::vector<Record> records_;
  std::vector<Block> blocks_;
  size_t current_ = 0;  // the block copies go to
  size_t block_bytes_ = 0;
  size_t copied_bytes_ = 0;
  int64_t bytes_ = 0;
};

}  // namespace sluice::state
