#include "sluice/expr/functions/hash_spark_murmur3.h"

#include <cstring>

namespace sluice::expr {

namespace {

constexpr uint32_t kC1 = 0xcc9e2d51u;
constexpr uint32_t kC2 = 0x1b873593u;

inline uint32_t Rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
inline uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint32_t MixK1(uint32_t k1) {
  k1 *= kC1;
  k1 = Rotl32(k1, 15);
  return k1 * kC2;
}

inline uint32_t MixH1(uint32_t h1, uint32_t k1) {
  h1 ^= k1;
  h1 = Rotl32(h1, 13);
  return h1 * 5 + 0xe6546b64u;
}

inline uint32_t Fmix32(uint32_t h1, uint32_t length) {
  h1 ^= length;
  h1 ^= h1 >> 16;
  h1 *= 0x85ebca6bu;
  h1 ^= h1 >> 13;
  h1 *= 0xc2b2ae35u;
  h1 ^= h1 >> 16;
  return h1;
}

inline uint32_t LoadLittle32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

inline uint64_t LoadLittle64(const uint8_t* p) {
  return static_cast<uint64_t>(LoadLittle32(p)) |
         (static_cast<uint64_t>(LoadLittle32(p + 4)) << 32);
}

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

inline uint64_t Fmix64(uint64_t hash) {
  hash ^= hash >> 33;
  hash *= kPrime2;
  hash ^= hash >> 29;
  hash *= kPrime3;
  hash ^= hash >> 32;
  return hash;
}

}  // namespace

uint32_t SparkMurmur3::HashInt(int32_t value, uint32_t seed) {
  return Fmix32(MixH1(seed, MixK1(static_cast<uint32_t>(value))), 4);
}

uint32_t SparkMurmur3::HashLong(int64_t value, uint32_t seed) {
  const auto bits = static_cast<uint64_t>(value);
  uint32_t h1 = MixH1(seed, MixK1(static_cast<uint32_t>(bits)));
  h1 = MixH1(h1, MixK1(static_cast<uint32_t>(bits >> 32)));
  return Fmix32(h1, 8);
}

uint32_t SparkMurmur3::HashBytes(const uint8_t* data, int64_t length, uint32_t seed) {
  const int64_t aligned = length - length % 4;
  uint32_t h1 = seed;
  for (int64_t i = 0; i < aligned; i += 4) h1 = MixH1(h1, MixK1(LoadLittle32(data + i)));
  for (int64_t i = aligned; i < length; ++i) {
    const auto half_word = static_cast<int32_t>(static_cast<int8_t>(data[i]));
    h1 = MixH1(h1, MixK1(static_cast<uint32_t>(half_word)));
  }
  return Fmix32(h1, static_cast<uint32_t>(length));
}

uint64_t SparkXxHash64::HashInt(int32_t value, uint64_t seed) {
  uint64_t hash = seed + kPrime5 + 4;
  hash ^= (static_cast<uint64_t>(value) & 0xFFFFFFFFull) * kPrime1;
  hash = Rotl64(hash, 23) * kPrime2 + kPrime3;
  return Fmix64(hash);
}

uint64_t SparkXxHash64::HashLong(int64_t value, uint64_t seed) {
  uint64_t hash = seed + kPrime5 + 8;
  hash ^= Rotl64(static_cast<uint64_t>(value) * kPrime2, 31) * kPrime1;
  hash = Rotl64(hash, 27) * kPrime1 + kPrime4;
  return Fmix64(hash);
}

uint64_t SparkXxHash64::HashBytes(const uint8_t* data, int64_t length, uint64_t seed) {
  const uint8_t* p = data;
  const uint8_t* end = data + length;
  uint64_t hash;
  if (length >= 32) {
    const uint8_t* limit = end - 32;
    uint64_t v1 = seed + kPrime1 + kPrime2;
    uint64_t v2 = seed + kPrime2;
    uint64_t v3 = seed;
    uint64_t v4 = seed - kPrime1;
    do {
      v1 = Rotl64(v1 + LoadLittle64(p) * kPrime2, 31) * kPrime1;
      v2 = Rotl64(v2 + LoadLittle64(p + 8) * kPrime2, 31) * kPrime1;
      v3 = Rotl64(v3 + LoadLittle64(p + 16) * kPrime2, 31) * kPrime1;
      v4 = Rotl64(v4 + LoadLittle64(p + 24) * kPrime2, 31) * kPrime1;
      p += 32;
    } while (p <= limit);
    hash = Rotl64(v1, 1) + Rotl64(v2, 7) + Rotl64(v3, 12) + Rotl64(v4, 18);
    for (uint64_t v : {v1, v2, v3, v4}) {
      v = Rotl64(v * kPrime2, 31) * kPrime1;
      hash ^= v;
      hash = hash * kPrime1 + kPrime4;
    }
  } else {
    hash = seed + kPrime5;
  }
  hash += static_cast<uint64_t>(length);
  while (p + 8 <= end) {
    hash ^= Rotl64(LoadLittle64(p) * kPrime2, 31) * kPrime1;
    hash = Rotl64(hash, 27) * kPrime1 + kPrime4;
    p += 8;
  }
  if (p + 4 <= end) {
    hash ^= static_cast<uint64_t>(LoadLittle32(p)) * kPrime1;
    hash = Rotl64(hash, 23) * kPrime2 + kPrime3;
    p += 4;
  }
  while (p < end) {
    hash ^= static_cast<uint64_t>(*p) * kPrime5;
    hash = Rotl64(hash, 11) * kPrime1;
    ++p;
  }
  return Fmix64(hash);
}

int BigIntegerBytes(int64_t high_bits, uint64_t low, uint8_t out[16]) {
  const auto high = static_cast<uint64_t>(high_bits);
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<uint8_t>(high >> (56 - 8 * i));
    out[8 + i] = static_cast<uint8_t>(low >> (56 - 8 * i));
  }
  int start = 0;
  while (start < 15) {
    const bool redundant = (out[start] == 0x00 && (out[start + 1] & 0x80) == 0) ||
                           (out[start] == 0xFF && (out[start + 1] & 0x80) != 0);
    if (!redundant) break;
    ++start;
  }
  if (start > 0) std::memmove(out, out + start, 16 - start);
  return 16 - start;
}

}  // namespace sluice::expr
