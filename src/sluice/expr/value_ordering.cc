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

}  // namespace

bool IsOrderable(const arrow::DataType& type) {
  if (type.id() == arrow::Type::MAP) return false;
  for (const auto& field : type.fields()) {
    if (!IsOrderable(*field->type())) return false;
  }
  return true;
}

ValueOrdering::ValueOrdering(const arrow::Array& a, const arrow::Array& b) : a_(&a), b_(&b) {
  switch (a.type_id()) {
    case arrow::Type::STRUCT: {
      // StructArray::field gives each field with the struct's offset: row i of the struct is
      // row i of each field.
      const auto& left = static_cast<const arrow::StructArray&>(a);
      const auto& right = static_cast<const arrow::StructArray&>(b);
      for (int f = 0; f < left.num_fields(); ++f) {
        a_children_.push_back(left.field(f));
        b_children_.push_back(right.field(f));
      }
      break;
    }
    case arrow::Type::LIST:
      a_children_.push_back(static_cast<const arrow::ListArray&>(a).values());
      b_children_.push_back(static_cast<const arrow::ListArray&>(b).values());
      break;
    case arrow::Type::LARGE_LIST:
      a_children_.push_back(static_cast<const arrow::LargeListArray&>(a).values());
      b_children_.push_back(static_cast<const arrow::LargeListArray&>(b).values());
      break;
    default: break;
  }
  children_.reserve(a_children_.size());
  for (size_t c = 0; c < a_children_.size(); ++c) {
    children_.emplace_back(*a_children_[c], *b_children_[c]);
  }
}

int ValueOrdering::CompareNullable(int64_t i, int64_t j) const {
  const bool a_null = a_->IsNull(i);
  const bool b_null = b_->IsNull(j);
  if (a_null || b_null) return Order(!a_null, !b_null);
  return Compare(i, j);
}

template <typename ListType>
int ValueOrdering::CompareLists(int64_t i, int64_t j) const {
  const auto& left = static_cast<const ListType&>(*a_);
  const auto& right = static_cast<const ListType&>(*b_);
  const int64_t left_start = left.value_offset(i);
  const int64_t right_start = right.value_offset(j);
  const int64_t left_length = left.value_length(i);
  const int64_t right_length = right.value_length(j);
  const ValueOrdering& elements = children_[0];
  for (int64_t k = 0; k < left_length && k < right_length; ++k) {
    const int order = elements.CompareNullable(left_start + k, right_start + k);
    if (order != 0) return order;
  }
  return Order(left_length, right_length);
}

int ValueOrdering::Compare(int64_t i, int64_t j) const {
  const arrow::Array& a = *a_;
  const arrow::Array& b = *b_;
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
    case arrow::Type::STRUCT:
      for (const ValueOrdering& field : children_) {
        const int order = field.CompareNullable(i, j);
        if (order != 0) return order;
      }
      return 0;
    case arrow::Type::LIST: return CompareLists<arrow::ListArray>(i, j);
    case arrow::Type::LARGE_LIST: return CompareLists<arrow::LargeListArray>(i, j);
    default: return 0;  // not orderable: refused when the call is resolved (IsOrderable)
  }
}

}  // namespace sluice::expr
