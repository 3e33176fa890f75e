#pragma once

// Spark's two row hash functions, bit-for-bit: Murmur3 x86_32 as in
// org.apache.spark.unsafe.hash.Murmur3_x86_32 (including its legacy handling of a byte tail, one
// signed byte at a time) and XXH64 as in org.apache.spark.sql.catalyst.expressions.XXH64.
// Pure functions of their arguments; thread-safe.

#include <cmath>
#include <cstdint>
#include <cstring>

namespace sluice::expr {

/// Murmur3 x86_32 as Spark's hash() uses it; values are Java ints carried as uint32_t.
struct SparkMurmur3 {
  using Hash = uint32_t;
  static uint32_t HashInt(int32_t value, uint32_t seed);
  static uint32_t HashLong(int64_t value, uint32_t seed);
  /// Murmur3_x86_32.hashUnsafeBytes: 4-byte little-endian words, then each remaining byte as a
  /// sign-extended int mixed like a word.
  static uint32_t HashBytes(const uint8_t* data, int64_t length, uint32_t seed);
};

/// XXH64 as Spark's xxhash64() uses it; values are Java longs carried as uint64_t.
struct SparkXxHash64 {
  using Hash = uint64_t;
  static uint64_t HashInt(int32_t value, uint64_t seed);
  static uint64_t HashLong(int64_t value, uint64_t seed);
  static uint64_t HashBytes(const uint8_t* data, int64_t length, uint64_t seed);
};

/// BigInteger.toByteArray of the 128-bit two's complement value high:low: big-endian, minimal
/// length, written to `out`; returns the length.
int BigIntegerBytes(int64_t high, uint64_t low, uint8_t out[16]);

// How Spark hashes the values whose binary form is not simply their bytes. H is one of the two
// hash functions above.

/// A double: -0.0 hashes as 0.0 and every NaN as the canonical one.
template <typename H>
typename H::Hash HashDouble(double value, typename H::Hash seed) {
  if (value == 0.0) return H::HashLong(0, seed);
  if (std::isnan(value)) return H::HashLong(0x7ff8000000000000LL, seed);
  int64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return H::HashLong(bits, seed);
}

/// A float: -0.0 hashes as 0.0 and every NaN as the canonical one.
template <typename H>
typename H::Hash HashFloat(float value, typename H::Hash seed) {
  if (value == 0.0f) return H::HashInt(0, seed);
  if (std::isnan(value)) return H::HashInt(0x7fc00000, seed);
  int32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return H::HashInt(bits, seed);
}

/// A decimal of `precision` digits whose unscaled value is high:low: as a long up to 18 digits,
/// else as the bytes of its BigInteger.
template <typename H>
typename H::Hash HashDecimal(int precision, int64_t high, uint64_t low,
                             typename H::Hash seed) {
  if (precision <= 18) return H::HashLong(static_cast<int64_t>(low), seed);
  uint8_t big_endian[16];
  const int length = BigIntegerBytes(high, low, big_endian);
  return H::HashBytes(big_endian, length, seed);
}

}  // namespace sluice::expr
