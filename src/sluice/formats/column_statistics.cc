#include "sluice/formats/column_statistics.h"

#include <arrow/array.h>
#include <arrow/compute/api_aggregate.h>
#include <arrow/compute/api_scalar.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

namespace sluice::formats {

namespace {

bool KeepsOrder(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         arrow::is_decimal(type.id()) || type.id() == arrow::Type::DATE32 ||
         type.id() == arrow::Type::TIMESTAMP || type.id() == arrow::Type::STRING ||
         type.id() == arrow::Type::LARGE_STRING;
}

/// True when `a` orders before `b` (both non-null, of one type).
arrow::Result<bool> Less(const std::shared_ptr<arrow::Scalar>& a,
                         const std::shared_ptr<arrow::Scalar>& b) {
  ARROW_ASSIGN_OR_RAISE(auto result, arrow::compute::CallFunction("less", {a, b}));
  return static_cast<const arrow::BooleanScalar&>(*result.scalar()).value;
}

}  // namespace

ColumnStatistics::ColumnStatistics(std::shared_ptr<arrow::DataType> type)
    : type_(std::move(type)), keeps_order_(KeepsOrder(*type_)) {}

arrow::Status ColumnStatistics::Update(const arrow::Array& values) {
  null_count_ += values.null_count();
  if (!keeps_order_ || saw_nan_ || values.null_count() == values.length()) {
    return arrow::Status::OK();
  }
  if (arrow::is_floating(type_->id())) {
    ARROW_ASSIGN_OR_RAISE(auto nan, arrow::compute::CallFunction("is_nan", {values.data()}));
    ARROW_ASSIGN_OR_RAISE(auto any, arrow::compute::Any(nan));
    const auto& found = static_cast<const arrow::BooleanScalar&>(*any.scalar());
    if (found.is_valid && found.value) {
      saw_nan_ = true;
      min_ = max_ = nullptr;
      return arrow::Status::OK();
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto extremes, arrow::compute::MinMax(values.data()));
  const auto& pair = static_cast<const arrow::StructScalar&>(*extremes.scalar());
  const auto& low = pair.value[0];
  const auto& high = pair.value[1];
  if (!low->is_valid) return arrow::Status::OK();
  if (min_ == nullptr) {
    min_ = low;
    max_ = high;
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(bool lower, Less(low, min_));
  if (lower) min_ = low;
  ARROW_ASSIGN_OR_RAISE(bool higher, Less(max_, high));
  if (higher) max_ = high;
  return arrow::Status::OK();
}

}  // namespace sluice::formats
