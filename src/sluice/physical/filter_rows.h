// Keeping the rows of a batch that a boolean mask selects.
//
// Arrow's Filter of a record batch turns the mask into row indices and gathers every column
// row by row. Rows kept by a filter often come in runs (the bids between Nexmark's persons
// and auctions, the rows of one key or one source partition), and a run is copied with one
// memcpy per column buffer. FilterRows copies runs when they are long enough to pay and
// gathers otherwise.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <arrow/array/data.h>
#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>

namespace sluice::physical {

/// Consecutive rows of a batch, [start, start + length).
struct RowRun {
  int64_t start = 0;
  int64_t length = 0;
};

/// The rows where `mask` (a boolean array) is true and not null, as maximal runs in order;
/// nothing if there are more than `max_runs` of them.
std::optional<std::vector<RowRun>> SelectedRuns(
    const arrow::ArrayData& mask, size_t max_runs = std::numeric_limits<size_t>::max());

/// The rows of `rows` listed by `runs` (in order, not overlapping), copied run by run for the
/// types stored in flat buffers (fixed width, boolean, binary and string, structs of them),
/// gathered by Arrow's Take for the others (lists, maps, dictionaries, views). The values of
/// binary and string rows are shared with `rows`, not copied, when the rows left out between
/// the runs hold none and the runs hold at least half of the values buffer.
arrow::Result<std::shared_ptr<arrow::ArrayData>> CopyRuns(const arrow::ArrayData& rows,
                                                          const std::vector<RowRun>& runs,
                                                          arrow::MemoryPool* pool);

/// The rows of `batch` where `mask` (a boolean array as long as the batch) is true; a null
/// in the mask drops its row, as WHERE does. The batch itself when every row is kept.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> FilterRows(
    const std::shared_ptr<arrow::RecordBatch>& batch, const arrow::Array& mask,
    arrow::MemoryPool* pool);

}  // namespace sluice::physical
