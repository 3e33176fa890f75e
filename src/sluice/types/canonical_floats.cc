#include "sluice/types/canonical_floats.h"

#include <cstring>

#include <arrow/array/array_base.h>
#include <arrow/array/data.h>
#include <arrow/buffer.h>
#include <arrow/type.h>

namespace sluice::types {

namespace {

/// `data`, a half float, float or double array of `Bits`, with its values canonical (those
/// under nulls too, which is harmless).
template <typename Bits>
arrow::Result<std::shared_ptr<arrow::ArrayData>> CanonicalValues(
    const std::shared_ptr<arrow::ArrayData>& data, arrow::MemoryPool* pool) {
  if (data->buffers.size() < 2 || data->buffers[1] == nullptr) return data;
  const int64_t n = data->offset + data->length;
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> values,
                        arrow::AllocateBuffer(n * static_cast<int64_t>(sizeof(Bits)), pool));
  const uint8_t* in = data->buffers[1]->data();
  uint8_t* out = values->mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    Bits bits;
    std::memcpy(&bits, in + i * sizeof(Bits), sizeof(Bits));
    bits = CanonicalFloatBits(bits);
    std::memcpy(out + i * sizeof(Bits), &bits, sizeof(Bits));
  }
  auto result = data->Copy();
  result->buffers[1] = std::move(values);
  return result;
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> CanonicalData(
    const std::shared_ptr<arrow::ArrayData>& data, arrow::MemoryPool* pool) {
  switch (data->type->id()) {
    case arrow::Type::HALF_FLOAT:
      return CanonicalValues<uint16_t>(data, pool);
    case arrow::Type::FLOAT:
      return CanonicalValues<uint32_t>(data, pool);
    case arrow::Type::DOUBLE:
      return CanonicalValues<uint64_t>(data, pool);
    default:
      break;
  }
  if (!HasFloatingPoint(*data->type)) return data;
  // Structs, lists and maps: their values are in their children.
  auto result = data->Copy();
  for (auto& child : result->child_data) {
    ARROW_ASSIGN_OR_RAISE(child, CanonicalData(child, pool));
  }
  return result;
}

}  // namespace

bool HasFloatingPoint(const arrow::DataType& type) {
  if (arrow::is_floating(type.id())) return true;
  for (const auto& field : type.fields()) {
    if (HasFloatingPoint(*field->type())) return true;
  }
  return false;
}

arrow::Result<std::shared_ptr<arrow::Array>> WithCanonicalFloats(
    const std::shared_ptr<arrow::Array>& array, arrow::MemoryPool* pool) {
  if (!HasFloatingPoint(*array->type())) return array;
  ARROW_ASSIGN_OR_RAISE(auto data, CanonicalData(array->data(), pool));
  return arrow::MakeArray(std::move(data));
}

}  // namespace sluice::types
