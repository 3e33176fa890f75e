// How a Window operator computes its functions over input already sorted by partition and
// order keys: the partitions and peer groups of the sorted rows, each row's frame, and one
// column of results per function.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/eval_context.h"
#include "sluice/plan/window.h"

namespace sluice::physical {

/// The partitions and peer groups (rows equal on every order key) of rows sorted by partition
/// and order keys: each is a run of consecutive rows.
struct WindowLayout {
  int64_t num_rows = 0;
  /// Per row: the first row of its partition and one past its last.
  std::vector<int64_t> partition_begin;
  std::vector<int64_t> partition_end;
  /// Per row: the first row of its peer group and one past its last.
  std::vector<int64_t> peer_begin;
  std::vector<int64_t> peer_end;
  /// The single order key's sorted values (RANGE frames with value offsets), or null.
  std::shared_ptr<arrow::Array> order_values;
  bool order_ascending = true;
  bool order_nulls_first = true;
};

/// The values of `function` for every row of `sorted` (rows sorted as `layout` describes).
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateWindowFunction(
    const plan::WindowFunction& function, const arrow::RecordBatch& sorted,
    const WindowLayout& layout, const expr::EvalContext& context);

}  // namespace sluice::physical
