// A key's expired join rows leave as Spark's SymmetricHashJoinStateManager removes them by
// value: walking the indexes, an expired row is replaced by the key's last row, which is
// checked in turn. KeyRowRemover works that out from the indexes alone; applying its moves
// and removals must leave the same rows at the same indexes, and remove them in the same order.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sluice/physical/join_row_removal.h"

namespace sluice::testing {
namespace {

using physical::KeyRowRemoval;
using physical::KeyRowRemover;

struct Outcome {
  std::vector<int64_t> rows;     // the original index of the row at each index left
  std::vector<int64_t> removed;  // the original indexes removed, in order
};

/// Spark's walk over one key's rows.
Outcome SparkRemoval(int64_t count, const std::vector<bool>& expired) {
  Outcome outcome;
  for (int64_t i = 0; i < count; ++i) outcome.rows.push_back(i);
  size_t i = 0;
  while (i < outcome.rows.size()) {
    if (!expired[outcome.rows[i]]) {
      ++i;
      continue;
    }
    outcome.removed.push_back(outcome.rows[i]);
    outcome.rows[i] = outcome.rows.back();
    outcome.rows.pop_back();
  }
  return outcome;
}

/// Applies `removal` as the join does: the rows that move are taken out first (each index
/// given up once), then put at their new indexes in order, then the dropped indexes go.
Outcome Apply(int64_t count, const std::vector<int64_t>& expired_indexes,
              const KeyRowRemoval& removal) {
  std::vector<int64_t> row(count);
  std::vector<bool> present(count, true);
  for (int64_t i = 0; i < count; ++i) row[i] = i;
  std::vector<int64_t> taken;
  for (const auto& move : removal.moves) {
    EXPECT_TRUE(present[move.from]) << "index " << move.from << " given up twice";
    present[move.from] = false;
    taken.push_back(row[move.from]);
  }
  for (size_t m = 0; m < removal.moves.size(); ++m) {
    const int64_t to = removal.moves[m].to;
    EXPECT_TRUE(present[to]) << "a row moves to index " << to << ", which is given up";
    row[to] = taken[m];
  }
  for (int64_t index : removal.dropped_indexes) {
    EXPECT_TRUE(present[index]) << "index " << index << " given up twice";
    present[index] = false;
  }
  Outcome outcome;
  for (int64_t i = 0; i < count; ++i) {
    if (present[i]) outcome.rows.push_back(row[i]);
  }
  for (size_t row : removal.removed_rows) outcome.removed.push_back(expired_indexes[row]);
  return outcome;
}

TEST(JoinRowRemovalTest, HolesTakeTheLastRowWhichIsCheckedInTurn) {
  // Rows 0..4; 0, 3 and 4 expire. Spark: 0 takes 4 (expired), then 3 (expired), then 2.
  const std::vector<int64_t> expired = {3, 0, 4};
  KeyRowRemover remover;
  const KeyRowRemoval& removal = remover.Remove(5, expired);
  EXPECT_EQ(removal.kept, 2);
  const Outcome applied = Apply(5, expired, removal);
  EXPECT_EQ(applied.rows, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(applied.removed, (std::vector<int64_t>{0, 4, 3}));
}

TEST(JoinRowRemovalTest, MatchesSparksWalkOnEveryShape) {
  std::mt19937_64 random(20261202);
  KeyRowRemover remover;  // one for every trial, as the join reuses it for every key
  for (int trial = 0; trial < 5000; ++trial) {
    const int64_t count = static_cast<int64_t>(random() % 13);
    std::vector<bool> is_expired(count);
    std::vector<int64_t> expired_indexes;
    for (int64_t i = 0; i < count; ++i) {
      is_expired[i] = random() % 3 == 0;
      if (is_expired[i]) expired_indexes.push_back(i);
    }
    std::shuffle(expired_indexes.begin(), expired_indexes.end(), random);
    const KeyRowRemoval& removal = remover.Remove(count, expired_indexes);
    const Outcome spark = SparkRemoval(count, is_expired);
    const Outcome applied = Apply(count, expired_indexes, removal);
    ASSERT_EQ(removal.kept, static_cast<int64_t>(spark.rows.size())) << "trial " << trial;
    ASSERT_EQ(applied.rows, spark.rows) << "trial " << trial;
    ASSERT_EQ(applied.removed, spark.removed) << "trial " << trial;
  }
}

}  // namespace
}  // namespace sluice::testing
