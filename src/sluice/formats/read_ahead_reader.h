// Reads ahead: while the query works on a batch, the next ones are decoded on Arrow's
// IO thread pool. A file scan's decoding (Parquet pages, JSON and CSV parsing) then overlaps
// the rest of the query instead of adding to it, which puts a second core to use in a query
// that is otherwise one pipeline on one thread.
#pragma once

#include <memory>

#include <arrow/record_batch.h>

namespace sluice::formats {

/// Wraps `source`, which is then read by one pool thread at a time and never by the caller:
/// a reader that is not thread-safe but may be moved between threads (every file reader) is
/// fine; one tied to its thread (one that calls into Python) is not. Batches and errors come
/// out in the source's order; after an error or the end no further read starts. Destroying
/// or closing the wrapper waits for the read under way.
std::shared_ptr<arrow::RecordBatchReader> ReadAhead(
    std::shared_ptr<arrow::RecordBatchReader> source);

}  // namespace sluice::formats
