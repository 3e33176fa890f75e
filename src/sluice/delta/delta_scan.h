// Reading a Delta table's data files: the rows of chosen files of a snapshot, in the table's
// column order, with each file's partition values. The scan of batch reads, of the streaming
// source's batches and of MERGE's target files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/delta/delta_log.h"
#include "sluice/formats/file_format.h"

namespace sluice::delta {

/// The rows of `files` of the table at `table_path` whose state is `snapshot`, in the table's
/// column order, read with the Parquet reader `parquet`. A partition value that does not
/// parse as its column's type fails naming the file (DELTA_LOG_FILE_CORRUPT); a data file
/// outside the local file system fails naming it. A data file that is gone or cannot be read
/// fails naming it (FAILED_READ_FILE), unless `context` says to ignore such files.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ReadDeltaFiles(
    const std::string& table_path, const Snapshot& snapshot, const std::vector<AddFile>& files,
    std::shared_ptr<const formats::FormatReader> parquet, const formats::FormatContext& context);

}  // namespace sluice::delta
