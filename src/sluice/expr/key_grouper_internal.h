// What the key groupers (key_grouper.cc, word_key_grouper.cc) share.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/key_grouper.h"

namespace sluice::expr::key_grouper_internal {

// Rows are hashed and inserted in slices of this many rows, so a table is grown once per
// slice and never while a slice's probes are in flight.
constexpr int64_t kSliceRows = 1 << 16;
// How many rows ahead of the probe the table slot is prefetched.
constexpr int64_t kPrefetchDistance = 16;

/// An integer of 8 to 64 bits, or a date, time, timestamp or duration: a key whose value is
/// its integer.
bool IsIntegralKey(const arrow::DataType& type);

/// Reads rows [begin, begin + n) of an integral column as int64 values (garbage where null).
void ReadIntegral(const arrow::ArrayData& data, int64_t begin, int64_t n, int64_t* out);

/// Keeps the first row of every group as Arrow arrays, appended one slice at a time, with its
/// floating-point values in the one form grouping keeps (canonical_floats.h), as Spark outputs
/// them.
class UniqueRows {
 public:
  UniqueRows(std::vector<std::shared_ptr<arrow::DataType>> types, arrow::MemoryPool* pool)
      : types_(std::move(types)), pool_(pool), chunks_(types_.size()) {}

  /// Appends rows `begin + rows[i]` of `keys`.
  arrow::Status Append(const arrow::ArrayVector& keys, int64_t begin,
                       const std::vector<int64_t>& rows);
  arrow::Result<arrow::ArrayVector> Get() const;

 private:
  std::vector<std::shared_ptr<arrow::DataType>> types_;
  arrow::MemoryPool* pool_;
  std::vector<arrow::ArrayVector> chunks_;
};

/// A grouper for keys of integral and boolean columns and structs of them that take a few
/// words (word_key_grouper.cc), or null when `types` are not such keys.
std::unique_ptr<KeyGrouper> MakeWordKeyGrouper(
    const std::vector<std::shared_ptr<arrow::DataType>>& types, arrow::MemoryPool* pool);

}  // namespace sluice::expr::key_grouper_internal
