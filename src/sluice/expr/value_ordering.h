#pragma once

// Spark's ordering of values of any orderable type, one pair of values at a time: what min and
// max of a struct or an array compare by. Atomic types order as Spark's comparison operators
// do (NaN above every other floating value, -0.0 equal to 0.0, strings by their bytes); structs
// compare field by field and arrays element by element, then by length, a null field or
// element below any value (Spark's interpreted ordering, ascending with nulls first).

#include <cstdint>

#include <arrow/array.h>
#include <arrow/type.h>

namespace sluice::expr {

/// Whether values of `type` have an order (every type but maps, and structs or arrays holding
/// maps).
bool IsOrderable(const arrow::DataType& type);

/// The order of a[i] and b[j], both not null, of one orderable type: negative when a[i] comes
/// first, zero when they are equal, positive when b[j] does.
int CompareValues(const arrow::Array& a, int64_t i, const arrow::Array& b, int64_t j);

}  // namespace sluice::expr
