#pragma once

// Hashing and comparing the encoded bytes of grouping keys (key_grouper.cc), a few dozen bytes
// each, once per row: inline word loads rather than calls to memcpy and memcmp of a variable
// length.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sluice::expr {

inline uint64_t LoadWord(const uint8_t* data) {
  uint64_t word;
  std::memcpy(&word, data, 8);
  return word;
}

/// The last `rest` (< 8) of the `length` bytes at `data`, as a zeroed word they were copied into
/// holds them. A memcpy of a variable length was a call, and its byte stores stalled the load of
/// the word.
inline uint64_t LoadTail(const uint8_t* data, size_t length, size_t rest) {
  if (rest == 0) return 0;
  if (length >= 8) return LoadWord(data + length - 8) >> (8 * (8 - rest));
  // A key shorter than a word: rest == length, read in pieces of 4, 2 and 1 bytes.
  uint64_t tail = 0;
  size_t at = 0;
  if (rest & 4) {
    uint32_t piece;
    std::memcpy(&piece, data, 4);
    tail = piece;
    at = 4;
  }
  if (rest & 2) {
    uint16_t piece;
    std::memcpy(&piece, data + at, 2);
    tail |= static_cast<uint64_t>(piece) << (8 * at);
    at += 2;
  }
  if (rest & 1) tail |= static_cast<uint64_t>(data[at]) << (8 * at);
  return tail;
}

/// The 128-bit product of `a` and `b`, its halves xored: every bit of the result depends on
/// most bits of both.
inline uint64_t FoldedProduct(uint64_t a, uint64_t b) {
  const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
  return static_cast<uint64_t>(product) ^ static_cast<uint64_t>(product >> 64);
}

/// A 64-bit hash of `length` bytes, for hash tables within the process (never stored). Keys
/// such as urls run to many words: a multiply takes 16 bytes, in two chains side by side (a
/// mix and a multiply a word, in one chain, left most of a lookup waiting for the hash).
inline uint64_t HashKeyBytes(const uint8_t* data, size_t length) {
  constexpr uint64_t k0 = 0x9E3779B97F4A7C15ULL;
  constexpr uint64_t k1 = 0xff51afd7ed558ccdULL;
  constexpr uint64_t k2 = 0xc4ceb9fe1a85ec53ULL;
  uint64_t state = k0 ^ length;
  uint64_t first;
  uint64_t last;
  if (length <= 16) {
    first = length >= 8 ? LoadWord(data) : LoadTail(data, length, length);
    last = length >= 8 ? LoadWord(data + length - 8) : 0;
  } else {
    uint64_t side = k2 ^ length;
    size_t i = 0;
    for (; i + 32 < length; i += 32) {
      state = FoldedProduct(LoadWord(data + i) ^ k1, LoadWord(data + i + 8) ^ state);
      side = FoldedProduct(LoadWord(data + i + 16) ^ k2, LoadWord(data + i + 24) ^ side);
    }
    state ^= side;
    if (i + 16 < length) {
      state = FoldedProduct(LoadWord(data + i) ^ k1, LoadWord(data + i + 8) ^ state);
    }
    // The last 16 bytes, which may overlap those hashed above.
    first = LoadWord(data + length - 16);
    last = LoadWord(data + length - 8);
  }
  return FoldedProduct(k1 ^ length, FoldedProduct(first ^ k2, last ^ state));
}

/// Whether `a` and `b` hold the same `length` bytes. Those of 4 to 16 bytes are compared here
/// (a call to memcmp for each probe, or each string compared with a literal, cost more);
/// others by memcmp, whose vector compares take a url in a few steps where a loop of words
/// ended in a mispredicted branch.
inline bool EqualKeyBytes(const uint8_t* a, const uint8_t* b, size_t length) {
  if (length < 4 || length > 16) return std::memcmp(a, b, length) == 0;
  // The last word overlaps the first when the length is not a whole two words (or one).
  if (length < 8) {
    uint32_t a_first, b_first, a_last, b_last;
    std::memcpy(&a_first, a, 4);
    std::memcpy(&b_first, b, 4);
    std::memcpy(&a_last, a + length - 4, 4);
    std::memcpy(&b_last, b + length - 4, 4);
    return a_first == b_first && a_last == b_last;
  }
  return LoadWord(a) == LoadWord(b) && LoadWord(a + length - 8) == LoadWord(b + length - 8);
}

}  // namespace sluice::expr
