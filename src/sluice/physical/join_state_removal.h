// How a stream-stream join takes the rows the state watermark has passed out of one side's
// stores of one partition, as Spark's symmetric hash join does: by key or by each row's own
// time, filling each hole a removal leaves with the key's last row.
#pragma once

#include <cstdint>
#include <memory>
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
/// group of keys (the keys split by their hash).
struct ScannedPart {
  EncodedRows keys;               // by row: the key of each expired row; by key: each key
  std::vector<uint64_t> hashes;   // each key's ArenaHashTable::Hash, which places its group
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
  /// group g are scanned[g * parts] to scanned[(g + 1) * parts - 1].
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

/// Takes the rows at or below `watermark_micros` (the state watermark) out of one side's
/// stores of every partition (`stores[p]`, with `buffers[p]` kept from batch to batch), by key
/// or by row as `side.eviction` says, as Spark's symmetric hash join does. Each partition's
/// store is scanned in `parts` at once, and, when its stores may be read on several threads
/// (StateStore::ReadsConcurrently), its keys are planned in as many groups at once; then the
/// values and the counts stores of every partition change at once. With one store partition
/// evicting half its rows (q7's bids), scanning and planning on one core took as long as
/// changing both stores. The unmatched rows of a preserved side are appended to `unmatched`
/// (a list per partition and group, in order), and `removed` counts every row taken out.
arrow::Status RemoveExpiredRows(const RemovedSide& side, int64_t watermark_micros,
                                const std::vector<SideStores>& stores,
                                const std::vector<RemovalBuffers*>& buffers, int parts,
                                std::vector<EncodedRows>* unmatched, int64_t* removed);

}  // namespace sluice::physical
