#include "sluice/physical/join_state_removal.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string_view>

#include <arrow/util/parallel.h>

#include "sluice/physical/join_row_removal.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

using plan::JoinStateEviction;

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

/// Reads the event time that column `column` (a timestamp, or a window when `is_window`)
/// of an encoded row of columns `types` holds, in place, skipping the columns before it
/// without decoding them (`seeker` finds it): into `time`, nullopt when null. False when
/// the bytes end before the time does.
bool EventTimeInPlace(const types::EncodedColumnSeeker& seeker, bool is_window,
                      std::string_view row, std::optional<int64_t>* time) {
  auto value = seeker.Find(row);
  if (!value) return false;
  *time = EventTimeMicrosOfKey(*value, is_window);
  return true;
}

/// The parts of one scan that its rows go to, one per group of keys. A key's hash, worked out
/// once here, places it in its group and numbers it in the plan (KeyIndex::InsertHashed).
class ScanOutputs {
 public:
  ScanOutputs(std::vector<ScannedPart>& scanned, int part, int parts)
      : groups_(static_cast<int>(scanned.size()) / parts) {
    for (int g = 0; g < groups_; ++g) {
      ScannedPart& out = scanned[static_cast<size_t>(g * parts + part)];
      Refill(out.keys);
      Refill(out.unmatched_rows);
      out.hashes.clear();
      out.numbers.clear();
      out.unmatched_of.clear();
      outs_.push_back(&out);
    }
  }
  /// Appends `key` to the part of its group, which it returns.
  ScannedPart& Append(std::string_view key) const {
    const uint64_t hash = state::ArenaHashTable::Hash(key);
    // The hash's high half: a key index places keys by the low bits.
    const auto group = static_cast<size_t>((hash >> 32) % static_cast<uint64_t>(groups_));
    ScannedPart& out = *outs_[group];
    out.keys.Append(key);
    out.hashes.push_back(hash);
    return out;
  }

 private:
  int groups_;
  std::vector<ScannedPart*> outs_;
};

/// Eviction by key: the keys whose time the watermark passed go with all their rows. Each
/// key's time is read in place.
arrow::Status ScanKeys(const RemovedSide& side, int64_t watermark_micros, const SideStores& stores,
                       int part, int parts, std::vector<ScannedPart>& scanned) {
  const ScanOutputs outputs(scanned, part, parts);
  bool malformed = false;
  const types::EncodedColumnSeeker seeker(*side.key_types, side.eviction.key_index);
  stores.counts->ForEachOfPart(part, parts, [&](std::string_view key, std::string_view count) {
    std::optional<int64_t> time;
    if (!EventTimeInPlace(seeker, side.eviction.key_is_window, key, &time)) {
      malformed = true;
      return;
    }
    if (!time || *time > watermark_micros) return;
    outputs.Append(key).numbers.push_back(ReadLong(count));
  });
  if (malformed) {
    return arrow::Status::Invalid("A key kept in the ", side.counts_store,
                                  " state of the join does not hold its event time where "
                                  "the query's join keys place it");
  }
  return arrow::Status::OK();
}

/// Eviction by value: every kept row's own time decides. A pass over the store reads each
/// row's time in place and notes the expired rows (key and index).
arrow::Status ScanRows(const RemovedSide& side, int64_t watermark_micros, const SideStores& stores,
                       int part, int parts, std::vector<ScannedPart>& scanned) {
  constexpr size_t kIndexBytes = 1 + sizeof(int64_t);
  const ScanOutputs outputs(scanned, part, parts);
  bool malformed = false;
  const types::EncodedColumnSeeker seeker(*side.row_types, side.eviction.value_column);
  stores.values->ForEachOfPart(
      part, parts, [&](std::string_view indexed_key, std::string_view value) {
        std::optional<int64_t> time;
        if (!EventTimeInPlace(seeker, side.eviction.value_is_window, RowOf(value), &time)) {
          malformed = true;
        }
        if (!time || *time > watermark_micros) return;
        const std::string_view key = indexed_key.substr(0, indexed_key.size() - kIndexBytes);
        ScannedPart& out = outputs.Append(key);
        out.numbers.push_back(ReadLong(indexed_key));
        if (side.preserved && !MatchedOf(value)) {
          out.unmatched_of.push_back(out.unmatched_rows.size());
          out.unmatched_rows.Append(RowOf(value));
        } else {
          out.unmatched_of.push_back(-1);
        }
      });
  if (malformed) {
    return arrow::Status::Invalid("A row kept in the ", side.values_store,
                                  " state of the join does not hold its event time where "
                                  "the query's schema places it");
  }
  return arrow::Status::OK();
}

/// Eviction by key: every row of each expired key goes; the rows are read only to pad the
/// unmatched ones of a preserved side.
arrow::Status PlanKeyRemoval(const RemovedSide& side, const SideStores& stores,
                             std::span<const ScannedPart> scanned, PlanBuffers& buffers,
                             EncodedRows* unmatched, int64_t* removed, StateRemoval* removal) {
  EncodedRows& indexed = Refill(buffers.removed_keys);
  for (const ScannedPart& part : scanned) {
    for (int64_t k = 0; k < part.keys.size(); ++k) {
      const std::string_view key = part.keys.row(k);
      removal->emptied_keys.push_back(key);
      const int64_t rows = part.numbers[static_cast<size_t>(k)];
      for (int64_t index = 0; index < rows; ++index) AppendIndexedKey(key, index, &indexed);
    }
  }
  if (removal->emptied_keys.empty()) return arrow::Status::OK();
  removal->removed_values = Views(indexed);
  if (side.preserved) {
    stores.values->GetMany(removal->removed_values, [&](size_t, std::string_view value) {
      if (!MatchedOf(value)) unmatched->Append(RowOf(value));
    });
  }
  *removed += indexed.size();
  return arrow::Status::OK();
}

/// Eviction by value: each hole a removal leaves is filled with the key's last row, as Spark
/// does; working that out needs only the keys' counts and which of their indexes expired, so
/// the only rows read again are those that move.
arrow::Status PlanRowRemoval(const RemovedSide& side, const SideStores& stores,
                             std::span<const ScannedPart> scanned, PlanBuffers& buffers,
                             EncodedRows* unmatched, int64_t* removed, StateRemoval* changes) {
  size_t num_expired = 0;
  for (const ScannedPart& part : scanned) num_expired += part.numbers.size();
  if (num_expired == 0) return arrow::Status::OK();
  // The expired rows of all parts in order: their keys numbered, their indexes, and the
  // unmatched rows of a preserved side.
  KeyIndex affected(num_expired);
  std::vector<int32_t> key_of;
  std::vector<int64_t> expired_index;
  std::vector<int64_t> unmatched_of;
  std::vector<std::string_view> unmatched_rows;
  key_of.reserve(num_expired);
  expired_index.reserve(num_expired);
  unmatched_of.reserve(num_expired);
  for (const ScannedPart& part : scanned) {
    const auto first_unmatched = static_cast<int64_t>(unmatched_rows.size());
    for (int64_t r = 0; r < part.keys.size(); ++r) {
      const auto at = static_cast<size_t>(r);
      key_of.push_back(affected.InsertHashed(part.keys.row(r), part.hashes[at]));
      const int64_t unmatched_row = part.unmatched_of[at];
      unmatched_of.push_back(unmatched_row < 0 ? -1 : first_unmatched + unmatched_row);
    }
    expired_index.insert(expired_index.end(), part.numbers.begin(), part.numbers.end());
    for (int64_t u = 0; u < part.unmatched_rows.size(); ++u) {
      unmatched_rows.push_back(part.unmatched_rows.row(u));
    }
  }
  // Grouped by key, in the order of the scan within a key: a counting sort of the keys'
  // numbers, the rows of key k at positions starts[k] to starts[k + 1].
  const size_t num_keys = affected.keys().size();
  const KeyGroups by_key = GroupByKey(key_of, num_keys);
  const std::vector<size_t>& starts = by_key.starts;
  std::vector<int64_t> grouped_index(num_expired), grouped_unmatched(num_expired);
  for (size_t at = 0; at < num_expired; ++at) {
    grouped_index[at] = expired_index[by_key.members[at]];
    grouped_unmatched[at] = unmatched_of[by_key.members[at]];
  }
  std::vector<int64_t> count_of(num_keys, 0);
  stores.counts->GetMany(affected.keys(), [&](size_t id, std::string_view count) {
    count_of[id] = ReadLong(count);
  });
  EncodedRows& moved_keys = Refill(buffers.moved_to);
  EncodedRows& moved_from = Refill(buffers.moved_from);
  EncodedRows& removed_keys = Refill(buffers.removed_keys);
  EncodedRows& new_counts = Refill(buffers.new_counts);
  KeyRowRemover remover;
  for (size_t id = 0; id < num_keys; ++id) {
    const std::string_view key = affected.keys()[id];
    const std::span<const int64_t> indexes(grouped_index.data() + starts[id],
                                           starts[id + 1] - starts[id]);
    for (int64_t index : indexes) {
      if (index < 0 || index >= count_of[id]) {
        return arrow::Status::Invalid("The ", side.values_store,
                                      " state of the join keeps a row at index ", index,
                                      " of a key whose count is ", count_of[id]);
      }
    }
    const KeyRowRemoval& removal = remover.Remove(count_of[id], indexes);
    for (size_t row : removal.removed_rows) {
      ++*removed;
      const int64_t unmatched_row = grouped_unmatched[starts[id] + row];
      if (unmatched_row >= 0) unmatched->Append(unmatched_rows[unmatched_row]);
    }
    for (const auto& move : removal.moves) {
      AppendIndexedKey(key, move.to, &moved_keys);
      AppendIndexedKey(key, move.from, &moved_from);
    }
    for (int64_t index : removal.dropped_indexes) AppendIndexedKey(key, index, &removed_keys);
    if (removal.kept == 0) {
      changes->emptied_keys.push_back(key);
    } else {
      changes->counted_keys.push_back(key);
      new_counts.Append(EncodeLong(removal.kept));
    }
  }
  changes->moved_to = Views(moved_keys);
  changes->moved_from = Views(moved_from);
  changes->removed_values = Views(removed_keys);
  changes->new_counts = Views(new_counts);
  return arrow::Status::OK();
}

/// The first step of a removal: finds the expired rows in part `part` of `parts` of the store
/// that tells (the counts by key, the values by row; ForEachOfPart), reading it only, into
/// `scanned[g * parts + part]` for the rows of each group g of keys. The parts of a store may
/// be scanned at once.
arrow::Status ScanForRemoval(const RemovedSide& side, int64_t watermark_micros,
                             const SideStores& stores, int part, int parts,
                             std::vector<ScannedPart>& scanned) {
  if (side.eviction.kind == JoinStateEviction::Kind::kByKey) {
    return ScanKeys(side, watermark_micros, stores, part, parts, scanned);
  }
  return ScanRows(side, watermark_micros, stores, part, parts, scanned);
}

/// Then works out how to take the rows of one group of keys that the parts of the scan found
/// (`scanned`, its parts in order) out of `stores`, reading them only: the unmatched ones of
/// a preserved side are appended to `unmatched`, and `removed` counts every row taken out.
/// The groups of a store partition may be planned at once, as each writes only its own
/// buffers and outputs, when its stores may be read at once.
arrow::Status PlanStateRemoval(const RemovedSide& side, const SideStores& stores,
                               std::span<const ScannedPart> scanned, PlanBuffers& buffers,
                               EncodedRows* unmatched, int64_t* removed,
                               StateRemoval* removal) {
  *removal = StateRemoval();
  if (side.eviction.kind == JoinStateEviction::Kind::kByKey) {
    return PlanKeyRemoval(side, stores, scanned, buffers, unmatched, removed, removal);
  }
  return PlanRowRemoval(side, stores, scanned, buffers, unmatched, removed, removal);
}

/// Makes `removal`'s changes to the side's values store: the rows that move are taken out,
/// put where they go, then the other rows given up are removed; the store ends as at the end
/// of Spark's sequence.
arrow::Status RemoveFromValues(const RemovedSide& side, state::StateStore& values,
                               PlanBuffers& buffers, const StateRemoval& removal) {
  // The moving rows, taken out where they were kept before anything else changes.
  EncodedRows& moved_values = Refill(buffers.moved_values);
  ARROW_RETURN_NOT_OK(values.TakeHeld(
      removal.moved_from, [&](size_t, std::string_view value) { moved_values.Append(value); }));
  if (static_cast<size_t>(moved_values.size()) != removal.moved_to.size()) {
    return arrow::Status::Invalid("The ", side.values_store,
                                  " state of the join lacks a row its counts promise");
  }
  ARROW_RETURN_NOT_OK(values.PutMany(removal.moved_to, Views(moved_values)));
  // The plan found these in the store: it need not look them up.
  return values.RemoveHeld(removal.removed_values);
}

/// Makes `removal`'s changes to the side's counts store.
arrow::Status RemoveFromCounts(state::StateStore& counts, const StateRemoval& removal) {
  // The plan found these in the store: it need not look them up.
  ARROW_RETURN_NOT_OK(counts.RemoveHeld(removal.emptied_keys));
  return counts.PutMany(removal.counted_keys, removal.new_counts);
}

}  // namespace

arrow::Status RemoveExpiredRows(const RemovedSide& side, int64_t watermark_micros,
                                const std::vector<SideStores>& stores,
                                const std::vector<RemovalBuffers*>& buffers, int parts,
                                std::vector<EncodedRows>* unmatched, int64_t* removed) {
  const int partitions = static_cast<int>(stores.size());
  parts = std::max(1, parts);
  const bool concurrent_reads =
      stores[0].counts->ReadsConcurrently() && stores[0].values->ReadsConcurrently();
  const int groups = concurrent_reads ? parts : 1;
  const int plans = partitions * groups;
  for (RemovalBuffers* partition : buffers) {
    partition->scanned.resize(static_cast<size_t>(groups * parts));
    partition->plans.resize(static_cast<size_t>(groups));
  }
  ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(partitions * parts, [&](int task) {
    const int p = task / parts;
    return ScanForRemoval(side, watermark_micros, stores[p], task % parts, parts,
                          buffers[p]->scanned);
  }));
  // Plan (p, g) at p * groups + g: its changes, its unmatched rows and its count of rows.
  unmatched->assign(static_cast<size_t>(plans), EncodedRows());
  std::vector<int64_t> removed_by(plans, 0);
  std::vector<StateRemoval> removals(plans);
  ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(plans, [&](int plan) {
    RemovalBuffers& partition = *buffers[plan / groups];
    const int g = plan % groups;
    const std::span<const ScannedPart> scanned(partition.scanned.data() + g * parts,
                                               static_cast<size_t>(parts));
    return PlanStateRemoval(side, stores[plan / groups], scanned,
                            partition.plans[static_cast<size_t>(g)], &(*unmatched)[plan],
                            &removed_by[plan], &removals[plan]);
  }));
  // Each store changes alone: the values and the counts stores of every partition at once
  // (q7's one partition spent half its time removing, on one core).
  ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(2 * partitions, [&](int task) {
    const int p = task / 2;
    for (int g = 0; g < groups; ++g) {
      const StateRemoval& removal = removals[p * groups + g];
      ARROW_RETURN_NOT_OK(task % 2 == 1
                              ? RemoveFromCounts(*stores[p].counts, removal)
                              : RemoveFromValues(side, *stores[p].values,
                                                 buffers[p]->plans[static_cast<size_t>(g)],
                                                 removal));
    }
    return arrow::Status::OK();
  }));
  for (int64_t count : removed_by) *removed += count;
  return arrow::Status::OK();
}

}  // namespace sluice::physical
