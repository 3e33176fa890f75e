// Arrays of 64-bit integers (row indices, times) made from the vectors operators fill.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array/data.h>
#include <arrow/array/util.h>
#include <arrow/buffer.h>
#include <arrow/type.h>

namespace sluice::physical {

/// An array of `type` (int64, or another type stored as 64-bit integers: a timestamp) without
/// nulls, whose buffer takes over `values` rather than copying them.
inline std::shared_ptr<arrow::Array> Int64ArrayOf(
    std::vector<int64_t> values, const std::shared_ptr<arrow::DataType>& type = arrow::int64()) {
  const auto length = static_cast<int64_t>(values.size());
  return arrow::MakeArray(arrow::ArrayData::Make(
      type, length, {nullptr, arrow::Buffer::FromVector(std::move(values))}, 0));
}

}  // namespace sluice::physical
