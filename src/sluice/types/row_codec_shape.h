// The shape of the types the row codec handles, shared by its encoder and decoder
// (row_codec.h is the public interface; nothing else includes this header).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types::row_codec_internal {

/// How a type is laid out in Arrow and in the encoded row; one encoder and decoder per shape.
enum class Shape {
  kNull, kBoolean, kFixedWidth, kBinary, kLargeBinary, kList, kLargeList, kFixedSizeList,
  kStruct, kMap
};

/// Which floating-point canonicalization a fixed-width value needs in a key.
enum class FloatKind { kNone, kHalf, kFloat, kDouble };

/// The shape of `type`, or nullopt when a state row cannot hold it. Cheap: for the paths that
/// run per row.
std::optional<Shape> FindShape(const arrow::DataType& type);

/// The shape of `type`, or UNSUPPORTED_ARROWTYPE naming it and `where` (the column) when a
/// state row cannot hold it.
arrow::Result<Shape> ShapeOf(const arrow::DataType& type, const std::string& where);

/// The canonicalization a key value of `type` needs (kNone for every non-floating type).
FloatKind FloatKindOf(const arrow::DataType& type);

/// How errors name top-level column `column`: "column 1 (int64)".
std::string ColumnName(size_t column, const arrow::DataType& type);

}  // namespace sluice::types::row_codec_internal
