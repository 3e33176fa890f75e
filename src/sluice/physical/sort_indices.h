#pragma once

#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

namespace sluice::physical {

/// One evaluated sort key.
struct SortColumn {
  std::shared_ptr<arrow::Array> values;
  bool ascending = true;
  bool nulls_first = true;
};

/// The row order that sorts `keys` (all of `num_rows` rows) stably, with Spark's ordering: NaN
/// above every other number, strings by UTF-8 bytes, nulls where each key says. Shared by
/// ORDER BY and window functions.
arrow::Result<std::shared_ptr<arrow::UInt64Array>> SortIndices(const std::vector<SortColumn>& keys,
                                                               int64_t num_rows,
                                                               arrow::MemoryPool* pool);

}  // namespace sluice::physical
