// MurmurHash3's 64-bit finalizer: every bit of the input moves every bit of the output, so a
// hash whose high bits depend on few input bytes spreads evenly once mixed.
#pragma once

#include <cstdint>

namespace sluice {

inline uint64_t MixInteger(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace sluice
