#pragma once

#include <string>
#include <vector>

#include <arrow/record_batch.h>

namespace sluice::formats {

/// The top-level columns of `sample` (a file's first batch) whose values are too distinct for
/// Parquet's dictionary encoding to pay: a dictionary of nearly every value plus an index per
/// row is larger and slower to write than the plain values. parquet-mr (Spark's writer) falls
/// back to plain encoding for such columns after their first page; Arrow's writer keeps the
/// dictionary until it outgrows its page limit, so the choice is made up front from the sample.
std::vector<std::string> ColumnsWithoutDictionary(const arrow::RecordBatch& sample);

}  // namespace sluice::formats
