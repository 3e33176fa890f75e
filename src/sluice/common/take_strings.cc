#include "sluice/common/take_strings.h"

#include <cstring>
#include <limits>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

namespace sluice {

namespace {

constexpr size_t kChunk = 16;
/// Longer values are copied by memcpy, whose wider moves copy a url (60-90 bytes) or a
/// Nexmark bid's extra (80-250) a few percent faster.
constexpr int32_t kMaxChunkedLength = 48;

/// Copies the `length` (> 0) bytes at `from` to `to` sixteen at a time, reading and writing up
/// to kChunk - 1 bytes past them. Most strings taken are short (a name, an id, a code) and a
/// call to memcpy a row cost more than its bytes: half of the time of taking a memo's results
/// for each row of Nexmark q21.
inline void CopyInChunks(uint8_t* to, const uint8_t* from, int32_t length) {
  int32_t at = 0;
  do {
    std::memcpy(to + at, from + at, kChunk);  // a copy of a constant size: one 16-byte move
    at += static_cast<int32_t>(kChunk);
  } while (at < length);
}

template <typename Index>
arrow::Result<std::shared_ptr<arrow::ArrayData>> Take(const arrow::ArrayData& values,
                                                      const Index* indices, int64_t rows,
                                                      const uint8_t* row_validity,
                                                      int64_t row_validity_offset,
                                                      arrow::MemoryPool* pool) {
  const int64_t entries = values.length;
  const int32_t* value_offsets = values.GetValues<int32_t>(1);
  const uint8_t* value_bytes = values.buffers[2] == nullptr ? nullptr : values.buffers[2]->data();
  const uint8_t* value_validity = values.MayHaveNulls() ? values.buffers[0]->data() : nullptr;
  std::shared_ptr<arrow::Buffer> validity;
  uint8_t* out_validity = nullptr;
  if (row_validity != nullptr || value_validity != nullptr) {
    ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(rows, pool));
    out_validity = validity->mutable_data();
  }
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> offsets,
                        arrow::AllocateBuffer((rows + 1) * sizeof(int32_t), pool));
  auto* out_offsets = reinterpret_cast<int32_t*>(offsets->mutable_data());
  int64_t total = 0, nulls = 0;
  out_offsets[0] = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const auto index = static_cast<int64_t>(indices[row]);
    bool is_valid = row_validity == nullptr ||
                    arrow::bit_util::GetBit(row_validity, row_validity_offset + row);
    if (is_valid) {
      if (index < 0 || index >= entries) {
        return arrow::Status::Invalid("index ", index, " of row ", row,
                                      " is outside the ", entries, " values taken from");
      }
      is_valid = value_validity == nullptr ||
                 arrow::bit_util::GetBit(value_validity, values.offset + index);
    }
    if (is_valid) {
      total += value_offsets[index + 1] - value_offsets[index];
      if (total > std::numeric_limits<int32_t>::max()) {
        return arrow::Status::CapacityError("the string values of ", rows,
                                            " rows exceed 2 GiB");
      }
    } else {
      ++nulls;
    }
    if (out_validity != nullptr) arrow::bit_util::SetBitTo(out_validity, row, is_valid);
    out_offsets[row + 1] = static_cast<int32_t>(total);
  }
  // Room for a last chunk of kChunk bytes written past the values (CopyInChunks).
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::ResizableBuffer> bytes,
                        arrow::AllocateResizableBuffer(total + kChunk, pool));
  uint8_t* out_bytes = bytes->mutable_data();
  // Short values that end kChunk bytes or more before the end of theirs are copied in chunks.
  const int64_t chunked_end =
      value_bytes == nullptr ? 0 : values.buffers[2]->size() - static_cast<int64_t>(kChunk);
  for (int64_t row = 0; row < rows; ++row) {
    const int32_t length = out_offsets[row + 1] - out_offsets[row];
    if (length == 0) continue;
    const int32_t from = value_offsets[indices[row]];
    if (length <= kMaxChunkedLength && from + length <= chunked_end) {
      CopyInChunks(out_bytes + out_offsets[row], value_bytes + from, length);
    } else {
      std::memcpy(out_bytes + out_offsets[row], value_bytes + from, static_cast<size_t>(length));
    }
  }
  ARROW_RETURN_NOT_OK(bytes->Resize(total, /*shrink_to_fit=*/false));
  if (nulls == 0) validity = nullptr;
  return arrow::ArrayData::Make(values.type, rows,
                                {std::move(validity), std::move(offsets), std::move(bytes)},
                                nulls);
}

/// The result of taking `indices` from `column` with its validity only: the type, the rows,
/// and the validity bitmap (none when no taken row is null).
arrow::Result<std::shared_ptr<arrow::ArrayData>> TakeValidity(const arrow::Array& column,
                                                              std::span<const uint32_t> indices,
                                                              arrow::MemoryPool* pool) {
  const auto rows = static_cast<int64_t>(indices.size());
  std::shared_ptr<arrow::Buffer> validity;
  int64_t nulls = 0;
  if (column.null_count() != 0) {
    ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(rows, pool));
    uint8_t* bits = validity->mutable_data();
    for (int64_t row = 0; row < rows; ++row) {
      const bool valid = column.IsValid(static_cast<int64_t>(indices[static_cast<size_t>(row)]));
      arrow::bit_util::SetBitTo(bits, row, valid);
      nulls += !valid;
    }
    if (nulls == 0) validity = nullptr;
  }
  return arrow::ArrayData::Make(column.type(), rows, {std::move(validity)}, nulls);
}

/// to[i] = from[indices[i]], values of kWidth bytes.
template <size_t kWidth>
void GatherFixed(const uint8_t* from, std::span<const uint32_t> indices, uint8_t* to) {
  for (const uint32_t index : indices) {
    std::memcpy(to, from + static_cast<size_t>(index) * kWidth, kWidth);
    to += kWidth;
  }
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::ArrayData>> TakeStrings(
    const arrow::ArrayData& values, const int32_t* indices, int64_t rows,
    const uint8_t* row_validity, int64_t row_validity_offset, arrow::MemoryPool* pool) {
  return Take(values, indices, rows, row_validity, row_validity_offset, pool);
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> TakeStrings(const arrow::ArrayData& values,
                                                             const uint32_t* indices,
                                                             int64_t rows,
                                                             arrow::MemoryPool* pool) {
  return Take(values, indices, rows, nullptr, 0, pool);
}

arrow::Result<std::shared_ptr<arrow::Array>> TakeColumn(const arrow::Array& column,
                                                        std::span<const uint32_t> indices,
                                                        arrow::MemoryPool* pool) {
  const auto rows = static_cast<int64_t>(indices.size());
  const arrow::Type::type id = column.type_id();
  if (id == arrow::Type::STRING || id == arrow::Type::BINARY) {
    ARROW_ASSIGN_OR_RAISE(auto taken, TakeStrings(*column.data(), indices.data(), rows, pool));
    return arrow::MakeArray(std::move(taken));
  }
  if (id == arrow::Type::STRUCT) {
    // Field by field, so that its strings are taken as above (Arrow's Take of a struct takes
    // each field with its own kernels).
    const auto& fields = static_cast<const arrow::StructArray&>(column);
    ARROW_ASSIGN_OR_RAISE(auto taken, TakeValidity(column, indices, pool));
    for (int field = 0; field < fields.num_fields(); ++field) {
      // field(i) is sliced to the struct's rows, as the indices count them.
      ARROW_ASSIGN_OR_RAISE(auto child, TakeColumn(*fields.field(field), indices, pool));
      taken->child_data.push_back(child->data());
    }
    return arrow::MakeArray(std::move(taken));
  }
  // Numbers, dates, times and decimals: values of a fixed width in buffer 1.
  const bool fixed = (arrow::is_primitive(id) && id != arrow::Type::BOOL) ||
                     id == arrow::Type::DECIMAL128;
  const int bit_width = fixed ? column.type()->byte_width() * 8 : 0;
  if (bit_width == 8 || bit_width == 16 || bit_width == 32 || bit_width == 64 ||
      bit_width == 128) {
    // A copy of a known width a row, without Arrow's checks of each index's validity.
    const auto width = static_cast<size_t>(bit_width / 8);
    ARROW_ASSIGN_OR_RAISE(auto taken, TakeValidity(column, indices, pool));
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(rows * bit_width / 8, pool));
    const uint8_t* from = column.data()->buffers[1]->data() +
                          static_cast<size_t>(column.offset()) * width;
    uint8_t* to = values->mutable_data();
    switch (width) {
      case 1: GatherFixed<1>(from, indices, to); break;
      case 2: GatherFixed<2>(from, indices, to); break;
      case 4: GatherFixed<4>(from, indices, to); break;
      case 8: GatherFixed<8>(from, indices, to); break;
      default: GatherFixed<16>(from, indices, to); break;
    }
    taken->buffers.push_back(std::move(values));
    return arrow::MakeArray(std::move(taken));
  }
  // The indices are only read: a buffer over them, not a copy.
  const auto index_buffer = std::make_shared<arrow::Buffer>(
      reinterpret_cast<const uint8_t*>(indices.data()), rows * sizeof(uint32_t));
  const arrow::UInt32Array index_array(rows, index_buffer);
  arrow::compute::ExecContext exec(pool);
  return arrow::compute::Take(column, index_array, arrow::compute::TakeOptions::NoBoundsCheck(),
                              &exec);
}

}  // namespace sluice
