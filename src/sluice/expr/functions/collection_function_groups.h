#pragma once

// The collection functions come in groups, each in its own file; RegisterCollectionFunctions
// calls them all. Also the small pieces the groups share.

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/datum.h>
#include <arrow/result.h>

namespace sluice::expr {

class FunctionRegistry;

/// array, struct, named_struct, map, create_map, map_from_arrays (collection_constructors.cc).
void RegisterCollectionConstructors(FunctionRegistry& registry);
/// array_distinct, array_sort, sort_array, array_join, array_max, array_min, array_position,
/// slice, flatten, arrays_zip (collection_array_functions.cc).
void RegisterArrayFunctions(FunctionRegistry& registry);

/// `datum` as an array of `num_rows` values (a scalar is repeated).
arrow::Result<std::shared_ptr<arrow::Array>> CollectionArgumentArray(const arrow::Datum& datum,
                                                                     int64_t num_rows,
                                                                     arrow::MemoryPool* pool);

/// For a list or map array: the row each value in [offset(0), offset(length)) belongs to.
std::vector<int64_t> ParentRows(const arrow::Array& list_or_map);

}  // namespace sluice::expr
