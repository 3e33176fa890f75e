#include "sluice/expr/value_ordering.h"

#include <cmath>
#include <string_view>

#include <arrow/util/decimal.h>

namespace sluice::expr {

namespace {

template <typename T>
int Order(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename T>
int OrderFloating(T a, T b) {
  const bool a_nan = std::isnan(a);
  const bool b_nan = std::isnan(b);
  if (a_nan || b_nan) return Order(a_nan, b_nan);
  return Order(a, b);  // -0.0 == 0.0
}

template <typename ArrayType>
int OrderPrimitive(const arrow::Array& a, int64_t i, const arrow::Array& b, int64_t j) {
  return Order(static_cast<const ArrayType&>(a).Value(i),
               static_cast<const ArrayType&>(b).Value(j));
}

// Two possibly null values: a null one first.
int CompareNullable(const arrow::Array& a, int64_t i, const arrow::Array& b, int64_t j) {
  const bool a_null = a.IsNull(i);
  const bool b_null = b.IsNull(j);
  if (a_null || b_null) return Order(!a_null, !b_null);
  return CompareValues(a, i, b, j);
}

template <typename ListType>
int OrderLists(const arrow::Array& a, int64_t i, const arrow::Array& b, int64_t j) {
  const auto& left = static_cast<const ListType&>(a);
  const auto& right = static_cast<const ListType&>(b);
  const int64_t left_start = left.value_offset(i);
  const int64_t right_start = right.value_offset(j);
  const int64_t left_length = left.value_length(i);
  const int64_t right_length = right.value_length(j);
  for (int64_t k = 0; k < left_length && k < right_length; ++k) {
    const int order = CompareNullable(*left.values(), left_start + k, *right.values(),
                                      right_start + k);
    if (order != 0) return order;
  }
  return Order(left_length, right_length);
}

}  // namespace

bool IsOrderable(const arrow::DataType& type) {
  if (type.id() == arrow::Type::MAP) return false;
  for (const auto& field : type.fields()) {
    if (!IsOrderable(*field->type())) return false;
  }
  return true;
}

int CompareValues(const arrow::Array& a, int64_t i, const arrow::Array& b, int64_t j) {
  switch (a.type_id()) {
    case arrow::Type::NA: return 0;
    case arrow::Type::BOOL: return OrderPrimitive<arrow::BooleanArray>(a, i, b, j);
    case arrow::Type::INT8: return OrderPrimitive<arrow::Int8Array>(a, i, b, j);
    case arrow::Type::INT16: return OrderPrimitive<arrow::Int16Array>(a, i, b, j);
    case arrow::Type::INT32:
    case arrow::Type::DATE32:
    case arrow::Type::INTERVAL_MONTHS:
      return Order(a.data()->GetValues<int32_t>(1)[i], b.data()->GetValues<int32_t>(1)[j]);
    case arrow::Type::INT64:
    case arrow::Type::TIMESTAMP:
    case arrow::Type::DURATION:
      return Order(a.data()->GetValues<int64_t>(1)[i], b.data()->GetValues<int64_t>(1)[j]);
    case arrow::Type::FLOAT:
      return OrderFloating(static_cast<const arrow::FloatArray&>(a).Value(i),
                           static_cast<const arrow::FloatArray&>(b).Value(j));
    case arrow::Type::DOUBLE:
      return OrderFloating(static_cast<const arrow::DoubleArray&>(a).Value(i),
                           static_cast<const arrow::DoubleArray&>(b).Value(j));
    case arrow::Type::DECIMAL128:
      return Order(arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(a).GetValue(i)),
                   arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(b).GetValue(j)));
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      return Order(static_cast<const arrow::BinaryArray&>(a).GetView(i),
                   static_cast<const arrow::BinaryArray&>(b).GetView(j));
    case arrow::Type::LARGE_STRING:
    case arrow::Type::LARGE_BINARY:
      return Order(static_cast<const arrow::LargeBinaryArray&>(a).GetView(i),
                   static_cast<const arrow::LargeBinaryArray&>(b).GetView(j));
    case arrow::Type::FIXED_SIZE_BINARY:
      return Order(static_cast<const arrow::FixedSizeBinaryArray&>(a).GetView(i),
                   static_cast<const arrow::FixedSizeBinaryArray&>(b).GetView(j));
    case arrow::Type::STRUCT: {
      const auto& left = static_cast<const arrow::StructArray&>(a);
      const auto& right = static_cast<const arrow::StructArray&>(b);
      // A struct array's fields share its offset: row i of the struct is row i of each field.
      for (int f = 0; f < left.num_fields(); ++f) {
        const int order = CompareNullable(*left.field(f), i, *right.field(f), j);
        if (order != 0) return order;
      }
      return 0;
    }
    case arrow::Type::LIST: return OrderLists<arrow::ListArray>(a, i, b, j);
    case arrow::Type::LARGE_LIST: return OrderLists<arrow::LargeListArray>(a, i, b, j);
    default: return 0;  // not orderable: refused when the call is resolved (IsOrderable)
  }
}

}  // namespace sluice::expr
