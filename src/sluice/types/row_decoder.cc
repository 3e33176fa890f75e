// RowDecoder: a tree of nodes, one per type in the row, each appending straight into the
// buffers of the array it builds (no ArrayBuilder in the per-value path).
#include "sluice/types/row_codec.h"

#include <cstring>
#include <limits>
#include <utility>

#include <arrow/array/data.h>
#include <arrow/buffer_builder.h>
#include <arrow/type.h>

#include "sluice/types/row_codec_shape.h"

namespace sluice::types {
namespace {

using row_codec_internal::ColumnName;
using row_codec_internal::Shape;
using row_codec_internal::ShapeOf;

struct Reader {
  const uint8_t* begin;
  const uint8_t* position;
  const uint8_t* end;

  int64_t remaining() const { return end - position; }
  int64_t offset() const { return position - begin; }
};

struct DecodeNode;
using ReadFunction = arrow::Status (*)(DecodeNode&, Reader&);
using AppendNullFunction = arrow::Status (*)(DecodeNode&);

struct DecodeNode {
  explicit DecodeNode(arrow::MemoryPool* pool)
      : validity(pool), values(pool), bits(pool), offsets(pool), data(pool) {}

  std::shared_ptr<arrow::DataType> type;
  Shape shape = Shape::kNull;
  std::string name;  // for errors: "column 1 (struct<...>) field start"
  int32_t byte_width = 0;
  int32_t list_size = 0;
  ReadFunction read = nullptr;

  int64_t length = 0;
  int64_t null_count = 0;
  // Materialized at the first null: all-valid arrays carry no bitmap.
  arrow::TypedBufferBuilder<bool> validity;
  arrow::BufferBuilder values;            // fixed-width values
  arrow::TypedBufferBuilder<bool> bits;   // booleans
  arrow::BufferBuilder offsets;           // int32_t or int64_t offsets of binaries and lists
  arrow::BufferBuilder data;              // bytes of binaries
  std::vector<std::unique_ptr<DecodeNode>> children;  // map: entries, whose children are key, item

  arrow::Status MarkValid() {
    ++length;
    return null_count == 0 ? arrow::Status::OK() : validity.Append(true);
  }
  arrow::Status MarkNull() {
    if (null_count == 0) ARROW_RETURN_NOT_OK(validity.Append(length, true));
    ++length;
    ++null_count;
    return validity.Append(false);
  }
};

// Errors are built only on the failure path, out of line.
[[gnu::noinline]] arrow::Status Truncated(const DecodeNode& node, const Reader& reader,
                                          int64_t needed, const char* what) {
  return arrow::Status::Invalid("Malformed state row: the ", what, " of ", node.name,
                                " needs ", needed, " bytes at byte ", reader.offset(),
                                " but the row ends after ", reader.end - reader.begin);
}

[[gnu::noinline]] arrow::Status BadByte(const DecodeNode& node, const Reader& reader,
                                        const char* what) {
  // Called right after reading the byte.
  return arrow::Status::Invalid("Malformed state row: ", what, " of ", node.name, " at byte ",
                                reader.offset() - 1, " is ",
                                static_cast<int>(reader.position[-1]), ", not 0 or 1");
}

// Reads the null flag; `present` tells whether a payload follows.
inline arrow::Status ReadFlag(const DecodeNode& node, Reader& reader, bool* present) {
  if (reader.remaining() < 1) return Truncated(node, reader, 1, "null flag");
  uint8_t flag = *reader.position++;
  if (flag > 1) return BadByte(node, reader, "the null flag");
  *present = flag == 1;
  return arrow::Status::OK();
}

inline arrow::Status ReadCount(const DecodeNode& node, Reader& reader, const char* what,
                               uint32_t* count) {
  if (reader.remaining() < 4) return Truncated(node, reader, 4, what);
  std::memcpy(count, reader.position, sizeof(*count));
  reader.position += sizeof(*count);
  return arrow::Status::OK();
}

template <typename Offset>
arrow::Status AppendOffset(DecodeNode& node, int64_t end) {
  if (end > std::numeric_limits<Offset>::max()) {
    return arrow::Status::CapacityError("Decoded state rows hold more than ",
                                        std::numeric_limits<Offset>::max(), " elements in ",
                                        node.name, "; decode fewer rows at a time");
  }
  Offset narrow = static_cast<Offset>(end);
  return node.offsets.Append(&narrow, sizeof(narrow));
}

arrow::Status AppendNull(DecodeNode& node);

arrow::Status ReadNull(DecodeNode& node, Reader& reader) {
  if (reader.remaining() < 1) return Truncated(node, reader, 1, "null flag");
  if (*reader.position++ != 0) {
    return arrow::Status::Invalid("Malformed state row: ", node.name, " is always null but byte ",
                                  reader.offset() - 1, " flags a value");
  }
  ++node.length;
  ++node.null_count;
  return arrow::Status::OK();
}

arrow::Status ReadBoolean(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  if (reader.remaining() < 1) return Truncated(node, reader, 1, "boolean value");
  uint8_t value = *reader.position++;
  if (value > 1) return BadByte(node, reader, "the boolean value");
  ARROW_RETURN_NOT_OK(node.bits.Append(value == 1));
  return node.MarkValid();
}

template <int W>
arrow::Status ReadFixed(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  const int32_t width = W > 0 ? W : node.byte_width;
  if (reader.remaining() < width) return Truncated(node, reader, width, "value");
  ARROW_RETURN_NOT_OK(node.values.Append(reader.position, W > 0 ? W : width));
  reader.position += width;
  return node.MarkValid();
}

template <typename Offset>
arrow::Status ReadBinary(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  uint32_t length = 0;
  ARROW_RETURN_NOT_OK(ReadCount(node, reader, "length", &length));
  if (reader.remaining() < length) return Truncated(node, reader, length, "bytes");
  ARROW_RETURN_NOT_OK(node.data.Append(reader.position, length));
  reader.position += length;
  ARROW_RETURN_NOT_OK(AppendOffset<Offset>(node, node.data.length()));
  return node.MarkValid();
}

// Every encoded value takes at least its null flag, so a count past the remaining bytes is
// malformed; checking it first keeps a corrupt count from driving a long loop.
inline arrow::Status CheckCount(const DecodeNode& node, const Reader& reader, uint32_t count,
                                const char* what) {
  if (count > reader.remaining()) {
    return arrow::Status::Invalid("Malformed state row: ", node.name, " claims ", count, " ",
                                  what, " at byte ", reader.offset() - 4, " but only ",
                                  reader.remaining(), " bytes follow");
  }
  return arrow::Status::OK();
}

template <typename Offset>
arrow::Status ReadList(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  uint32_t count = 0;
  ARROW_RETURN_NOT_OK(ReadCount(node, reader, "element count", &count));
  ARROW_RETURN_NOT_OK(CheckCount(node, reader, count, "elements"));
  DecodeNode& element = *node.children[0];
  for (uint32_t k = 0; k < count; ++k) ARROW_RETURN_NOT_OK(element.read(element, reader));
  ARROW_RETURN_NOT_OK(AppendOffset<Offset>(node, element.length));
  return node.MarkValid();
}

arrow::Status ReadFixedSizeList(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  uint32_t count = 0;
  ARROW_RETURN_NOT_OK(ReadCount(node, reader, "element count", &count));
  if (count != static_cast<uint32_t>(node.list_size)) {
    return arrow::Status::Invalid("Malformed state row: ", node.name, " has ", count,
                                  " elements at byte ", reader.offset() - 4, ", not ",
                                  node.list_size);
  }
  DecodeNode& element = *node.children[0];
  for (uint32_t k = 0; k < count; ++k) ARROW_RETURN_NOT_OK(element.read(element, reader));
  return node.MarkValid();
}

arrow::Status ReadStruct(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  for (auto& child : node.children) ARROW_RETURN_NOT_OK(child->read(*child, reader));
  return node.MarkValid();
}

arrow::Status ReadMap(DecodeNode& node, Reader& reader) {
  bool present = false;
  ARROW_RETURN_NOT_OK(ReadFlag(node, reader, &present));
  if (!present) return AppendNull(node);
  uint32_t count = 0;
  ARROW_RETURN_NOT_OK(ReadCount(node, reader, "entry count", &count));
  ARROW_RETURN_NOT_OK(CheckCount(node, reader, count, "entries"));
  DecodeNode& entries = *node.children[0];
  DecodeNode& key = *entries.children[0];
  DecodeNode& item = *entries.children[1];
  for (uint32_t k = 0; k < count; ++k) {
    const int64_t null_keys = key.null_count;
    ARROW_RETURN_NOT_OK(key.read(key, reader));
    if (key.null_count != null_keys) {
      return arrow::Status::Invalid("Malformed state row: a null key in ", node.name,
                                    " before byte ", reader.offset());
    }
    ARROW_RETURN_NOT_OK(item.read(item, reader));
    ARROW_RETURN_NOT_OK(entries.MarkValid());
  }
  ARROW_RETURN_NOT_OK(AppendOffset<int32_t>(node, entries.length));
  return node.MarkValid();
}

// A null slot, with the filler its layout needs (zeroed fixed-width bytes, a
// repeated offset, null children under a struct or fixed-size list).
arrow::Status AppendNull(DecodeNode& node) {
  switch (node.shape) {
    case Shape::kNull:
      ++node.length;
      ++node.null_count;
      return arrow::Status::OK();
    case Shape::kBoolean:
      ARROW_RETURN_NOT_OK(node.bits.Append(false));
      break;
    case Shape::kFixedWidth:
      ARROW_RETURN_NOT_OK(node.values.Advance(node.byte_width));
      break;
    case Shape::kBinary:
      ARROW_RETURN_NOT_OK(AppendOffset<int32_t>(node, node.data.length()));
      break;
    case Shape::kLargeBinary:
      ARROW_RETURN_NOT_OK(AppendOffset<int64_t>(node, node.data.length()));
      break;
    case Shape::kList:
    case Shape::kMap:
      ARROW_RETURN_NOT_OK(AppendOffset<int32_t>(node, node.children[0]->length));
      break;
    case Shape::kLargeList:
      ARROW_RETURN_NOT_OK(AppendOffset<int64_t>(node, node.children[0]->length));
      break;
    case Shape::kFixedSizeList:
      for (int32_t k = 0; k < node.list_size; ++k) {
        ARROW_RETURN_NOT_OK(AppendNull(*node.children[0]));
      }
      break;
    case Shape::kStruct:
      for (auto& child : node.children) ARROW_RETURN_NOT_OK(AppendNull(*child));
      break;
  }
  return node.MarkNull();
}

arrow::Status AppendFirstOffset(DecodeNode& node) {
  switch (node.shape) {
    case Shape::kBinary: case Shape::kList: case Shape::kMap:
      return AppendOffset<int32_t>(node, 0);
    case Shape::kLargeBinary: case Shape::kLargeList:
      return AppendOffset<int64_t>(node, 0);
    default:
      return arrow::Status::OK();
  }
}

arrow::Result<std::unique_ptr<DecodeNode>> MakeDecodeNode(
    const std::shared_ptr<arrow::DataType>& type, std::string name, arrow::MemoryPool* pool) {
  auto node = std::make_unique<DecodeNode>(pool);
  node->type = type;
  node->name = std::move(name);
  ARROW_ASSIGN_OR_RAISE(node->shape, ShapeOf(*type, node->name));
  switch (node->shape) {
    case Shape::kNull: node->read = ReadNull; break;
    case Shape::kBoolean: node->read = ReadBoolean; break;
    case Shape::kFixedWidth:
      node->byte_width = type->byte_width();
      switch (node->byte_width) {
        case 1: node->read = ReadFixed<1>; break;
        case 2: node->read = ReadFixed<2>; break;
        case 4: node->read = ReadFixed<4>; break;
        case 8: node->read = ReadFixed<8>; break;
        case 16: node->read = ReadFixed<16>; break;
        case 32: node->read = ReadFixed<32>; break;
        default: node->read = ReadFixed<0>; break;
      }
      break;
    case Shape::kBinary: node->read = ReadBinary<int32_t>; break;
    case Shape::kLargeBinary: node->read = ReadBinary<int64_t>; break;
    case Shape::kList: node->read = ReadList<int32_t>; break;
    case Shape::kLargeList: node->read = ReadList<int64_t>; break;
    case Shape::kFixedSizeList:
      node->list_size = static_cast<const arrow::FixedSizeListType&>(*type).list_size();
      node->read = ReadFixedSizeList;
      break;
    case Shape::kStruct: node->read = ReadStruct; break;
    case Shape::kMap: node->read = ReadMap; break;
  }
  switch (node->shape) {
    case Shape::kList: case Shape::kLargeList: case Shape::kFixedSizeList: {
      ARROW_ASSIGN_OR_RAISE(auto element,
                            MakeDecodeNode(type->field(0)->type(), node->name + " element", pool));
      node->children.push_back(std::move(element));
      break;
    }
    case Shape::kStruct:
      for (const auto& field : type->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto child, MakeDecodeNode(field->type(),
                                                         node->name + " field " + field->name(),
                                                         pool));
        node->children.push_back(std::move(child));
      }
      break;
    case Shape::kMap: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      auto entries = std::make_unique<DecodeNode>(pool);
      entries->type = map.value_type();
      entries->shape = Shape::kStruct;
      entries->name = node->name + " entries";
      ARROW_ASSIGN_OR_RAISE(auto key, MakeDecodeNode(map.key_type(), node->name + " key", pool));
      ARROW_ASSIGN_OR_RAISE(auto item,
                            MakeDecodeNode(map.item_type(), node->name + " value", pool));
      entries->children.push_back(std::move(key));
      entries->children.push_back(std::move(item));
      node->children.push_back(std::move(entries));
      break;
    }
    default:
      break;
  }
  ARROW_RETURN_NOT_OK(AppendFirstOffset(*node));
  return node;
}

// Room for `rows` more values of the node and of the children whose lengths follow from it;
// the bytes of binaries and the elements of lists are known only as they are read.
arrow::Status ReserveNode(DecodeNode& node, int64_t rows) {
  switch (node.shape) {
    case Shape::kBoolean:
      return node.bits.Reserve(rows);
    case Shape::kFixedWidth:
      return node.values.Reserve(rows * node.byte_width);
    case Shape::kBinary: case Shape::kList: case Shape::kMap:
      return node.offsets.Reserve(rows * static_cast<int64_t>(sizeof(int32_t)));
    case Shape::kLargeBinary: case Shape::kLargeList:
      return node.offsets.Reserve(rows * static_cast<int64_t>(sizeof(int64_t)));
    case Shape::kFixedSizeList:
      return ReserveNode(*node.children[0], rows * node.list_size);
    case Shape::kStruct:
      for (auto& child : node.children) ARROW_RETURN_NOT_OK(ReserveNode(*child, rows));
      return arrow::Status::OK();
    case Shape::kNull:
      return arrow::Status::OK();
  }
  return arrow::Status::OK();
}

// The node's rows as an array; the node starts over empty.
arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishNode(DecodeNode& node) {
  std::shared_ptr<arrow::Buffer> validity;
  if (node.null_count != 0 && node.shape != Shape::kNull) {
    ARROW_ASSIGN_OR_RAISE(validity, node.validity.Finish());
  }
  node.validity.Reset();
  std::vector<std::shared_ptr<arrow::Buffer>> buffers = {validity};
  switch (node.shape) {
    case Shape::kNull:
      buffers = {nullptr};
      break;
    case Shape::kBoolean: {
      ARROW_ASSIGN_OR_RAISE(auto bits, node.bits.Finish());
      buffers.push_back(std::move(bits));
      break;
    }
    case Shape::kFixedWidth: {
      ARROW_ASSIGN_OR_RAISE(auto values, node.values.Finish());
      buffers.push_back(std::move(values));
      break;
    }
    case Shape::kBinary: case Shape::kLargeBinary: {
      ARROW_ASSIGN_OR_RAISE(auto offsets, node.offsets.Finish());
      ARROW_ASSIGN_OR_RAISE(auto data, node.data.Finish());
      buffers.push_back(std::move(offsets));
      buffers.push_back(std::move(data));
      break;
    }
    case Shape::kList: case Shape::kLargeList: case Shape::kMap: {
      ARROW_ASSIGN_OR_RAISE(auto offsets, node.offsets.Finish());
      buffers.push_back(std::move(offsets));
      break;
    }
    case Shape::kFixedSizeList: case Shape::kStruct:
      break;
  }
  std::vector<std::shared_ptr<arrow::ArrayData>> children;
  for (auto& child : node.children) {
    ARROW_ASSIGN_OR_RAISE(auto child_data, FinishNode(*child));
    children.push_back(std::move(child_data));
  }
  auto array = arrow::ArrayData::Make(node.type, node.length, std::move(buffers),
                                      std::move(children), node.null_count);
  node.length = 0;
  node.null_count = 0;
  ARROW_RETURN_NOT_OK(AppendFirstOffset(node));
  return array;
}

class RowDecoderImpl final : public RowDecoder {
 public:
  explicit RowDecoderImpl(std::vector<std::unique_ptr<DecodeNode>> columns)
      : columns_(std::move(columns)) {}

  arrow::Status Append(std::string_view row) override {
    ARROW_RETURN_NOT_OK(status_);
    const auto* begin = reinterpret_cast<const uint8_t*>(row.data());
    Reader reader{begin, begin, begin + row.size()};
    for (auto& column : columns_) {
      status_ = column->read(*column, reader);
      if (!status_.ok()) return status_;
    }
    if (reader.remaining() != 0) {
      status_ = arrow::Status::Invalid("Malformed state row: ", reader.remaining(),
                                       " trailing bytes after the last column, at byte ",
                                       reader.offset(), " of ", row.size());
      return status_;
    }
    ++num_rows_;
    return arrow::Status::OK();
  }

  arrow::Status Reserve(int64_t rows) override {
    ARROW_RETURN_NOT_OK(status_);
    for (auto& column : columns_) ARROW_RETURN_NOT_OK(ReserveNode(*column, rows));
    return arrow::Status::OK();
  }

  int64_t num_rows() const override { return num_rows_; }

  arrow::Result<arrow::ArrayVector> Finish() override {
    ARROW_RETURN_NOT_OK(status_);
    arrow::ArrayVector arrays;
    arrays.reserve(columns_.size());
    for (auto& column : columns_) {
      auto finished = FinishNode(*column);
      if (!finished.ok()) {
        status_ = finished.status();
        return status_;
      }
      arrays.push_back(arrow::MakeArray(*finished));
    }
    num_rows_ = 0;
    return arrays;
  }

 private:
  std::vector<std::unique_ptr<DecodeNode>> columns_;
  int64_t num_rows_ = 0;
  arrow::Status status_;  // the first failure: the decoder's state is then undefined
};

}  // namespace

arrow::Result<std::unique_ptr<RowDecoder>> RowDecoder::Make(
    std::vector<std::shared_ptr<arrow::DataType>> types, arrow::MemoryPool* pool) {
  std::vector<std::unique_ptr<DecodeNode>> columns;
  columns.reserve(types.size());
  for (size_t c = 0; c < types.size(); ++c) {
    ARROW_ASSIGN_OR_RAISE(auto node, MakeDecodeNode(types[c], ColumnName(c, *types[c]), pool));
    columns.push_back(std::move(node));
  }
  return std::make_unique<RowDecoderImpl>(std::move(columns));
}

std::optional<size_t> EncodedValueEnd(const arrow::DataType& type, std::string_view row,
                                      size_t position) {
  auto shape = row_codec_internal::FindShape(type);
  if (!shape || position >= row.size()) return std::nullopt;
  const auto* bytes = reinterpret_cast<const uint8_t*>(row.data());
  const bool present = bytes[position++] != 0;
  if (!present || *shape == Shape::kNull) return position;
  auto count = [&]() -> std::optional<uint32_t> {
    if (row.size() - position < sizeof(uint32_t)) return std::nullopt;
    uint32_t value;
    std::memcpy(&value, bytes + position, sizeof(value));
    position += sizeof(value);
    return value;
  };
  auto within = [&](size_t end) -> std::optional<size_t> {
    if (end > row.size()) return std::nullopt;
    return end;
  };
  switch (*shape) {
    case Shape::kNull:
      return position;
    case Shape::kBoolean:
      return within(position + 1);
    case Shape::kFixedWidth:
      return within(position + static_cast<size_t>(type.byte_width()));
    case Shape::kBinary: case Shape::kLargeBinary: {
      auto length = count();
      if (!length) return std::nullopt;
      return within(position + *length);
    }
    case Shape::kList: case Shape::kLargeList: case Shape::kFixedSizeList: {
      auto elements = count();
      if (!elements) return std::nullopt;
      const auto& element = *type.field(0)->type();
      for (uint32_t k = 0; k < *elements; ++k) {
        auto end = EncodedValueEnd(element, row, position);
        if (!end) return std::nullopt;
        position = *end;
      }
      return position;
    }
    case Shape::kStruct:
      for (const auto& field : type.fields()) {
        auto end = EncodedValueEnd(*field->type(), row, position);
        if (!end) return std::nullopt;
        position = *end;
      }
      return position;
    case Shape::kMap: {
      auto entries = count();
      if (!entries) return std::nullopt;
      const auto& map = static_cast<const arrow::MapType&>(type);
      for (uint32_t k = 0; k < *entries; ++k) {
        for (const auto* part : {map.key_type().get(), map.item_type().get()}) {
          auto end = EncodedValueEnd(*part, row, position);
          if (!end) return std::nullopt;
          position = *end;
        }
      }
      return position;
    }
  }
  return std::nullopt;
}

EncodedColumnSeeker::EncodedColumnSeeker(
    const std::vector<std::shared_ptr<arrow::DataType>>& types, int column)
    : types_(types.begin(), types.begin() + column + 1) {
  for (const auto& type : types_) {
    const auto shape = row_codec_internal::FindShape(*type);
    Skip skip{Skip::Kind::kNested, 0, type.get()};
    if (shape == Shape::kNull) {
      skip = {Skip::Kind::kFixed, 0, type.get()};
    } else if (shape == Shape::kBoolean) {
      skip = {Skip::Kind::kFixed, 1, type.get()};
    } else if (shape == Shape::kFixedWidth) {
      skip = {Skip::Kind::kFixed, static_cast<size_t>(type->byte_width()), type.get()};
    } else if (shape == Shape::kBinary || shape == Shape::kLargeBinary) {
      skip = {Skip::Kind::kLengthPrefixed, 0, type.get()};
    }
    columns_.push_back(skip);
  }
}

std::optional<size_t> EncodedColumnSeeker::Past(const Skip& skip, std::string_view row,
                                                size_t position) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(row.data());
  if (position >= row.size()) return std::nullopt;
  if (bytes[position] == 0) return position + 1;  // null: the flag alone
  size_t end = 0;
  switch (skip.kind) {
    case Skip::Kind::kFixed:
      end = position + 1 + skip.width;
      break;
    case Skip::Kind::kLengthPrefixed: {
      if (row.size() - position - 1 < sizeof(uint32_t)) return std::nullopt;
      uint32_t length;
      std::memcpy(&length, bytes + position + 1, sizeof(length));
      end = position + 1 + sizeof(length) + length;
      break;
    }
    case Skip::Kind::kNested:
      return EncodedValueEnd(*skip.type, row, position);
  }
  if (end > row.size()) return std::nullopt;
  return end;
}

std::optional<std::string_view> EncodedColumnSeeker::Find(std::string_view row) const {
  size_t position = 0;
  for (size_t c = 0; c + 1 < columns_.size(); ++c) {
    auto end = Past(columns_[c], row, position);
    if (!end) return std::nullopt;
    position = *end;
  }
  auto end = Past(columns_.back(), row, position);
  if (!end) return std::nullopt;
  return row.substr(position, *end - position);
}

}  // namespace sluice::types
