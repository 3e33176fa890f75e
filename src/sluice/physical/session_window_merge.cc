#include "sluice/physical/session_window_merge.h"

#include <algorithm>

namespace sluice::physical {

arrow::Result<MergedSessions> MergeSortedSessions(std::span<const uint32_t> key_ids,
                                                  std::span<const SessionSpan> spans) {
  if (key_ids.size() != spans.size()) {
    return arrow::Status::Invalid("MergeSortedSessions: ", key_ids.size(), " key ids for ",
                                  spans.size(), " sessions");
  }
  MergedSessions merged;
  merged.session_of.resize(spans.size());
  for (size_t i = 0; i < spans.size(); ++i) {
    const bool same_key = i > 0 && key_ids[i] == key_ids[i - 1];
    if (same_key && spans[i].start < spans[i - 1].start) {
      return arrow::Status::Invalid("MergeSortedSessions: input ", i,
                                    " starts before the previous input of its key");
    }
    if (same_key && spans[i].start <= merged.sessions.back().end) {
      auto& session = merged.sessions.back();
      session.end = std::max(session.end, spans[i].end);
    } else {
      merged.sessions.push_back(spans[i]);
    }
    merged.session_of[i] = static_cast<int64_t>(merged.sessions.size()) - 1;
  }
  return merged;
}

}  // namespace sluice::physical
