#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::expr {

/// A hash table from key tuples (one or more Arrow columns) to dense group ids 0, 1, 2, ... in
/// order of first appearance. Shared by hash aggregation, distinct, dropDuplicates, joins and
/// distinct aggregates.
///
/// Keys compare as Spark groups them: null is a key of its own (two nulls are the same key),
/// floating point -0.0 equals 0.0 and every NaN equals every other NaN. A single integral column
/// (8 to 64 bits, dates, timestamps), a single string or binary column, and up to six integral
/// or boolean values in columns and structs (a time window and an id) take specialized paths;
/// other keys are encoded into rows of bytes. Not thread-safe.
class KeyGrouper {
 public:
  virtual ~KeyGrouper() = default;

  /// A grouper for keys of `types` (at least one).
  static arrow::Result<std::unique_ptr<KeyGrouper>> Make(
      std::vector<std::shared_ptr<arrow::DataType>> types,
      arrow::MemoryPool* pool = arrow::default_memory_pool());

  /// Makes room for `groups` groups in all, so that a grouper that will hold about that many
  /// does not grow its table on the way there: each growth moves the slots into fresh memory,
  /// which the kernel must first zero, and copies the groups' keys.
  virtual void Reserve(int64_t groups) = 0;

  /// Sets `group_ids[i]` to the group of row i of `keys` (arrays of `num_rows` values), adding
  /// new groups for keys not seen before. `group_ids` is resized to num_rows.
  virtual arrow::Status Consume(const arrow::ArrayVector& keys, int64_t num_rows,
                                std::vector<uint32_t>* group_ids) = 0;

  /// Sets `group_ids[i]` to the group of row i, or -1 when the key is absent or (when
  /// `null_matches` is false) contains a null. Adds nothing.
  virtual arrow::Status Lookup(const arrow::ArrayVector& keys, int64_t num_rows,
                               bool null_matches, std::vector<int32_t>* group_ids) const = 0;

  /// The number of groups so far.
  virtual int64_t num_groups() const = 0;

  /// The key columns of every group, in group id order (the first row seen of each group,
  /// floating-point values in the one form Spark outputs: 0.0 for -0.0, one NaN).
  virtual arrow::Result<arrow::ArrayVector> GetUniques() const = 0;
};

/// True when `type` can be a grouping, join or distinct key (everything but maps, as in Spark).
bool IsGroupableType(const arrow::DataType& type);

}  // namespace sluice::expr
