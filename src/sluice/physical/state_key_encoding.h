// What stateful operators share about the keys they keep in state stores: rows of encoded
// bytes, the store partition of a key, and the event time read from an encoded key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
};

/// The store partition (0 .. num_partitions-1) of an encoded key. Fixed by this code, never by
/// the standard library: a key must land in the same partition's store in every run of every
/// build.
int32_t PartitionOfKey(std::string_view key, int32_t num_partitions);

/// The event time, in microseconds, of an encoded key whose first column is the event time
/// (row_codec.h's layout): a timestamp, or, when `is_window`, a window struct<start, end>
/// whose end is the time that counts. nullopt when the key holds a null time.
std::optional<int64_t> EventTimeMicrosOfKey(std::string_view key, bool is_window);

}  // namespace sluice::physical
