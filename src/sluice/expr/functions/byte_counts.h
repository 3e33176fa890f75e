// Counting the bytes of a text that have one value, or that continue a UTF-8 character: sixteen
// bytes at a time where SSE2 is there. A string's length in characters (q14's length(extra))
// and the occurrences of a one-byte search (length(s) - length(replace(s, 'c', ''))) look at
// every byte of long texts, where a byte or a word at a time left most of a core unused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice::expr {

namespace byte_counts_internal {

/// The bytes of `text` that `marks` marks (0xFF in each such byte of a block of sixteen) or,
/// in a text shorter than a block, that `matches` holds for.
template <typename Marks, typename Matches>
int64_t CountMarked(std::string_view text, [[maybe_unused]] Marks marks, Matches matches) {
  const char* data = text.data();
  const size_t size = text.size();
#if defined(__SSE2__)
  if (size >= 16) {
    const __m128i zero = _mm_setzero_si128();
    int64_t total = 0;
    // Each byte of `counts` counts the marks in its lane (subtracting 0xFF adds one); the
    // lanes are summed before any could pass 255.
    __m128i counts = zero;
    int lane_blocks = 0;
    auto sum_lanes = [&] {
      const __m128i sums = _mm_sad_epu8(counts, zero);
      total += _mm_extract_epi16(sums, 0) + _mm_extract_epi16(sums, 4);
      counts = zero;
      lane_blocks = 0;
    };
    size_t i = 0;
    for (; i + 16 <= size; i += 16) {
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
      counts = _mm_sub_epi8(counts, marks(block));
      if (++lane_blocks == 255) sum_lanes();
    }
    if (i < size) {
      // The last sixteen bytes, of which those before `i` were counted already.
      static constexpr unsigned char kLastBytes[32] = {
          0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
          0,    0,    0,    0,    0,    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
      const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + size - 16));
      const __m128i fresh =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(kLastBytes + (size - i)));
      counts = _mm_sub_epi8(counts, _mm_and_si128(marks(block), fresh));
    }
    sum_lanes();
    return total;
  }
#endif
  int64_t total = 0;
  for (size_t i = 0; i < size; ++i) total += matches(static_cast<unsigned char>(data[i]));
  return total;
}

}  // namespace byte_counts_internal

/// The bytes of `text` equal to `c`.
inline int64_t CountByte(std::string_view text, char c) {
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  auto marks = [needle](__m128i block) { return _mm_cmpeq_epi8(block, needle); };
#else
  auto marks = nullptr;
#endif
  return byte_counts_internal::CountMarked(
      text, marks, [c](unsigned char byte) { return byte == static_cast<unsigned char>(c); });
}

/// The bytes of `text` that continue a UTF-8 character (10xxxxxx).
inline int64_t CountContinuationBytes(std::string_view text) {
#if defined(__SSE2__)
  // 0x80 to 0xBF are the signed bytes below -64.
  const __m128i below = _mm_set1_epi8(-64);
  auto marks = [below](__m128i block) { return _mm_cmplt_epi8(block, below); };
#else
  auto marks = nullptr;
#endif
  return byte_counts_internal::CountMarked(
      text, marks, [](unsigned char byte) { return (byte & 0xC0) == 0x80; });
}

}  // namespace sluice::expr
