#include "sluice/physical/join_row_removal.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace sluice::physical {

KeyRowRemoval RemoveKeyRows(int64_t count, const std::vector<int64_t>& expired_indexes) {
  // The expired rows by index: (index, position in `expired_indexes`).
  std::vector<std::pair<int64_t, size_t>> expired;
  expired.reserve(expired_indexes.size());
  for (size_t r = 0; r < expired_indexes.size(); ++r) expired.emplace_back(expired_indexes[r], r);
  std::sort(expired.begin(), expired.end());
  auto expired_at = [&](int64_t index) -> const std::pair<int64_t, size_t>* {
    auto found = std::lower_bound(expired.begin(), expired.end(),
                                  std::pair<int64_t, size_t>{index, 0});
    return found != expired.end() && found->first == index ? &*found : nullptr;
  };
  // `now_at` maps the positions filled so far to the index their row was first kept at.
  std::unordered_map<int64_t, int64_t> now_at;
  auto first_index_at = [&](int64_t position) {
    auto filled = now_at.find(position);
    return filled == now_at.end() ? position : filled->second;
  };
  KeyRowRemoval removal;
  int64_t kept = count;
  for (int64_t position = 0; position < kept;) {
    const auto* row = expired_at(first_index_at(position));
    if (row == nullptr) {
      ++position;
      continue;
    }
    removal.removed_rows.push_back(row->second);
    if (position != kept - 1) {
      const int64_t last = first_index_at(kept - 1);
      now_at[position] = last;
      removal.moves.push_back({position, last});
    }
    removal.removed_indexes.push_back(kept - 1);
    --kept;
  }
  removal.kept = kept;
  return removal;
}

}  // namespace sluice::physical
