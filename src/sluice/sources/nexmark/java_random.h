// java.util.Random, bit for bit: the generator the reference Nexmark generator seeds with each
// event's id, so that an event's fields depend on its id alone.
#pragma once

#include <cstdint>

namespace sluice::sources::nexmark {

/// A 48-bit linear congruential generator with Java's constants and draw methods.
class JavaRandom {
 public:
  explicit JavaRandom(int64_t seed)
      : seed_((static_cast<uint64_t>(seed) ^ kMultiplier) & kMask) {}

  /// Random.nextInt(): 32 random bits.
  int32_t NextInt() { return Next(32); }

  /// Random.nextInt(bound), bound > 0: uniform in [0, bound).
  int32_t NextInt(int32_t bound) {
    int32_t r = Next(31);
    const int32_t m = bound - 1;
    if ((bound & m) == 0) {  // a power of two
      return static_cast<int32_t>((static_cast<int64_t>(bound) * r) >> 31);
    }
    // Java's rejection loop, which tests for int overflow of u - r + m.
    for (int32_t u = r; static_cast<int32_t>(static_cast<uint32_t>(u) - (r = u % bound) + m) < 0;
         u = Next(31)) {
    }
    return r;
  }

  /// Random.nextLong()
  int64_t NextLong() {
    const auto high = static_cast<uint64_t>(static_cast<int64_t>(Next(32))) << 32;
    return static_cast<int64_t>(high + static_cast<uint64_t>(static_cast<int64_t>(Next(32))));
  }

  /// Random.nextDouble(): uniform in [0, 1) with 53 random bits.
  double NextDouble() {
    const int64_t high = static_cast<int64_t>(Next(26)) << 27;
    return static_cast<double>(high + Next(27)) * 0x1.0p-53;
  }

 private:
  static constexpr uint64_t kMultiplier = 0x5DEECE66DULL;
  static constexpr uint64_t kMask = (uint64_t{1} << 48) - 1;

  int32_t Next(int bits) {
    seed_ = (seed_ * kMultiplier + 0xBULL) & kMask;
    return static_cast<int32_t>(static_cast<int64_t>(seed_) >> (48 - bits));
  }

  uint64_t seed_;
};

}  // namespace sluice::sources::nexmark
