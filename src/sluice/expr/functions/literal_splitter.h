// Splitting a string at a plain-text separator, as Spark's split does when its pattern has no
// regex metacharacter: shared by split itself and by split(...)[i], which takes one part
// without making the array of them all.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice::expr {

/// True when `pattern` means the same as a regex and as plain text: not empty, and without a
/// regex metacharacter.
inline bool IsLiteralPattern(std::string_view pattern) {
  if (pattern.empty()) return false;
  for (char c : pattern) {
    if (std::strchr(".$|()[]{}^?*+\\", c) != nullptr) return false;
  }
  return true;
}

/// The parts of `text` split at `separator` (a literal pattern) into at most `limit` parts,
/// the last holding the rest (every part when limit <= 0), in order: Java's String.split with
/// trailing empty parts kept, as Spark 4 splits. A text without the separator is one part.
class LiteralSplitter {
 public:
  LiteralSplitter(std::string_view text, std::string_view separator, int64_t limit)
      : text_(text), separator_(separator), limit_(limit) {}

  /// The next part, or nullopt after the last.
  std::optional<std::string_view> Next() {
    if (done_) return std::nullopt;
    if (limit_ <= 0 || parts_ < limit_ - 1) {
      // A one-character separator (the usual case) is a memchr, not a memchr and a memcmp.
      const size_t found = separator_.size() == 1 ? text_.find(separator_[0], start_)
                                                  : text_.find(separator_, start_);
      if (found != std::string_view::npos) {
        const std::string_view part = text_.substr(start_, found - start_);
        start_ = found + separator_.size();
        ++parts_;
        return part;
      }
    }
    done_ = true;
    return text_.substr(start_);
  }

 private:
  std::string_view text_;
  std::string_view separator_;
  int64_t limit_;
  size_t start_ = 0;
  int64_t parts_ = 0;  // parts returned before the last
  bool done_ = false;
};

/// Where in `text` the `count`-th (>= 1) occurrence of `c` at or after `from` ends (the index
/// after it), or npos when there are fewer. Sixteen bytes at a time where SSE2 is there: the
/// parts a url or a CSV line splits into are a few bytes long, and a memchr per part costs
/// more in calls than in bytes.
inline size_t AfterNthByte(std::string_view text, char c, int64_t count, size_t from) {
  const char* data = text.data();
  const size_t size = text.size();
  size_t i = from;
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  for (; i + 16 <= size; i += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i));
    // A bit per byte that is `c`; a part spans a few bytes, so a block has few of them
    // (stepped through rather than counted: popcount is a library call on baseline x86-64).
    auto found = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, needle)));
    for (; found != 0; found &= found - 1) {
      if (--count == 0) return i + static_cast<size_t>(std::countr_zero(found)) + 1;
    }
  }
#endif
  for (; i < size; ++i) {
    if (data[i] == c && --count == 0) return i + 1;
  }
  return std::string_view::npos;
}

/// A bit per byte of the 64 from `data` that is `c`, the first byte's the lowest.
inline uint64_t ByteMask64(const char* data, char c) {
  uint64_t mask = 0;
#if defined(__SSE2__)
  const __m128i needle = _mm_set1_epi8(c);
  for (int block = 0; block < 4; ++block) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * block));
    const auto found = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, needle)));
    mask |= static_cast<uint64_t>(found) << (16 * block);
  }
#else
  for (int i = 0; i < 64; ++i) mask |= static_cast<uint64_t>(data[i] == c) << i;
#endif
  return mask;
}

/// Where the part at `position` (>= 0) of `text` split at the byte `c` (without a limit) lies,
/// when the separators that bound it are among the text's first 64 bytes, which `readable`
/// holds: those bytes are one word of bits, one per separator, and the part's bounds are its
/// position-th and next bits, found by clearing the lowest bit a fixed number of times, with
/// no branch on the text's bytes. A url's directories are bounded so (Nexmark's q22 takes
/// three of each url, whose separators a loop over 16-byte blocks found with a mispredicted
/// branch or two each). Returns 1 and sets `*start` and `*end` when the part is there, 0 when
/// there are not that many parts, and -1 when the text is longer than 64 bytes and the
/// part's bounds are not both within them (or `readable` has no 64 bytes from the text on).
inline int PartWithinFirst64(std::string_view text, std::string_view readable, char c,
                             int64_t position, size_t* start, size_t* end) {
  if (text.empty() || readable.empty() || text.data() < readable.data() ||
      static_cast<size_t>(text.data() - readable.data()) + 64 > readable.size()) {
    return -1;
  }
  uint64_t mask = ByteMask64(text.data(), c);
  if (text.size() < 64) mask &= (uint64_t{1} << text.size()) - 1;
  const int beyond = text.size() <= 64 ? 0 : -1;
  size_t from = 0;
  for (int64_t k = 0; k < position; ++k) {
    if (mask == 0) return beyond;
    from = static_cast<size_t>(std::countr_zero(mask)) + 1;
    mask &= mask - 1;
  }
  *start = from;
  if (mask != 0) {
    *end = static_cast<size_t>(std::countr_zero(mask));
    return 1;
  }
  *end = text.size();
  return beyond == 0 ? 1 : -1;
}

/// The part at `position` (0-based) of `text` split as LiteralSplitter splits it, or nullopt
/// when there are not that many parts: for split(...)[i], which needs only the one.
inline std::optional<std::string_view> LiteralPart(std::string_view text,
                                                   std::string_view separator, int64_t limit,
                                                   int64_t position) {
  if (separator.size() != 1) {
    LiteralSplitter parts(text, separator, limit);
    std::optional<std::string_view> part;
    for (int64_t k = 0; k <= position; ++k) {
      part = parts.Next();
      if (!part) break;
    }
    return part;
  }
  if (position < 0 || (limit > 0 && position >= limit)) return std::nullopt;
  const size_t start = position == 0 ? 0 : AfterNthByte(text, separator[0], position, 0);
  if (start == std::string_view::npos) return std::nullopt;
  // The last of `limit` parts holds the rest of the text.
  if (limit > 0 && position == limit - 1) return text.substr(start);
  const size_t end = AfterNthByte(text, separator[0], 1, start);
  return end == std::string_view::npos ? text.substr(start) : text.substr(start, end - 1 - start);
}

}  // namespace sluice::expr
