// Reading Parquet's dictionary-encoded string columns through their dictionaries.
//
// A string column chunk whose pages are all dictionary-encoded holds each distinct value once
// and an index per row. Arrow's reader, asked for plain strings, looks each index up and
// appends the value to a builder one at a time: for Nexmark's bid.url (10,000 distinct urls)
// that was 35 ms a file of a million rows, where reading the indices with the dictionary took
// 7. Such columns are read as dictionary arrays and expanded here by TakeStrings
// (common/take_strings.h), which writes each value once into a buffer of the right size.
#pragma once

#include <memory>
#include <vector>

#include <arrow/array/data.h>
#include <arrow/memory_pool.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace parquet {
class FileMetaData;
}  // namespace parquet

namespace sluice::formats {

/// The leaf columns of the file (by index) worth reading through their dictionaries: strings
/// and binaries outside lists and maps whose data pages are dictionary-encoded in every row
/// group, as the file's page encoding statistics say (none when a file has no statistics). A
/// chunk that fell back to plain pages is left out: Arrow would build a dictionary of its
/// values, which costs more than reading them.
std::vector<int> DictionaryEncodedStringLeaves(const parquet::FileMetaData& metadata);

/// `type` with each dictionary type (at any depth within structs) replaced by its value type.
std::shared_ptr<arrow::DataType> WithoutDictionaries(const std::shared_ptr<arrow::DataType>& type);

/// `array` with each dictionary array of int32 indices and string or binary values (at any
/// depth within structs) replaced by the values it stands for; fails, naming the index, on an
/// index outside its dictionary.
arrow::Result<std::shared_ptr<arrow::ArrayData>> ExpandDictionaries(
    const std::shared_ptr<arrow::ArrayData>& array, arrow::MemoryPool* pool);

/// ExpandDictionaries applied to each column of `batch`, which takes `schema` (the batch's
/// schema WithoutDictionaries).
arrow::Result<std::shared_ptr<arrow::RecordBatch>> ExpandDictionaries(
    const arrow::RecordBatch& batch, const std::shared_ptr<arrow::Schema>& schema,
    arrow::MemoryPool* pool);

}  // namespace sluice::formats
