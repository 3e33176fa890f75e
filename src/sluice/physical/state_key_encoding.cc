#include "sluice/physical/state_key_encoding.h"

#include <cstring>

#include "sluice/expr/functions/hash_spark_murmur3.h"

namespace sluice::physical {

namespace {
constexpr uint32_t kPartitionHashSeed = 42;
}  // namespace

int32_t PartitionOfKey(std::string_view key, int32_t num_partitions) {
  uint32_t hash = expr::SparkMurmur3::HashBytes(reinterpret_cast<const uint8_t*>(key.data()),
                                                static_cast<int64_t>(key.size()),
                                                kPartitionHashSeed);
  return static_cast<int32_t>(hash % static_cast<uint32_t>(num_partitions));
}

std::optional<int64_t> EventTimeMicrosOfKey(std::string_view key, bool is_window) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(key.data());
  const size_t size = key.size();
  // Each value starts with its null flag (0 = null); a timestamp's payload is 8 bytes.
  if (size < 1 || bytes[0] == 0) return std::nullopt;
  size_t position = 1;
  if (is_window) {
    if (size < position + 1) return std::nullopt;
    position += bytes[position] == 0 ? 1 : 1 + sizeof(int64_t);  // skip the start
    if (size < position + 1 || bytes[position] == 0) return std::nullopt;
    position += 1;
  }
  if (size < position + sizeof(int64_t)) return std::nullopt;
  int64_t micros;
  std::memcpy(&micros, bytes + position, sizeof(micros));
  return micros;
}

}  // namespace sluice::physical
