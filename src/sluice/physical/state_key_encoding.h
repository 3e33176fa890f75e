// What stateful operators share about the keys they keep in state stores: rows of encoded
// bytes, the store partition of a key, and the event time read from an encoded key.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/type_fwd.h>

namespace sluice::physical {

/// Encoded rows appended one after another: row i is bytes[offsets[i], offsets[i + 1]).
struct EncodedRows {
  std::string bytes;
  std::vector<uint32_t> offsets{0};

  int64_t size() const { return static_cast<int64_t>(offsets.size()) - 1; }
  std::string_view row(int64_t i) const {
    return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  void Append(std::string_view row) {
    bytes.append(row);
    offsets.push_back(static_cast<uint32_t>(bytes.size()));
  }
  /// Removes every row and keeps the memory, so that buffers refilled batch after batch touch
  /// their pages once: made afresh, a batch's buffers are new pages every time, and a page's
  /// first touch costs more than the bytes copied into it (microseconds per 4 KiB in a VM).
  /// The memory goes when the rows filled less than a quarter of it, so one large batch does
  /// not hold it for good.
  void Clear() {
    if (bytes.size() < bytes.capacity() / 4) {
      std::string().swap(bytes);
    } else {
      bytes.clear();
    }
    if (offsets.size() < offsets.capacity() / 4) std::vector<uint32_t>().swap(offsets);
    offsets.assign(1, 0);
  }
  /// Room for `rows` more rows of `row_bytes` bytes in all, so that appending them copies each
  /// byte once instead of again at every doubling.
  void Reserve(size_t rows, size_t row_bytes) {
    offsets.reserve(offsets.size() + rows);
    bytes.reserve(bytes.size() + row_bytes);
  }
};

/// Empties `rows` for another fill, keeping its memory (EncodedRows::Clear).
inline EncodedRows& Refill(EncodedRows& rows) {
  rows.Clear();
  return rows;
}

/// How a checkpoint spreads state keys over its store partitions; pinned in the offset log
/// (sluice.sql.streaming.statePartitioningVersion), as a key must land in the same partition
/// in every run of every build.
enum class StatePartitioning : int32_t {
  /// Checkpoints written before kSpark: Murmur3 of the key's encoded bytes.
  kEncodedBytes = 1,
  /// Spark's HashPartitioning: pmod(Murmur3 hash of the key's columns with seed 42, as Spark's
  /// hash() computes it, num_partitions). A key lands in the partition Spark puts it in, so
  /// the state readers' partition_id and the state folders match Spark's.
  kSpark = 2,
  /// As kSpark, and a deduplication's key columns in Spark's order (its subset's, as Spark's
  /// Set orders the names), so that its state reads as Spark's. Checkpoints written before
  /// keep the input's column order, with the event-time key first.
  kSparkKeyOrder = 3,
};

/// The store partition (0 .. num_partitions-1) of keys encoded by a key encoder of `key_types`
/// (row_codec.h's layout). Immutable; safe to share between threads.
class StatePartitioner {
 public:
  /// `key_order`, when given, says which of Spark's key columns each encoded column is:
  /// encoded column i is Spark's key column key_order[i] (an aggregation encodes its
  /// event-time key first, but Spark hashes the keys in the order they were written).
  StatePartitioner(std::vector<std::shared_ptr<arrow::DataType>> key_types,
                   int32_t num_partitions, StatePartitioning partitioning,
                   const std::vector<int>& key_order = {});

  int32_t num_partitions() const { return num_partitions_; }
  int32_t PartitionOf(std::string_view key) const;

 private:
  std::vector<std::shared_ptr<arrow::DataType>> key_types_;
  int32_t num_partitions_;
  StatePartitioning partitioning_;
  /// The encoded columns in the order Spark hashes them; empty: the encoded order.
  std::vector<int> hash_order_;
};

/// The event time, in microseconds, of an encoded key whose first column is the event time
/// (row_codec.h's layout): a timestamp, or, when `is_window`, a window struct<start, end>
/// whose end is the time that counts. nullopt when the key holds a null time.
std::optional<int64_t> EventTimeMicrosOfKey(std::string_view key, bool is_window);

}  // namespace sluice::physical
