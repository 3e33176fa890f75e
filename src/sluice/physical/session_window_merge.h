// The merging step of session windows, apart from any operator: batch aggregation by session
// window runs it over all rows of a query, a streaming session operator over the sessions kept
// in its state together with a micro-batch's new rows.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <arrow/result.h>

namespace sluice::physical {

/// A session window [start, end), in microseconds of its time type.
struct SessionSpan {
  int64_t start = 0;
  int64_t end = 0;
};

/// Sessions after merging: `sessions` in the order of their first input, and for every input
/// position the index in `sessions` of the session it joined.
struct MergedSessions {
  std::vector<SessionSpan> sessions;
  std::vector<int64_t> session_of;
};

/// Merges the sessions of inputs sorted by (key, start), as Spark's MergingSessionsIterator:
/// going through a key's inputs in start order, an input whose start is not after the end of
/// the session being built (ranges that overlap or touch) joins it and extends its end to the
/// larger of both ends; otherwise it opens a new session. Inputs of different keys never share
/// a session. `key_ids[i]` identifies the key of input i (equal ids: same key); `spans[i]` is
/// its session. Invalid when the two spans differ in length or the inputs are not sorted.
arrow::Result<MergedSessions> MergeSortedSessions(std::span<const uint32_t> key_ids,
                                                  std::span<const SessionSpan> spans);

}  // namespace sluice::physical
