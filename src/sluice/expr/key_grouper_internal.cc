#include "sluice/expr/key_grouper_internal.h"

#include <cstring>

#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>

#include "sluice/types/canonical_floats.h"

namespace sluice::expr::key_grouper_internal {

bool IsIntegralKey(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::UINT8:
    case arrow::Type::UINT16:
    case arrow::Type::UINT32:
    case arrow::Type::UINT64:
    case arrow::Type::DATE32:
    case arrow::Type::DATE64:
    case arrow::Type::TIMESTAMP:
    case arrow::Type::TIME32:
    case arrow::Type::TIME64:
    case arrow::Type::DURATION:
      return true;
    default:
      return false;
  }
}

void ReadIntegral(const arrow::ArrayData& data, int64_t begin, int64_t n, int64_t* out) {
  const int width = data.type->byte_width();
  const uint8_t* base = data.buffers[1]->data();
  const int64_t offset = data.offset + begin;
  const bool is_signed = arrow::is_signed_integer(data.type->id()) ||
                         !arrow::is_unsigned_integer(data.type->id());
  switch (width) {
    case 1:
      for (int64_t i = 0; i < n; ++i) {
        out[i] = is_signed ? reinterpret_cast<const int8_t*>(base)[offset + i]
                           : reinterpret_cast<const uint8_t*>(base)[offset + i];
      }
      break;
    case 2:
      for (int64_t i = 0; i < n; ++i) {
        out[i] = is_signed ? reinterpret_cast<const int16_t*>(base)[offset + i]
                           : reinterpret_cast<const uint16_t*>(base)[offset + i];
      }
      break;
    case 4:
      for (int64_t i = 0; i < n; ++i) {
        out[i] = is_signed ? reinterpret_cast<const int32_t*>(base)[offset + i]
                           : reinterpret_cast<const uint32_t*>(base)[offset + i];
      }
      break;
    default:
      std::memcpy(out, reinterpret_cast<const int64_t*>(base) + offset, n * sizeof(int64_t));
      break;
  }
}

arrow::Status UniqueRows::Append(const arrow::ArrayVector& keys, int64_t begin,
                                const std::vector<int64_t>& rows) {
  if (rows.empty()) return arrow::Status::OK();
  arrow::Int64Builder builder(pool_);
  ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(rows.size())));
  for (int64_t row : rows) builder.UnsafeAppend(begin + row);
  ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
  for (size_t c = 0; c < keys.size(); ++c) {
    ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(*keys[c], *indices));
    // A group's key is output in the one form grouping keeps, not its first row's (-0.0).
    ARROW_ASSIGN_OR_RAISE(taken, types::WithCanonicalFloats(taken, pool_));
    chunks_[c].push_back(std::move(taken));
  }
  return arrow::Status::OK();
}

arrow::Result<arrow::ArrayVector> UniqueRows::Get() const {
  arrow::ArrayVector out;
  for (size_t c = 0; c < types_.size(); ++c) {
    if (chunks_[c].empty()) {
      ARROW_ASSIGN_OR_RAISE(auto empty, arrow::MakeEmptyArray(types_[c], pool_));
      out.push_back(std::move(empty));
    } else if (chunks_[c].size() == 1) {
      out.push_back(chunks_[c][0]);
    } else {
      ARROW_ASSIGN_OR_RAISE(auto joined, arrow::Concatenate(chunks_[c], pool_));
      out.push_back(std::move(joined));
    }
  }
  return out;
}

}  // namespace sluice::expr::key_grouper_internal
