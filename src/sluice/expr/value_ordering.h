#pragma once

// Spark's ordering of values of any orderable type, one pair of values at a time: what min and
// max of a struct or an array compare by. Atomic types order as Spark's comparison operators
// do (NaN above every other floating value, -0.0 equal to 0.0, strings by their bytes); structs
// compare field by field and arrays element by element, then by length, a null field or
// element below any value (Spark's interpreted ordering, ascending with nulls first).

#include <cstdint>
#include <vector>

#include <arrow/array.h>
#include <arrow/type.h>

namespace sluice::expr {

/// Whether values of `type` have an order (every type but maps, and structs or arrays holding
/// maps).
bool IsOrderable(const arrow::DataType& type);

/// The order of the values of two arrays of one orderable type. A struct's fields and an
/// array's elements are looked up once, when the ordering is made, not at each comparison:
/// StructArray::field takes a lock, which cost more than the comparison it served. The
/// ordering refers to `a` and `b`, which must outlive it.
class ValueOrdering {
 public:
  ValueOrdering(const arrow::Array& a, const arrow::Array& b);

  /// The order of a[i] and b[j], both not null: negative when a[i] comes first, zero when
  /// they are equal, positive when b[j] does.
  int Compare(int64_t i, int64_t j) const;

 private:
  /// As Compare, where either value may be null (a null one comes first).
  int CompareNullable(int64_t i, int64_t j) const;
  template <typename ListType>
  int CompareLists(int64_t i, int64_t j) const;

  const arrow::Array* a_;
  const arrow::Array* b_;
  /// A struct's fields (as `a` and `b` hold them), or an array's elements.
  arrow::ArrayVector a_children_;
  arrow::ArrayVector b_children_;
  std::vector<ValueOrdering> children_;
};

}  // namespace sluice::expr
