// Spark's LongOffset: an offset that is one long, written in the offsets log as a plain JSON
// number ("5"). The rate, socket and memory sources use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::sources {

/// `offset` advanced by `count`, saturating at the long range (a source without an end never
/// overflows its offsets).
inline int64_t SaturatingAdd(int64_t offset, int64_t count) {
  int64_t sum = 0;
  if (__builtin_add_overflow(offset, count, &sum)) return INT64_MAX;
  return sum;
}

/// The JSON text of a LongOffset.
std::string LongOffsetJson(int64_t offset);

/// Reads a LongOffset's JSON text (surrounding blanks allowed); anything else fails naming the
/// text and `source_description`.
arrow::Result<int64_t> ParseLongOffset(std::string_view json, std::string_view source_description);

/// The offsets of one GetBatch call: the batch covers what lies after `start` up to `end`.
struct LongOffsetRange {
  int64_t start;
  int64_t end;
};

/// Reads GetBatch's `start` and `end` as LongOffsets; `start` is `first_start` for the first
/// batch (no start). Fails as ParseLongOffset does.
arrow::Result<LongOffsetRange> ParseLongOffsetRange(const std::optional<std::string>& start,
                                                    std::string_view end,
                                                    std::string_view source_description,
                                                    int64_t first_start);

}  // namespace sluice::sources
