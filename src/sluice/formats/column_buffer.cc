#include "sluice/formats/column_buffer.h"

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::formats {

arrow::Result<std::unique_ptr<ColumnBuffer>> ColumnBuffer::Make(
    std::shared_ptr<arrow::DataType> type) {
  auto column = std::make_unique<ColumnBuffer>();
  column->type = type;
  switch (type->id()) {
    case arrow::Type::NA: column->kind = ColumnKind::kNull; break;
    case arrow::Type::BOOL: column->kind = ColumnKind::kBoolean; column->width = 1; break;
    case arrow::Type::INT8: column->kind = ColumnKind::kInt8; column->width = 1; break;
    case arrow::Type::INT16: column->kind = ColumnKind::kInt16; column->width = 2; break;
    case arrow::Type::INT32: column->kind = ColumnKind::kInt32; column->width = 4; break;
    case arrow::Type::INT64: column->kind = ColumnKind::kInt64; column->width = 8; break;
    case arrow::Type::FLOAT: column->kind = ColumnKind::kFloat; column->width = 4; break;
    case arrow::Type::DOUBLE: column->kind = ColumnKind::kDouble; column->width = 8; break;
    case arrow::Type::DECIMAL128: column->kind = ColumnKind::kDecimal; column->width = 16; break;
    case arrow::Type::DATE32: column->kind = ColumnKind::kDate; column->width = 4; break;
    case arrow::Type::TIMESTAMP: {
      const auto& ts = static_cast<const arrow::TimestampType&>(*type);
      column->kind = ts.timezone().empty() ? ColumnKind::kTimestampNtz : ColumnKind::kTimestamp;
      column->width = 8;
      break;
    }
    case arrow::Type::STRING: column->kind = ColumnKind::kString; break;
    case arrow::Type::BINARY: column->kind = ColumnKind::kBinary; break;
    case arrow::Type::STRUCT:
      column->kind = ColumnKind::kStruct;
      for (const auto& field : type->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto child, Make(field->type()));
        column->children.push_back(std::move(child));
      }
      break;
    case arrow::Type::LIST: {
      column->kind = ColumnKind::kList;
      ARROW_ASSIGN_OR_RAISE(auto child, Make(type->field(0)->type()));
      column->children.push_back(std::move(child));
      break;
    }
    case arrow::Type::MAP: {
      column->kind = ColumnKind::kMap;
      const auto& map = static_cast<const arrow::MapType&>(*type);
      ARROW_ASSIGN_OR_RAISE(auto keys, Make(map.key_type()));
      ARROW_ASSIGN_OR_RAISE(auto items, Make(map.item_type()));
      column->children.push_back(std::move(keys));
      column->children.push_back(std::move(items));
      break;
    }
    default:
      return SparkError("UNSUPPORTED_DATATYPE",
                        "Unsupported data type " + type->ToString() +
                            " for reading text files; read it as a string and cast it.");
  }
  column->Reset();
  return column;
}

void ColumnBuffer::Reset() {
  validity.clear();
  values.clear();
  chars.clear();
  offsets.clear();
  if (kind == ColumnKind::kString || kind == ColumnKind::kBinary || kind == ColumnKind::kList ||
      kind == ColumnKind::kMap) {
    offsets.push_back(0);
  }
}

void ColumnBuffer::AppendNull() {
  switch (kind) {
    case ColumnKind::kString:
    case ColumnKind::kBinary:
    case ColumnKind::kList:
    case ColumnKind::kMap:
      offsets.push_back(offsets.back());
      break;
    case ColumnKind::kStruct:
      for (auto& child : children) child->AppendNull();
      break;
    case ColumnKind::kNull:
      break;
    default:
      values.resize(values.size() + static_cast<size_t>(width));
      break;
  }
  validity.push_back(0);
}

void ColumnBuffer::Truncate(int64_t rows) {
  if (rows >= length()) return;
  validity.resize(static_cast<size_t>(rows));
  switch (kind) {
    case ColumnKind::kString:
    case ColumnKind::kBinary:
      offsets.resize(static_cast<size_t>(rows) + 1);
      chars.resize(static_cast<size_t>(offsets.back()));
      break;
    case ColumnKind::kList:
    case ColumnKind::kMap:
      offsets.resize(static_cast<size_t>(rows) + 1);
      for (auto& child : children) child->Truncate(offsets.back());
      break;
    case ColumnKind::kStruct:
      for (auto& child : children) child->Truncate(rows);
      break;
    case ColumnKind::kNull:
      break;
    default:
      values.resize(static_cast<size_t>(rows) * static_cast<size_t>(width));
      break;
  }
}

namespace {

arrow::Result<std::shared_ptr<arrow::Buffer>> PackBits(const std::vector<uint8_t>& bytes,
                                                       int64_t* set_count) {
  const int64_t n = static_cast<int64_t>(bytes.size());
  ARROW_ASSIGN_OR_RAISE(auto bitmap, arrow::AllocateBitmap(n));
  uint8_t* bits = bitmap->mutable_data();
  std::memset(bits, 0, static_cast<size_t>(arrow::bit_util::BytesForBits(n)));
  int64_t count = 0;
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint8_t byte = 0;
    for (int b = 0; b < 8; ++b) byte |= static_cast<uint8_t>((bytes[i + b] != 0) << b);
    bits[i / 8] = byte;
    count += __builtin_popcount(byte);
  }
  for (; i < n; ++i) {
    if (bytes[i]) {
      arrow::bit_util::SetBit(bits, i);
      ++count;
    }
  }
  *set_count = count;
  return bitmap;
}

template <typename T>
std::shared_ptr<arrow::Buffer> MoveToBuffer(std::vector<T>&& data) {
  return arrow::Buffer::FromVector(std::move(data));
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::ArrayData>> ColumnBuffer::FinishData() {
  const int64_t n = length();
  if (kind == ColumnKind::kNull) {
    Reset();
    return arrow::ArrayData::Make(type, n, {nullptr}, n);
  }
  int64_t valid_count = 0;
  ARROW_ASSIGN_OR_RAISE(auto bitmap, PackBits(validity, &valid_count));
  const int64_t null_count = n - valid_count;
  if (null_count == 0) bitmap = nullptr;
  std::shared_ptr<arrow::ArrayData> data;
  switch (kind) {
    case ColumnKind::kBoolean: {
      int64_t ignored = 0;
      ARROW_ASSIGN_OR_RAISE(auto packed, PackBits(values, &ignored));
      data = arrow::ArrayData::Make(type, n, {bitmap, packed}, null_count);
      break;
    }
    case ColumnKind::kString:
    case ColumnKind::kBinary: {
      auto offsets_buffer = MoveToBuffer(std::move(offsets));
      auto chars_buffer = arrow::Buffer::FromString(std::move(chars));
      data = arrow::ArrayData::Make(type, n, {bitmap, offsets_buffer, chars_buffer}, null_count);
      break;
    }
    case ColumnKind::kStruct: {
      std::vector<std::shared_ptr<arrow::ArrayData>> child_data;
      for (auto& child : children) {
        ARROW_ASSIGN_OR_RAISE(auto child_array, child->FinishData());
        child_data.push_back(std::move(child_array));
      }
      data = arrow::ArrayData::Make(type, n, {bitmap}, child_data, null_count);
      break;
    }
    case ColumnKind::kList: {
      auto offsets_buffer = MoveToBuffer(std::move(offsets));
      ARROW_ASSIGN_OR_RAISE(auto elements, children[0]->FinishData());
      data = arrow::ArrayData::Make(type, n, {bitmap, offsets_buffer}, {elements}, null_count);
      break;
    }
    case ColumnKind::kMap: {
      auto offsets_buffer = MoveToBuffer(std::move(offsets));
      ARROW_ASSIGN_OR_RAISE(auto keys, children[0]->FinishData());
      ARROW_ASSIGN_OR_RAISE(auto items, children[1]->FinishData());
      const auto& map = static_cast<const arrow::MapType&>(*type);
      auto entries = arrow::ArrayData::Make(map.value_type(), keys->length, {nullptr},
                                            {keys, items}, 0);
      data = arrow::ArrayData::Make(type, n, {bitmap, offsets_buffer}, {entries}, null_count);
      break;
    }
    default: {
      auto values_buffer = MoveToBuffer(std::move(values));
      data = arrow::ArrayData::Make(type, n, {bitmap, values_buffer}, null_count);
      break;
    }
  }
  Reset();
  return data;
}

arrow::Result<std::shared_ptr<arrow::Array>> ColumnBuffer::Finish() {
  ARROW_ASSIGN_OR_RAISE(auto data, FinishData());
  return arrow::MakeArray(data);
}

}  // namespace sluice::formats
