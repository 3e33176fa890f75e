#include "sluice/state/key_order.h"

#include <bit>
#include <cstring>

namespace sluice::state::key_order {

uint64_t KeyPrefix(std::string_view key, size_t offset) {
  unsigned char bytes[8] = {};
  if (offset < key.size()) {
    std::memcpy(bytes, key.data() + offset, std::min(key.size() - offset, sizeof(bytes)));
  }
  uint64_t prefix = 0;
  for (unsigned char byte : bytes) prefix = (prefix << 8) | byte;
  return prefix;
}

size_t SharedLength(std::string_view first, const LeadingBytes& first_bytes,
                    std::string_view key, const LeadingBytes& key_bytes, size_t limit) {
  // The zeros that pad a short key's leading bytes count for no shared bytes: the lengths
  // bound what is shared.
  limit = std::min(limit, key.size());
  if (key_bytes.high != first_bytes.high) {
    return std::min<size_t>(limit, std::countl_zero(key_bytes.high ^ first_bytes.high) / 8);
  }
  if (key_bytes.low != first_bytes.low) {
    return std::min<size_t>(limit, 8 + std::countl_zero(key_bytes.low ^ first_bytes.low) / 8);
  }
  size_t same = std::min<size_t>(limit, 16);
  while (same < limit && key[same] == first[same]) ++same;
  return same;
}

}  // namespace sluice::state::key_order
