#pragma once

// Spark's two row hash functions, bit-for-bit: Murmur3 x86_32 as in
// org.apache.spark.unsafe.hash.Murmur3_x86_32 (including its legacy handling of a byte tail, one
// signed byte at a time) and XXH64 as in org.apache.spark.sql.catalyst.expressions.XXH64.
// Pure functions of their arguments; thread-safe.

#include <cstdint>

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

}  // namespace sluice::expr
