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

}  // namespace

ColumnStatistics::ColumnStatistics(std::shared_ptr<arrow::DataType> type)
    : type_(std::move(type)), keeps_order_(KeepsOrder(*type_)) {}

arrow::Status ColumnStatistics::Update(const arrow::Array& values) {
  null_count_ += values.null_count();
  if (saw_nan_ || !arrow::is_floating(type_->id()) || values.null_count() == values.length()) {
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto nan, arrow::compute::CallFunction("is_nan", {values.data()}));
  ARROW_ASSIGN_OR_RAISE(auto any, arrow::compute::Any(nan));
  const auto& found = static_cast<const arrow::BooleanScalar&>(*any.scalar());
  saw_nan_ = found.is_valid && found.value;
  return arrow::Status::OK();
}

void ColumnStatistics::SetBounds(std::shared_ptr<arrow::Scalar> min,
                                 std::shared_ptr<arrow::Scalar> max) {
  if (!keeps_order_ || saw_nan_ || min == nullptr || max == nullptr || !min->is_valid ||
      !max->is_valid) {
    return;
  }
  min_ = std::move(min);
  max_ = std::move(max);
}

}  // namespace sluice::formats
