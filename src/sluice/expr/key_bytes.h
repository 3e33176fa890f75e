#pragma once

// Hashing and comparing the encoded bytes of grouping keys (key_grouper.cc), a few dozen bytes
// each, once per row: inline word loads rather than calls to memcpy and memcmp of a variable
// length.

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sluice/common/mix_integer.h"

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

/// A 64-bit hash of `length` bytes, for hash tables within the process (never stored).
inline uint64_t HashKeyBytes(const uint8_t* data, size_t length) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ (length * 0xff51afd7ed558ccdULL);
  size_t i = 0;
  for (; i + 8 <= length; i += 8) {
    h = (h ^ MixInteger(LoadWord(data + i))) * 0x9E3779B97F4A7C15ULL;
    h = (h << 29) | (h >> 35);
  }
  return MixInteger(h ^ LoadTail(data, length, length - i) ^
                    (static_cast<uint64_t>(length - i) << 56));
}

/// Whether `a` and `b` hold the same `length` bytes. Keys are short, and a call to memcmp for
/// each probe cost more than comparing them word by word here.
inline bool EqualKeyBytes(const uint8_t* a, const uint8_t* b, size_t length) {
  if (length < 8) return std::memcmp(a, b, length) == 0;
  for (size_t i = 0; i + 8 < length; i += 8) {
    if (LoadWord(a + i) != LoadWord(b + i)) return false;
  }
  // The last word overlaps the one before when the length is not a multiple of 8.
  return LoadWord(a + length - 8) == LoadWord(b + length - 8);
}

}  // namespace sluice::expr
