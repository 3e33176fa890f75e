#include "sluice/types/row_codec_shape.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"

namespace sluice::types::row_codec_internal {
namespace {

arrow::Status Unsupported(const arrow::DataType& type, const std::string& where) {
  return SparkError("UNSUPPORTED_ARROWTYPE",
                    "Unsupported arrow type " + type.ToString() +
                        ". State rows cannot hold unions, dictionaries, extension types, "
                        "views or run-end encoded arrays: " + where + " has it.");
}

}  // namespace

std::optional<Shape> FindShape(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::NA: return Shape::kNull;
    case arrow::Type::BOOL: return Shape::kBoolean;
    case arrow::Type::UINT8: case arrow::Type::INT8: case arrow::Type::UINT16:
    case arrow::Type::INT16: case arrow::Type::UINT32: case arrow::Type::INT32:
    case arrow::Type::UINT64: case arrow::Type::INT64: case arrow::Type::HALF_FLOAT:
    case arrow::Type::FLOAT: case arrow::Type::DOUBLE: case arrow::Type::DATE32:
    case arrow::Type::DATE64: case arrow::Type::TIMESTAMP: case arrow::Type::TIME32:
    case arrow::Type::TIME64: case arrow::Type::DURATION: case arrow::Type::INTERVAL_MONTHS:
    case arrow::Type::INTERVAL_DAY_TIME: case arrow::Type::INTERVAL_MONTH_DAY_NANO:
    case arrow::Type::DECIMAL32: case arrow::Type::DECIMAL64: case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256: case arrow::Type::FIXED_SIZE_BINARY:
      return Shape::kFixedWidth;
    case arrow::Type::STRING: case arrow::Type::BINARY: return Shape::kBinary;
    case arrow::Type::LARGE_STRING: case arrow::Type::LARGE_BINARY: return Shape::kLargeBinary;
    case arrow::Type::LIST: return Shape::kList;
    case arrow::Type::LARGE_LIST: return Shape::kLargeList;
    case arrow::Type::FIXED_SIZE_LIST: return Shape::kFixedSizeList;
    case arrow::Type::STRUCT: return Shape::kStruct;
    case arrow::Type::MAP: return Shape::kMap;
    default: return std::nullopt;
  }
}

arrow::Result<Shape> ShapeOf(const arrow::DataType& type, const std::string& where) {
  auto shape = FindShape(type);
  if (!shape) return Unsupported(type, where);
  return *shape;
}

FloatKind FloatKindOf(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::HALF_FLOAT: return FloatKind::kHalf;
    case arrow::Type::FLOAT: return FloatKind::kFloat;
    case arrow::Type::DOUBLE: return FloatKind::kDouble;
    default: return FloatKind::kNone;
  }
}

std::string ColumnName(size_t column, const arrow::DataType& type) {
  return "column " + std::to_string(column) + " (" + type.ToString() + ")";
}

}  // namespace sluice::types::row_codec_internal
