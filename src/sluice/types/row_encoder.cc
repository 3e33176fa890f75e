// RowEncoder: a tree of per-type encode functions chosen once at Make, walked per value;
// fixed-width columns also get column-at-a-time loops for EncodeRows.
#include "sluice/types/row_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include <arrow/array/data.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/logging.h>

#include "sluice/types/canonical_floats.h"
#include "sluice/types/row_codec_shape.h"

namespace sluice::types {
namespace {

using row_codec_internal::ColumnName;
using row_codec_internal::FloatKind;
using row_codec_internal::FloatKindOf;
using row_codec_internal::Shape;
using row_codec_internal::ShapeOf;

// Payloads are the values' in-memory bytes; the format says little-endian.
static_assert(std::endian::native == std::endian::little);

template <int W, FloatKind F>
inline void CopyValue(const uint8_t* source, uint8_t* target) {
  if constexpr (F == FloatKind::kNone) {
    std::memcpy(target, source, W);
  } else {
    using Bits = std::conditional_t<W == 2, uint16_t,
                                    std::conditional_t<W == 4, uint32_t, uint64_t>>;
    static_assert(sizeof(Bits) == W);
    Bits bits;
    std::memcpy(&bits, source, W);
    bits = CanonicalFloatBits(bits);  // Spark's NormalizeFloatingNumbers
    std::memcpy(target, &bits, W);
  }
}

// One array flattened for the hot loops: raw pointers instead of buffers and shared pointers.
// Index i of a view is the array's logical index; physical positions add `offset`.
struct ColumnView {
  const uint8_t* validity = nullptr;  // nullptr when no value is null
  const uint8_t* values = nullptr;    // fixed-width values, booleans' bits, or offsets
  const uint8_t* data = nullptr;      // the bytes of binary values
  int64_t offset = 0;
  std::vector<ColumnView> children;

  bool IsNull(int64_t i) const {
    return validity != nullptr && !arrow::bit_util::GetBit(validity, offset + i);
  }
};

ColumnView MakeView(const arrow::ArrayData& array) {
  ColumnView view;
  auto pointer = [&](size_t index) -> const uint8_t* {
    return array.buffers.size() > index && array.buffers[index] ? array.buffers[index]->data()
                                                                 : nullptr;
  };
  if (array.null_count != 0) view.validity = pointer(0);
  view.values = pointer(1);
  view.data = pointer(2);
  view.offset = array.offset;
  view.children.reserve(array.child_data.size());
  for (const auto& child : array.child_data) view.children.push_back(MakeView(*child));
  return view;
}

struct EncodeNode;
// The encoded size of value i of a view.
using SizeFunction = uint64_t (*)(const EncodeNode&, const ColumnView&, int64_t);
// Writes value i of a view at `out`; returns the end of what it wrote.
using WriteFunction = uint8_t* (*)(const EncodeNode&, const ColumnView&, int64_t, uint8_t*);
// Column-at-a-time forms for EncodeRows: add the sizes of values [begin, begin + count) to
// sizes[0, count), and write value begin + r at base + cursors[r], advancing cursors[r].
using AddSizesFunction = void (*)(const EncodeNode&, const ColumnView&, int64_t, int64_t,
                                  uint32_t*);
using WriteColumnFunction = void (*)(const EncodeNode&, const ColumnView&, int64_t, int64_t,
                                     uint8_t*, uint32_t*);

// The encoding of one type, with its functions chosen once at Make.
struct EncodeNode {
  SizeFunction size = nullptr;
  WriteFunction write = nullptr;
  AddSizesFunction add_sizes = nullptr;
  WriteColumnFunction write_column = nullptr;
  int32_t byte_width = 0;  // fixed-width values
  int32_t list_size = 0;   // fixed-size lists
  std::vector<EncodeNode> children;  // elements; struct fields; map key and item
};

inline uint8_t* WriteU32(uint64_t value, uint8_t* out) {
  // A value this long cannot be framed; the caller's row would be corrupt, so stop here.
  ARROW_CHECK_LE(value, std::numeric_limits<uint32_t>::max()) << "state row value too long";
  uint32_t narrow = static_cast<uint32_t>(value);
  std::memcpy(out, &narrow, sizeof(narrow));
  return out + sizeof(narrow);
}

inline uint8_t* WriteNullFlag(uint8_t* out) {
  *out = 0;
  return out + 1;
}

uint64_t SizeNull(const EncodeNode&, const ColumnView&, int64_t) { return 1; }
uint8_t* WriteNull(const EncodeNode&, const ColumnView&, int64_t, uint8_t* out) {
  return WriteNullFlag(out);
}

uint64_t SizeBoolean(const EncodeNode&, const ColumnView& view, int64_t i) {
  return view.IsNull(i) ? 1 : 2;
}
uint8_t* WriteBoolean(const EncodeNode&, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  out[0] = 1;
  out[1] = arrow::bit_util::GetBit(view.values, view.offset + i) ? 1 : 0;
  return out + 2;
}

uint64_t SizeFixed(const EncodeNode& node, const ColumnView& view, int64_t i) {
  return view.IsNull(i) ? 1 : 1 + node.byte_width;
}

template <int W, FloatKind F>
uint8_t* WriteFixed(const EncodeNode&, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  out[0] = 1;
  CopyValue<W, F>(view.values + (view.offset + i) * W, out + 1);
  return out + 1 + W;
}

// Widths without a specialization (fixed_size_binary(n)); never floats.
uint8_t* WriteFixedAnyWidth(const EncodeNode& node, const ColumnView& view, int64_t i,
                            uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  out[0] = 1;
  std::memcpy(out + 1, view.values + (view.offset + i) * node.byte_width, node.byte_width);
  return out + 1 + node.byte_width;
}

template <int W>
void AddFixedSizes(const EncodeNode&, const ColumnView& view, int64_t begin, int64_t count,
                   uint32_t* sizes) {
  if (view.validity == nullptr) {
    for (int64_t r = 0; r < count; ++r) sizes[r] += 1 + W;
    return;
  }
  for (int64_t r = 0; r < count; ++r) {
    sizes[r] += arrow::bit_util::GetBit(view.validity, view.offset + begin + r) ? 1 + W : 1;
  }
}

template <int W, FloatKind F>
void WriteFixedColumn(const EncodeNode&, const ColumnView& view, int64_t begin, int64_t count,
                      uint8_t* base, uint32_t* cursors) {
  const uint8_t* values = view.values + (view.offset + begin) * W;
  if (view.validity == nullptr) {
    for (int64_t r = 0; r < count; ++r) {
      uint8_t* out = base + cursors[r];
      out[0] = 1;
      CopyValue<W, F>(values + r * W, out + 1);
      cursors[r] += 1 + W;
    }
    return;
  }
  for (int64_t r = 0; r < count; ++r) {
    uint8_t* out = base + cursors[r];
    if (arrow::bit_util::GetBit(view.validity, view.offset + begin + r)) {
      out[0] = 1;
      CopyValue<W, F>(values + r * W, out + 1);
      cursors[r] += 1 + W;
    } else {
      out[0] = 0;
      cursors[r] += 1;
    }
  }
}

template <typename Offset>
uint64_t SizeBinary(const EncodeNode&, const ColumnView& view, int64_t i) {
  if (view.IsNull(i)) return 1;
  const auto* offsets = reinterpret_cast<const Offset*>(view.values) + view.offset + i;
  return 1 + sizeof(uint32_t) + static_cast<uint64_t>(offsets[1] - offsets[0]);
}

template <typename Offset>
uint8_t* WriteBinary(const EncodeNode& node, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  const auto* offsets = reinterpret_cast<const Offset*>(view.values) + view.offset + i;
  uint64_t length = static_cast<uint64_t>(offsets[1] - offsets[0]);
  out[0] = 1;
  out = WriteU32(length, out + 1);
  if (length != 0) std::memcpy(out, view.data + offsets[0], length);
  return out + length;
}

template <typename Offset>
uint64_t SizeList(const EncodeNode& node, const ColumnView& view, int64_t i) {
  if (view.IsNull(i)) return 1;
  const auto* offsets = reinterpret_cast<const Offset*>(view.values) + view.offset + i;
  const EncodeNode& element = node.children[0];
  uint64_t size = 1 + sizeof(uint32_t);
  for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
    size += element.size(element, view.children[0], j);
  }
  return size;
}

template <typename Offset>
uint8_t* WriteList(const EncodeNode& node, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  const auto* offsets = reinterpret_cast<const Offset*>(view.values) + view.offset + i;
  const EncodeNode& element = node.children[0];
  out[0] = 1;
  out = WriteU32(static_cast<uint64_t>(offsets[1] - offsets[0]), out + 1);
  for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
    out = element.write(element, view.children[0], j, out);
  }
  return out;
}

uint64_t SizeFixedSizeList(const EncodeNode& node, const ColumnView& view, int64_t i) {
  if (view.IsNull(i)) return 1;
  const EncodeNode& element = node.children[0];
  int64_t first = (view.offset + i) * node.list_size;
  uint64_t size = 1 + sizeof(uint32_t);
  for (int64_t j = first; j < first + node.list_size; ++j) {
    size += element.size(element, view.children[0], j);
  }
  return size;
}

uint8_t* WriteFixedSizeList(const EncodeNode& node, const ColumnView& view, int64_t i,
                            uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  const EncodeNode& element = node.children[0];
  int64_t first = (view.offset + i) * node.list_size;
  out[0] = 1;
  out = WriteU32(static_cast<uint64_t>(node.list_size), out + 1);
  for (int64_t j = first; j < first + node.list_size; ++j) {
    out = element.write(element, view.children[0], j, out);
  }
  return out;
}

uint64_t SizeStruct(const EncodeNode& node, const ColumnView& view, int64_t i) {
  if (view.IsNull(i)) return 1;
  uint64_t size = 1;
  for (size_t f = 0; f < node.children.size(); ++f) {
    size += node.children[f].size(node.children[f], view.children[f], view.offset + i);
  }
  return size;
}

uint8_t* WriteStruct(const EncodeNode& node, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  *out++ = 1;
  for (size_t f = 0; f < node.children.size(); ++f) {
    out = node.children[f].write(node.children[f], view.children[f], view.offset + i, out);
  }
  return out;
}

// A map's only child is the entries struct, whose fields are key and item; the entries' own
// validity carries no meaning and is ignored.
uint64_t SizeMap(const EncodeNode& node, const ColumnView& view, int64_t i) {
  if (view.IsNull(i)) return 1;
  const auto* offsets = reinterpret_cast<const int32_t*>(view.values) + view.offset + i;
  const ColumnView& entries = view.children[0];
  const EncodeNode& key = node.children[0];
  const EncodeNode& item = node.children[1];
  uint64_t size = 1 + sizeof(uint32_t);
  for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
    size += key.size(key, entries.children[0], entries.offset + j) +
            item.size(item, entries.children[1], entries.offset + j);
  }
  return size;
}

uint8_t* WriteMap(const EncodeNode& node, const ColumnView& view, int64_t i, uint8_t* out) {
  if (view.IsNull(i)) return WriteNullFlag(out);
  const auto* offsets = reinterpret_cast<const int32_t*>(view.values) + view.offset + i;
  const ColumnView& entries = view.children[0];
  const EncodeNode& key = node.children[0];
  const EncodeNode& item = node.children[1];
  out[0] = 1;
  out = WriteU32(static_cast<uint64_t>(offsets[1] - offsets[0]), out + 1);
  for (int64_t j = offsets[0]; j < offsets[1]; ++j) {
    out = key.write(key, entries.children[0], entries.offset + j, out);
    out = item.write(item, entries.children[1], entries.offset + j, out);
  }
  return out;
}

// The column-at-a-time forms of every other type: one call per row through the node.
void AddSizesPerRow(const EncodeNode& node, const ColumnView& view, int64_t begin, int64_t count,
                    uint32_t* sizes) {
  for (int64_t r = 0; r < count; ++r) {
    uint64_t size = sizes[r] + node.size(node, view, begin + r);
    ARROW_CHECK_LE(size, std::numeric_limits<uint32_t>::max()) << "state row past 4 GiB";
    sizes[r] = static_cast<uint32_t>(size);
  }
}

void WriteColumnPerRow(const EncodeNode& node, const ColumnView& view, int64_t begin,
                       int64_t count, uint8_t* base, uint32_t* cursors) {
  for (int64_t r = 0; r < count; ++r) {
    uint8_t* end = node.write(node, view, begin + r, base + cursors[r]);
    cursors[r] = static_cast<uint32_t>(end - base);
  }
}

// A struct column without nulls (window keys are one) is written field by field, so fixed-width
// fields keep their tight loops; with nulls, row by row.
void AddStructSizes(const EncodeNode& node, const ColumnView& view, int64_t begin, int64_t count,
                    uint32_t* sizes) {
  if (view.validity != nullptr) return AddSizesPerRow(node, view, begin, count, sizes);
  for (int64_t r = 0; r < count; ++r) sizes[r] += 1;
  for (size_t f = 0; f < node.children.size(); ++f) {
    node.children[f].add_sizes(node.children[f], view.children[f], view.offset + begin, count,
                               sizes);
  }
}

void WriteStructColumn(const EncodeNode& node, const ColumnView& view, int64_t begin,
                       int64_t count, uint8_t* base, uint32_t* cursors) {
  if (view.validity != nullptr) return WriteColumnPerRow(node, view, begin, count, base, cursors);
  for (int64_t r = 0; r < count; ++r) base[cursors[r]++] = 1;
  for (size_t f = 0; f < node.children.size(); ++f) {
    node.children[f].write_column(node.children[f], view.children[f], view.offset + begin, count,
                                  base, cursors);
  }
}

template <int W, FloatKind F>
void BindFixed(EncodeNode* node) {
  node->write = WriteFixed<W, F>;
  node->add_sizes = AddFixedSizes<W>;
  node->write_column = WriteFixedColumn<W, F>;
}

template <int W>
void BindFixedWidth(EncodeNode* node, FloatKind kind) {
  // Only keys canonicalize, and the float kind fixes the width.
  if constexpr (W == 2) {
    if (kind == FloatKind::kHalf) return BindFixed<W, FloatKind::kHalf>(node);
  } else if constexpr (W == 4) {
    if (kind == FloatKind::kFloat) return BindFixed<W, FloatKind::kFloat>(node);
  } else if constexpr (W == 8) {
    if (kind == FloatKind::kDouble) return BindFixed<W, FloatKind::kDouble>(node);
  }
  BindFixed<W, FloatKind::kNone>(node);
}

arrow::Result<EncodeNode> MakeEncodeNode(const arrow::DataType& type, bool for_keys,
                                         const std::string& where) {
  ARROW_ASSIGN_OR_RAISE(Shape shape, ShapeOf(type, where));
  EncodeNode node;
  node.add_sizes = AddSizesPerRow;
  node.write_column = WriteColumnPerRow;
  switch (shape) {
    case Shape::kNull:
      node.size = SizeNull;
      node.write = WriteNull;
      break;
    case Shape::kBoolean:
      node.size = SizeBoolean;
      node.write = WriteBoolean;
      break;
    case Shape::kFixedWidth: {
      node.byte_width = type.byte_width();
      node.size = SizeFixed;
      FloatKind kind = for_keys ? FloatKindOf(type) : FloatKind::kNone;
      switch (node.byte_width) {
        case 1: BindFixedWidth<1>(&node, kind); break;
        case 2: BindFixedWidth<2>(&node, kind); break;
        case 4: BindFixedWidth<4>(&node, kind); break;
        case 8: BindFixedWidth<8>(&node, kind); break;
        case 16: BindFixedWidth<16>(&node, kind); break;
        case 32: BindFixedWidth<32>(&node, kind); break;
        default: node.write = WriteFixedAnyWidth; break;
      }
      break;
    }
    case Shape::kBinary:
      node.size = SizeBinary<int32_t>;
      node.write = WriteBinary<int32_t>;
      break;
    case Shape::kLargeBinary:
      node.size = SizeBinary<int64_t>;
      node.write = WriteBinary<int64_t>;
      break;
    case Shape::kList:
    case Shape::kLargeList:
    case Shape::kFixedSizeList: {
      ARROW_ASSIGN_OR_RAISE(EncodeNode element,
                            MakeEncodeNode(*type.field(0)->type(), for_keys, where + " element"));
      node.children.push_back(std::move(element));
      if (shape == Shape::kList) {
        node.size = SizeList<int32_t>;
        node.write = WriteList<int32_t>;
      } else if (shape == Shape::kLargeList) {
        node.size = SizeList<int64_t>;
        node.write = WriteList<int64_t>;
      } else {
        node.list_size = static_cast<const arrow::FixedSizeListType&>(type).list_size();
        node.size = SizeFixedSizeList;
        node.write = WriteFixedSizeList;
      }
      break;
    }
    case Shape::kStruct:
      for (const auto& field : type.fields()) {
        ARROW_ASSIGN_OR_RAISE(EncodeNode child, MakeEncodeNode(*field->type(), for_keys,
                                                               where + " field " + field->name()));
        node.children.push_back(std::move(child));
      }
      node.size = SizeStruct;
      node.write = WriteStruct;
      node.add_sizes = AddStructSizes;
      node.write_column = WriteStructColumn;
      break;
    case Shape::kMap: {
      const auto& map = static_cast<const arrow::MapType&>(type);
      ARROW_ASSIGN_OR_RAISE(EncodeNode key,
                            MakeEncodeNode(*map.key_type(), for_keys, where + " key"));
      ARROW_ASSIGN_OR_RAISE(EncodeNode item,
                            MakeEncodeNode(*map.item_type(), for_keys, where + " value"));
      node.children.push_back(std::move(key));
      node.children.push_back(std::move(item));
      node.size = SizeMap;
      node.write = WriteMap;
      break;
    }
  }
  return node;
}

class RowEncoderImpl final : public RowEncoder {
 public:
  RowEncoderImpl(std::vector<std::shared_ptr<arrow::DataType>> types,
                 std::vector<EncodeNode> columns)
      : RowEncoder(std::move(types)), columns_(std::move(columns)) {}

  void EncodeRow(const arrow::ArrayVector& columns, int64_t row,
                 std::string* out) const override {
    ARROW_DCHECK_EQ(columns.size(), columns_.size());
    std::vector<ColumnView> views = Views(columns);
    uint64_t size = 0;
    for (size_t c = 0; c < columns_.size(); ++c) {
      size += columns_[c].size(columns_[c], views[c], row);
    }
    size_t start = out->size();
    out->resize(start + size);
    auto* cursor = reinterpret_cast<uint8_t*>(out->data()) + start;
    for (size_t c = 0; c < columns_.size(); ++c) {
      cursor = columns_[c].write(columns_[c], views[c], row, cursor);
    }
  }

  /// Rows written together: 256 rows of a few hundred bytes stay in the core's cache.
  static constexpr int64_t kRowsPerWriteChunk = 256;

  void EncodeRows(const arrow::ArrayVector& columns, int64_t begin, int64_t count,
                  std::string* out, std::vector<uint32_t>* offsets) const override {
    ARROW_DCHECK_EQ(columns.size(), columns_.size());
    std::vector<ColumnView> views = Views(columns);
    // offsets[r + 1] first collects the size of row r, then (prefix sums) its start, which
    // serves as the row's write cursor; once every column is written it is the row's end,
    // which is exactly offsets[r + 1]. One pass per column keeps the fixed-width loops tight.
    offsets->assign(static_cast<size_t>(count) + 1, 0);
    uint32_t* cursors = offsets->data() + 1;
    for (size_t c = 0; c < columns_.size(); ++c) {
      columns_[c].add_sizes(columns_[c], views[c], begin, count, cursors);
    }
    uint64_t total = 0;
    for (int64_t r = 0; r < count; ++r) {
      uint32_t size = cursors[r];
      cursors[r] = static_cast<uint32_t>(total);
      total += size;
    }
    // uint32_t offsets cannot frame more; the caller encodes smaller slices.
    ARROW_CHECK_LE(total, std::numeric_limits<uint32_t>::max()) << "EncodeRows past 4 GiB";
    out->clear();
    out->resize(total);
    auto* base = reinterpret_cast<uint8_t*>(out->data());
    // Every column of a chunk of rows before the next chunk: a column's pass touches a line of
    // each row, and over a whole slice of wide rows (a join's, 16K rows of 270 bytes) the
    // lines were gone from the cache by the next column's pass.
    for (int64_t start = 0; start < count; start += kRowsPerWriteChunk) {
      const int64_t rows = std::min(kRowsPerWriteChunk, count - start);
      for (size_t c = 0; c < columns_.size(); ++c) {
        columns_[c].write_column(columns_[c], views[c], begin + start, rows, base,
                                 cursors + start);
      }
    }
  }

 private:
  static std::vector<ColumnView> Views(const arrow::ArrayVector& columns) {
    std::vector<ColumnView> views;
    views.reserve(columns.size());
    for (const auto& column : columns) views.push_back(MakeView(*column->data()));
    return views;
  }

  std::vector<EncodeNode> columns_;
};

}  // namespace

arrow::Result<std::shared_ptr<const RowEncoder>> RowEncoder::Make(
    std::vector<std::shared_ptr<arrow::DataType>> types, bool for_keys) {
  std::vector<EncodeNode> columns;
  columns.reserve(types.size());
  for (size_t c = 0; c < types.size(); ++c) {
    ARROW_ASSIGN_OR_RAISE(EncodeNode node,
                          MakeEncodeNode(*types[c], for_keys, ColumnName(c, *types[c])));
    columns.push_back(std::move(node));
  }
  return std::make_shared<const RowEncoderImpl>(std::move(types), std::move(columns));
}

}  // namespace sluice::types
