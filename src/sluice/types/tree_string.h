// Spark's printSchema() text of a schema (StructType.treeString).
#pragma once

#include <limits>
#include <string>

#include <arrow/type_fwd.h>

namespace sluice::types {

/// Spark's StructType.treeString(max_depth), byte for byte: "root\n" then one line per field,
/// " |-- name: typeName (nullable = true)\n", nested struct fields, array elements
/// ("element: T (containsNull = ...)") and map keys and values ("key: T",
/// "value: T (valueContainsNull = ...)") indented by "    |" per level. Control characters in
/// names are escaped (\n, \t, ...). Levels deeper than `max_depth` are left out; a
/// non-positive `max_depth` means no limit.
std::string TreeString(const arrow::Schema& schema,
                       int max_depth = std::numeric_limits<int>::max());

}  // namespace sluice::types
