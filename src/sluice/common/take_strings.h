// Gathering string values by index, in two passes: the bytes of the rows are counted first,
// then each value is written once into a buffer of that size. Arrow's Take appends each
// value to a builder that grows as it goes (checking its room every value, and copying its
// bytes again at each doubling); a gather of short strings from a small table of distinct
// values (a Parquet dictionary, a memo's results) spent most of its time there.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include <arrow/array/data.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice {

/// Row i of the result is values[indices[i]] (`values` a string or binary array), for `rows`
/// rows; null where the row is null in `row_validity` (a bitmap read from bit
/// `row_validity_offset`; nullptr when no row is) or where the value is null. Fails, naming
/// the index, on an index of a valid row outside `values`.
arrow::Result<std::shared_ptr<arrow::ArrayData>> TakeStrings(
    const arrow::ArrayData& values, const int32_t* indices, int64_t rows,
    const uint8_t* row_validity, int64_t row_validity_offset, arrow::MemoryPool* pool);
/// The same for unsigned indices, every row valid.
arrow::Result<std::shared_ptr<arrow::ArrayData>> TakeStrings(const arrow::ArrayData& values,
                                                             const uint32_t* indices,
                                                             int64_t rows,
                                                             arrow::MemoryPool* pool);

/// Row i of the result is column[indices[i]] (each index within `column`): string and binary
/// columns by TakeStrings, structs field by field, numbers, dates, times and decimals a copy
/// of their width a row, any other type by Arrow's Take.
arrow::Result<std::shared_ptr<arrow::Array>> TakeColumn(const arrow::Array& column,
                                                        std::span<const uint32_t> indices,
                                                        arrow::MemoryPool* pool);

}  // namespace sluice
