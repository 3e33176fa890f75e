#include "sluice/physical/join_row_removal.h"

#include <numeric>

namespace sluice::physical {

const KeyRowRemoval& KeyRowRemover::Remove(int64_t count,
                                           std::span<const int64_t> expired_indexes) {
  removal_.moves.clear();
  removal_.dropped_indexes.clear();
  removal_.removed_rows.clear();
  // Spark's walk, on the indexes alone.
  kept_at_.resize(count);
  std::iota(kept_at_.begin(), kept_at_.end(), int64_t{0});
  expired_row_.assign(count, -1);
  for (size_t r = 0; r < expired_indexes.size(); ++r) {
    expired_row_[expired_indexes[r]] = static_cast<int64_t>(r);
  }
  int64_t kept = count;
  for (int64_t position = 0; position < kept;) {
    const int64_t row = expired_row_[kept_at_[position]];
    if (row < 0) {
      ++position;
      continue;
    }
    removal_.removed_rows.push_back(static_cast<size_t>(row));
    // The unwalked positions past `position` hold their own rows: the last row is kept - 1.
    if (position != kept - 1) {
      kept_at_[position] = kept - 1;
      removal_.moves.push_back({position, kept - 1});
    } else {
      removal_.dropped_indexes.push_back(kept - 1);
    }
    --kept;
  }
  removal_.kept = kept;
  return removal_;
}

}  // namespace sluice::physical
