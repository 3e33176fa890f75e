// How a stream-stream join takes the rows the state watermark has passed out of one side's
// stores of one partition, as Spark's symmetric hash join does: by key or by each row's own
// time, filling each hole a removal leaves with the key's last row.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/physical/state_key_encoding.h"
#include "sluice/plan/join_state_eviction.h"
#include "sluice/state/state_store.h"

namespace sluice::physical {

/// One side's two stores of one partition.
struct SideStores {
  std::unique_ptr<state::StateStore> counts;
  std::unique_ptr<state::StateStore> values;
};

/// What one part of the store a removal walks holds that the state watermark passed, of one
/// group of keys.
struct ScannedPart {
  EncodedRows keys;               // by row: the key of each expired row; by key: each key
  std::vector<int64_t> numbers;   // by row: each expired row's index; by key: its rows
  std::vector<int64_t> unmatched_of;  // by row: the row's place in unmatched_rows, or -1
  EncodedRows unmatched_rows;     // by row: expired rows a preserved side emits null-padded
};

/// The buffers the plan of one group of keys fills.
struct PlanBuffers {
  EncodedRows removed_keys;  // the indexed keys given up
  EncodedRows moved_to;      // the indexed keys of the holes rows move into
  EncodedRows moved_from;    // and of the rows that move
  EncodedRows moved_values;
  EncodedRows new_counts;  // the counts of the keys that keep rows
};

/// The buffers a removal fills, which its caller keeps from batch to batch.
struct RemovalBuffers {
  /// What each part of the scan found of each group of keys, group after group: the parts of
  /// group g are scanned[g * parts] to scanned[(g + 1) * parts - 1] (ScanForRemoval).
  std::vector<ScannedPart> scanned;
  std::vector<PlanBuffers> plans;  // one per group of keys
};

/// What a removal needs to know of the side it removes from.
struct RemovedSide {
  std::string counts_store;  // the stores' names, for errors
  std::string values_store;
  const std::vector<std::shared_ptr<arrow::DataType>>* row_types;  // of the rows kept
  const std::vector<std::shared_ptr<arrow::DataType>>* key_types;
  plan::JoinStateEviction eviction;
  bool preserved = false;  // its unmatched rows are emitted with nulls
};

/// What taking the expired rows of one group of keys out changes in each of a side's two
/// stores, worked out before either changes (views of the buffers that ScanForRemoval and
/// PlanStateRemoval filled). Each store's changes read and write that store alone, so the two
/// stores change at once, on two threads: RemoveFromValues and RemoveFromCounts.
struct StateRemoval {
  // The values store: the rows at `moved_from` are taken out and each put at the same place
  // of `moved_to`, then the rows at `removed_values` are removed.
  std::vector<std::string_view> moved_to, moved_from, removed_values;
  // The counts store: `emptied_keys` are removed, then `counted_keys` given `new_counts`.
  std::vector<std::string_view> emptied_keys, counted_keys, new_counts;
};

/// The first step of taking the rows at or below `watermark_micros` (the state watermark) out
/// of `stores`, by key or by row as `side.eviction` says: finds them in part `part` of
/// `parts` of the store that tells (the counts by key, the values by row; ForEachOfPart),
/// reading it only, into `scanned[g * parts + part]` for the rows of each group g of keys,
/// the keys split into groups by their hash (`scanned` holds `parts` for each group). The
/// parts of a store may be scanned at once, on several threads: one store partition
/// evicting half its rows (q7's bids) spent as long scanning them as changing both stores.
arrow::Status ScanForRemoval(const RemovedSide& side, int64_t watermark_micros,
                             const SideStores& stores, int part, int parts,
                             std::vector<ScannedPart>& scanned);

/// Then works out how to take the rows of one group of keys that the parts of the scan found
/// (`scanned`, its parts in order) out of `stores`, reading them only: the unmatched ones of
/// a preserved side are appended to `unmatched`, and `removed` counts every row taken out.
/// The groups of a store partition may be planned at once, as each writes only its own
/// buffers and outputs, when its stores may be read at once (StateStore::ReadsConcurrently).
arrow::Status PlanStateRemoval(const RemovedSide& side, const SideStores& stores,
                               std::span<const ScannedPart> scanned, PlanBuffers& buffers,
                               EncodedRows* unmatched, int64_t* removed,
                               StateRemoval* removal);

/// Makes `removal`'s changes to the side's values store: the rows that move are taken out,
/// put where they go, then the other rows given up are removed; the store ends as at the end
/// of Spark's sequence.
arrow::Status RemoveFromValues(const RemovedSide& side, state::StateStore& values,
                               PlanBuffers& buffers, const StateRemoval& removal);

/// Makes `removal`'s changes to the side's counts store.
arrow::Status RemoveFromCounts(state::StateStore& counts, const StateRemoval& removal);

}  // namespace sluice::physical
