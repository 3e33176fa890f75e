// A Parquet file's row groups read as batches through ParquetColumnDecoder, the leaves asked
// for assembled into their columns and structs, when the decoder reads every one of them.
#pragma once

#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

namespace parquet::arrow {
class FileReader;
}  // namespace parquet::arrow

namespace sluice::formats {

/// Whether ParquetColumnDecoder reads each of `leaves` (column indices) in every row group of
/// `file`, and they lie in structs only: no lists or maps.
bool DecodesLeaves(const parquet::arrow::FileReader& file, const std::vector<int>& leaves);

/// The batches of at most `batch_rows` rows of the file's row groups in turn (none spanning two),
/// with the columns that hold `leaves`, as Arrow's reader gives them without dictionaries.
/// Requires DecodesLeaves.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> DecodeRowGroups(
    std::unique_ptr<parquet::arrow::FileReader> file, const std::vector<int>& leaves,
    int64_t batch_rows);

}  // namespace sluice::formats
