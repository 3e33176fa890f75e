#include "sluice/formats/parquet_column_decoder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <utility>

#include <arrow/buffer.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_generate.h>
#include <parquet/column_page.h>
#include <parquet/exception.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>

namespace sluice::formats {

/// The indices of a dictionary-encoded page: Parquet's hybrid of runs of one repeated value
/// and runs of values bit-packed in groups of eight, each run behind a varint header.
class ParquetColumnDecoder::Indices {
 public:
  Indices(const uint8_t* data, const uint8_t* end, int bit_width)
      : next_(data),
        end_(end),
        bit_width_(bit_width),
        mask_(bit_width == 32 ? 0xffffffffu : (uint32_t{1} << bit_width) - 1),
        unpack_groups_(GroupUnpackerOf(bit_width)) {}

  /// Writes the next `count` indices to `out`; false when the page ends first.
  bool Get(int64_t count, uint32_t* out) {
    while (count > 0) {
      while (run_left_ == 0) {
        if (!NextRun()) return false;
      }
      const int64_t n = std::min(count, run_left_);
      if (packed_ != nullptr) {
        UnpackRun(n, out);
      } else {
        std::fill(out, out + n, repeated_);
      }
      out += n;
      count -= n;
      run_left_ -= n;
    }
    return true;
  }

 private:
  bool NextRun() {
    uint64_t header = 0;
    for (int shift = 0;; shift += 7) {
      if (next_ == end_ || shift > 28) return false;
      const uint8_t byte = *next_++;
      header |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) break;
    }
    if ((header & 1) != 0) {
      // Bit-packed: header/2 groups of eight values. A writer may end the page's last group
      // short of its bytes; only the values wholly present count.
      const int64_t groups = static_cast<int64_t>(header >> 1);
      const int64_t bytes = std::min<int64_t>(groups * bit_width_, end_ - next_);
      packed_ = next_;
      packed_end_ = next_ + bytes;
      packed_index_ = 0;
      run_left_ = bit_width_ == 0 ? groups * 8 : std::min(groups * 8, bytes * 8 / bit_width_);
      next_ += bytes;
    } else {
      const int64_t bytes = (bit_width_ + 7) / 8;
      if (end_ - next_ < bytes) return false;
      uint32_t value = 0;
      std::memcpy(&value, next_, static_cast<size_t>(bytes));  // little-endian
      next_ += bytes;
      repeated_ = value & mask_;
      packed_ = nullptr;
      run_left_ = static_cast<int64_t>(header >> 1);
    }
    return true;
  }

  /// Unpacks the next `n` values of the bit-packed run. Whole groups of eight are unpacked
  /// by a function made for the bit width, with shifts known when compiled: value by value, the
  /// unpacking was most of the time q0 spent on its dictionary-encoded columns.
  void UnpackRun(int64_t n, uint32_t* out) {
    int64_t i = 0;
    for (; i < n && packed_index_ % 8 != 0; ++i) out[i] = Unpack(packed_index_++);
    // A group's words are read 8 bytes at a time from within its bit_width_ bytes: the groups
    // with 8 bytes of the page after them.
    const int64_t whole = (n - i) / 8;
    const uint8_t* group = packed_ + packed_index_ / 8 * bit_width_;
    const int64_t safe = end_ - group < 8 ? 0 : (end_ - group - 8) / std::max(bit_width_, 1);
    const int64_t groups = std::min(whole, safe);
    unpack_groups_(group, groups, out + i);
    i += groups * 8;
    packed_index_ += groups * 8;
    for (; i < n; ++i) out[i] = Unpack(packed_index_++);
  }

  using GroupUnpacker = void (*)(const uint8_t* in, int64_t groups, uint32_t* out);

  /// Unpacks `groups` groups of eight values of `Width` bits at `in`, reading each value as
  /// the 8 bytes from the one it starts in: `in` must have 8 bytes after its groups.
  template <int Width>
  static void UnpackGroups(const uint8_t* in, int64_t groups, uint32_t* out) {
    constexpr uint32_t kMask = Width == 32 ? 0xffffffffu : (uint32_t{1} << Width) - 1;
    for (int64_t g = 0; g < groups; ++g, in += Width, out += 8) {
      [&]<int... K>(std::integer_sequence<int, K...>) {
        ((out[K] = [&] {
           uint64_t word;
           std::memcpy(&word, in + K * Width / 8, 8);
           return static_cast<uint32_t>(word >> (K * Width % 8)) & kMask;
         }()),
         ...);
      }(std::make_integer_sequence<int, 8>());
    }
  }

  static GroupUnpacker GroupUnpackerOf(int bit_width) {
    static constexpr auto kUnpackers = []<int... W>(std::integer_sequence<int, W...>) {
      return std::array<GroupUnpacker, sizeof...(W)>{&UnpackGroups<W>...};
    }(std::make_integer_sequence<int, 33>());
    return kUnpackers[static_cast<size_t>(bit_width)];
  }

  uint32_t Unpack(int64_t i) const {
    const int64_t bit = i * bit_width_;
    const uint8_t* at = packed_ + (bit >> 3);
    uint64_t word = 0;
    if (packed_end_ - at >= 8) {
      std::memcpy(&word, at, 8);
    } else {
      std::memcpy(&word, at, static_cast<size_t>(packed_end_ - at));
    }
    return static_cast<uint32_t>(word >> (bit & 7)) & mask_;
  }

  const uint8_t* next_;
  const uint8_t* const end_;
  const int bit_width_;
  const uint32_t mask_;
  const GroupUnpacker unpack_groups_;
  int64_t run_left_ = 0;
  const uint8_t* packed_ = nullptr;  // null in a run of one repeated value
  const uint8_t* packed_end_ = nullptr;
  int64_t packed_index_ = 0;
  uint32_t repeated_ = 0;
};

/// Byte arrays of a batch: their offsets and bytes, the bytes' buffer grown as values come.
class ParquetColumnDecoder::BytesOut {
 public:
  arrow::Status Start(int64_t rows, int64_t expected_bytes, arrow::MemoryPool* pool) {
    ARROW_ASSIGN_OR_RAISE(offsets_, arrow::AllocateBuffer((rows + 1) * 4, pool));
    ARROW_ASSIGN_OR_RAISE(bytes_, arrow::AllocateResizableBuffer(expected_bytes, pool));
    offset_ = reinterpret_cast<int32_t*>(offsets_->mutable_data());
    offset_[0] = 0;
    return arrow::Status::OK();
  }
  arrow::Status Append(const uint8_t* value, int64_t length) {
    if (size_ + length > bytes_->capacity()) {
      if (size_ + length > std::numeric_limits<int32_t>::max()) {
        return arrow::Status::CapacityError("the values of a batch exceed 2 GiB");
      }
      ARROW_RETURN_NOT_OK(bytes_->Reserve(std::max(2 * bytes_->capacity(), size_ + length)));
    }
    std::memcpy(bytes_->mutable_data() + size_, value, static_cast<size_t>(length));
    size_ += length;
    return arrow::Status::OK();
  }
  /// Append of a value from memory readable up to `readable_end`: a short one is copied in
  /// 32-byte strides, reading and writing up to 31 bytes past it (into the buffer's spare
  /// room, which the next value overwrites), a few moves instead of a call to memcpy per value:
  /// a tenth of q0's reading of `bid.extra` (70 bytes a value) went to those calls.
  arrow::Status Append(const uint8_t* value, int64_t length, const uint8_t* readable_end) {
    constexpr int64_t kStride = 32;
    constexpr int64_t kLongest = 4 * kStride;  // longer ones are left to memcpy
    const int64_t strided = (length + kStride - 1) / kStride * kStride;
    if (length > kLongest || size_ + strided > bytes_->capacity() ||
        readable_end - value < strided) {
      return Append(value, length);
    }
    uint8_t* to = bytes_->mutable_data() + size_;
    for (int64_t at = 0; at < strided; at += kStride) std::memcpy(to + at, value + at, kStride);
    size_ += length;
    return arrow::Status::OK();
  }
  void EndRow(int64_t row) { offset_[row + 1] = static_cast<int32_t>(size_); }
  int64_t size() const { return size_; }
  arrow::Result<std::pair<std::shared_ptr<arrow::Buffer>, std::shared_ptr<arrow::Buffer>>>
  Finish() {
    ARROW_RETURN_NOT_OK(bytes_->Resize(size_, /*shrink_to_fit=*/false));
    return std::make_pair(std::shared_ptr<arrow::Buffer>(std::move(offsets_)),
                          std::shared_ptr<arrow::Buffer>(std::move(bytes_)));
  }

 private:
  std::unique_ptr<arrow::Buffer> offsets_;
  std::unique_ptr<arrow::ResizableBuffer> bytes_;
  int32_t* offset_ = nullptr;
  int64_t size_ = 0;
};

namespace {

int WidthOf(parquet::Type::type physical) {
  switch (physical) {
    case parquet::Type::INT32:
    case parquet::Type::FLOAT:
      return 4;
    case parquet::Type::INT64:
    case parquet::Type::DOUBLE:
      return 8;
    default:
      return 0;
  }
}

/// The unit of an int64 column's timestamps (none: -1): a file's own Arrow schema may ask for
/// another, which Arrow's reader converts to.
int UnitOf(const parquet::ColumnDescriptor& column) {
  const auto& logical = column.logical_type();
  if (logical != nullptr && logical->is_timestamp()) {
    switch (static_cast<const parquet::TimestampLogicalType&>(*logical).time_unit()) {
      case parquet::LogicalType::TimeUnit::MILLIS:
        return arrow::TimeUnit::MILLI;
      case parquet::LogicalType::TimeUnit::MICROS:
        return arrow::TimeUnit::MICRO;
      case parquet::LogicalType::TimeUnit::NANOS:
        return arrow::TimeUnit::NANO;
      default:
        return -1;
    }
  }
  switch (column.converted_type()) {
    case parquet::ConvertedType::TIMESTAMP_MILLIS:
      return arrow::TimeUnit::MILLI;
    case parquet::ConvertedType::TIMESTAMP_MICROS:
      return arrow::TimeUnit::MICRO;
    default:
      return -1;
  }
}

/// Writes the packed values of `packed` to the rows of `out` whose level is `present`, and
/// zeros to the others.
template <size_t kWidth>
void Spread(const uint8_t* packed, const int16_t* levels, int64_t rows, int16_t present,
            uint8_t* out) {
  for (int64_t i = 0; i < rows; ++i, out += kWidth) {
    if (levels[i] == present) {
      std::memcpy(out, packed, kWidth);
      packed += kWidth;
    } else {
      std::memset(out, 0, kWidth);
    }
  }
}

}  // namespace

bool ParquetColumnDecoder::Decodes(const parquet::ColumnDescriptor& column,
                                   const arrow::DataType& type,
                                   const parquet::ColumnChunkMetaData& chunk) {
  if (column.max_repetition_level() != 0 || chunk.crypto_metadata() != nullptr) return false;
  for (parquet::Encoding::type encoding : chunk.encodings()) {
    switch (encoding) {
      case parquet::Encoding::PLAIN:
      case parquet::Encoding::PLAIN_DICTIONARY:
      case parquet::Encoding::RLE_DICTIONARY:
      case parquet::Encoding::RLE:
        break;
      default:
        return false;
    }
  }
  switch (column.physical_type()) {
    case parquet::Type::INT32:
      return type.id() == arrow::Type::INT32 || type.id() == arrow::Type::DATE32;
    case parquet::Type::INT64:
      return type.id() == arrow::Type::INT64 ||
             (type.id() == arrow::Type::TIMESTAMP &&
              UnitOf(column) == static_cast<const arrow::TimestampType&>(type).unit());
    case parquet::Type::FLOAT:
      return type.id() == arrow::Type::FLOAT;
    case parquet::Type::DOUBLE:
      return type.id() == arrow::Type::DOUBLE;
    case parquet::Type::BYTE_ARRAY:
      return type.id() == arrow::Type::STRING || type.id() == arrow::Type::BINARY;
    default:
      return false;
  }
}

ParquetColumnDecoder::ParquetColumnDecoder(std::unique_ptr<parquet::PageReader> pages,
                                           const parquet::ColumnDescriptor& column,
                                           std::shared_ptr<arrow::DataType> type,
                                           std::string name, arrow::MemoryPool* pool)
    : pages_(std::move(pages)),
      type_(std::move(type)),
      name_(std::move(name)),
      pool_(pool),
      max_level_(column.max_definition_level()),
      width_(WidthOf(column.physical_type())) {}

ParquetColumnDecoder::~ParquetColumnDecoder() = default;

arrow::Status ParquetColumnDecoder::Corrupt(const std::string& what) const {
  return arrow::Status::IOError("Parquet column ", name_, ": ", what);
}

arrow::Status ParquetColumnDecoder::ReadDictionary(const parquet::Page& page) {
  const auto& dictionary = static_cast<const parquet::DictionaryPage&>(page);
  const int64_t count = dictionary.num_values();
  const uint8_t* data = dictionary.data();
  const int64_t size = dictionary.size();
  if (dictionary.encoding() != parquet::Encoding::PLAIN &&
      dictionary.encoding() != parquet::Encoding::PLAIN_DICTIONARY) {
    return Corrupt("its dictionary page is not plain-encoded");
  }
  if (count < 0) return Corrupt("its dictionary page has a negative count of values");
  if (width_ > 0) {
    if (count * width_ > size) return Corrupt("its dictionary page ends before its values");
    dictionary_.assign(data, data + count * width_);
  } else {
    // Byte arrays: their bytes back to back, and where each begins.
    dictionary_.clear();
    dictionary_.reserve(static_cast<size_t>(size));
    dictionary_offsets_.assign(1, 0);
    int64_t at = 0;
    for (int64_t i = 0; i < count; ++i) {
      int32_t length = 0;
      if (size - at < 4) return Corrupt("its dictionary page ends before its values");
      std::memcpy(&length, data + at, 4);
      if (length < 0 || length > size - at - 4) {
        return Corrupt("its dictionary page ends before its values");
      }
      dictionary_.insert(dictionary_.end(), data + at + 4, data + at + 4 + length);
      dictionary_offsets_.push_back(static_cast<int32_t>(dictionary_.size()));
      at += 4 + length;
    }
  }
  dictionary_size_ = count;
  return arrow::Status::OK();
}

arrow::Status ParquetColumnDecoder::NextDataPage() {
  while (true) {
    std::shared_ptr<parquet::Page> page = pages_->NextPage();
    if (page == nullptr) return Corrupt("its pages end before its row group's rows");
    if (page->type() == parquet::PageType::DICTIONARY_PAGE) {
      ARROW_RETURN_NOT_OK(ReadDictionary(*page));
      continue;
    }
    if (page->type() != parquet::PageType::DATA_PAGE &&
        page->type() != parquet::PageType::DATA_PAGE_V2) {
      continue;  // an index page
    }
    const auto& data = static_cast<const parquet::DataPage&>(*page);
    const uint8_t* bytes = data.data();
    int64_t size = data.size();
    const int32_t rows = data.num_values();
    if (page->type() == parquet::PageType::DATA_PAGE) {
      if (max_level_ > 0) {
        const auto& v1 = static_cast<const parquet::DataPageV1&>(data);
        if (v1.definition_level_encoding() != parquet::Encoding::RLE) {
          return Corrupt("its definition levels are not RLE-encoded");
        }
        const int used = levels_.SetData(parquet::Encoding::RLE, max_level_, rows, bytes,
                                         static_cast<int32_t>(size));
        bytes += used;
        size -= used;
      }
    } else {
      const auto& v2 = static_cast<const parquet::DataPageV2&>(data);
      const int64_t repetition = v2.repetition_levels_byte_length();
      const int64_t definition = v2.definition_levels_byte_length();
      if (repetition < 0 || definition < 0 || repetition + definition > size) {
        return Corrupt("its page's level lengths exceed the page");
      }
      if (max_level_ > 0) {
        levels_.SetDataV2(static_cast<int32_t>(definition), max_level_, rows,
                          bytes + repetition);
      }
      bytes += repetition + definition;
      size -= repetition + definition;
    }
    switch (data.encoding()) {
      case parquet::Encoding::PLAIN:
        plain_ = bytes;
        plain_end_ = bytes + size;
        indices_.reset();
        break;
      case parquet::Encoding::PLAIN_DICTIONARY:
      case parquet::Encoding::RLE_DICTIONARY:
        if (dictionary_size_ < 0) {
          return Corrupt("it has dictionary-encoded values and no dictionary page");
        }
        if (size < 1 || bytes[0] > 32) return Corrupt("its dictionary indices are malformed");
        indices_ = std::make_unique<Indices>(bytes + 1, bytes + size, bytes[0]);
        break;
      default:
        return Corrupt("it has a page of encoding " + parquet::EncodingToString(data.encoding()) +
                       ", which this reader does not decode");
    }
    page_ = std::move(page);
    page_rows_left_ = rows;
    if (rows > 0) return arrow::Status::OK();
  }
}

arrow::Status ParquetColumnDecoder::TakeFixed(int64_t count, uint8_t* out) {
  const size_t width = static_cast<size_t>(width_);
  if (indices_ == nullptr) {
    if (plain_end_ - plain_ < count * width_) return Corrupt("a page ends before its values");
    std::memcpy(out, plain_, count * width);
    plain_ += count * width_;
    return arrow::Status::OK();
  }
  index_batch_.resize(static_cast<size_t>(count));
  uint32_t* indices = index_batch_.data();
  if (!indices_->Get(count, indices)) return Corrupt("a page ends before its values");
  const uint8_t* dictionary = dictionary_.data();
  uint32_t highest = 0;
  for (int64_t i = 0; i < count; ++i) highest = std::max(highest, indices[i]);
  if (count > 0 && highest >= static_cast<uint64_t>(dictionary_size_)) {
    return Corrupt("a dictionary index is outside its dictionary");
  }
  if (width_ == 8) {
    for (int64_t i = 0; i < count; ++i) std::memcpy(out + i * 8, dictionary + indices[i] * 8, 8);
  } else {
    for (int64_t i = 0; i < count; ++i) std::memcpy(out + i * 4, dictionary + indices[i] * 4, 4);
  }
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> ParquetColumnDecoder::Read(
    int64_t rows, std::vector<int16_t>* levels) {
  try {
    return ReadBatch(rows, levels);
  } catch (const parquet::ParquetException& e) {
    return Corrupt(e.what());
  }
}

arrow::Result<std::shared_ptr<arrow::ArrayData>> ParquetColumnDecoder::ReadBatch(
    int64_t rows, std::vector<int16_t>* levels) {
  std::shared_ptr<arrow::Buffer> validity;
  // Resized without clearing: the levels decoded overwrite every one of them.
  levels->resize(max_level_ > 0 ? static_cast<size_t>(rows) : 0);
  if (max_level_ > 0) {
    ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(rows, pool_));
  }
  std::shared_ptr<arrow::Buffer> values;
  BytesOut bytes;
  if (width_ > 0) {
    ARROW_ASSIGN_OR_RAISE(values, arrow::AllocateBuffer(rows * width_, pool_));
  } else {
    // A quarter more than the last batch's values took: the buffer seldom has to move.
    ARROW_RETURN_NOT_OK(bytes.Start(rows, rows * bytes_per_value_ * 5 / 4 + 64, pool_));
  }
  int64_t nulls = 0;
  for (int64_t done = 0; done < rows;) {
    if (page_rows_left_ == 0) ARROW_RETURN_NOT_OK(NextDataPage());
    const int64_t n = std::min(rows - done, page_rows_left_);
    const int16_t* level = max_level_ > 0 ? levels->data() + done : nullptr;
    int64_t present = n;
    if (level != nullptr) {
      ARROW_ASSIGN_OR_RAISE(present,
                            DecodeLevels(n, levels->data() + done, validity->mutable_data(), done));
    }
    nulls += n - present;
    if (width_ > 0) {
      ARROW_RETURN_NOT_OK(DecodeFixed(n, present, level, values->mutable_data() + done * width_));
    } else {
      const arrow::Status decoded = DecodeBytes(n, present, level, done, &bytes);
      if (decoded.IsCapacityError()) {
        return decoded.WithMessage("Parquet column ", name_, ": ", decoded.message());
      }
      ARROW_RETURN_NOT_OK(decoded);
    }
    page_rows_left_ -= n;
    done += n;
  }
  if (nulls == 0) validity = nullptr;
  if (width_ > 0) {
    return arrow::ArrayData::Make(type_, rows, {std::move(validity), std::move(values)}, nulls);
  }
  if (rows > 0) bytes_per_value_ = bytes.size() / rows + 1;
  ARROW_ASSIGN_OR_RAISE(auto buffers, bytes.Finish());
  return arrow::ArrayData::Make(
      type_, rows, {std::move(validity), std::move(buffers.first), std::move(buffers.second)},
      nulls);
}

arrow::Result<int64_t> ParquetColumnDecoder::DecodeLevels(int64_t rows, int16_t* levels,
                                                          uint8_t* validity, int64_t first_row) {
  if (levels_.Decode(static_cast<int>(rows), levels) != rows) {
    return Corrupt("its definition levels end before its values");
  }
  int16_t lowest = 0;
  int16_t highest = 0;
  int64_t present = 0;
  for (int64_t i = 0; i < rows; ++i) {
    lowest = std::min(lowest, levels[i]);
    highest = std::max(highest, levels[i]);
    present += levels[i] == max_level_;
  }
  if (lowest < 0 || highest > max_level_) {
    return Corrupt("a definition level is outside the column's levels");
  }
  if (present == rows) {
    arrow::bit_util::SetBitsTo(validity, first_row, rows, true);
  } else {
    const int16_t* level = levels;
    arrow::internal::GenerateBitsUnrolled(validity, first_row, rows,
                                          [&] { return *level++ == max_level_; });
  }
  return present;
}

arrow::Status ParquetColumnDecoder::DecodeFixed(int64_t rows, int64_t present,
                                                const int16_t* levels, uint8_t* out) {
  if (present == rows) return TakeFixed(rows, out);
  // Decoded packed, then spread over the rows that hold a value.
  fixed_batch_.resize(static_cast<size_t>(present * width_));
  ARROW_RETURN_NOT_OK(TakeFixed(present, fixed_batch_.data()));
  if (width_ == 8) {
    Spread<8>(fixed_batch_.data(), levels, rows, max_level_, out);
  } else {
    Spread<4>(fixed_batch_.data(), levels, rows, max_level_, out);
  }
  return arrow::Status::OK();
}

arrow::Status ParquetColumnDecoder::DecodeBytes(int64_t rows, int64_t present,
                                                const int16_t* levels, int64_t first_row,
                                                BytesOut* out) {
  if (indices_ == nullptr) {
    // The page's place in a local: stored through the member, it was reloaded every value.
    const uint8_t* at = plain_;
    for (int64_t i = 0; i < rows; ++i) {
      if (levels == nullptr || levels[i] == max_level_) {
        int32_t length = 0;
        if (plain_end_ - at < 4) return Corrupt("a page ends before its values");
        std::memcpy(&length, at, 4);
        if (length < 0 || length > plain_end_ - at - 4) {
          return Corrupt("a page ends before its values");
        }
        ARROW_RETURN_NOT_OK(out->Append(at + 4, length, plain_end_));
        at += 4 + length;
      }
      out->EndRow(first_row + i);
    }
    plain_ = at;
    return arrow::Status::OK();
  }
  index_batch_.resize(static_cast<size_t>(present));
  uint32_t* indices = index_batch_.data();
  if (!indices_->Get(present, indices)) return Corrupt("a page ends before its values");
  const auto size = static_cast<uint32_t>(dictionary_size_);
  const uint8_t* dictionary_end = dictionary_.data() + dictionary_.size();
  for (int64_t i = 0, j = 0; i < rows; ++i) {
    if (levels == nullptr || levels[i] == max_level_) {
      const uint32_t index = indices[j++];
      if (index >= size) return Corrupt("a dictionary index is outside its dictionary");
      const int32_t begin = dictionary_offsets_[index];
      ARROW_RETURN_NOT_OK(out->Append(dictionary_.data() + begin,
                                      dictionary_offsets_[index + 1] - begin, dictionary_end));
    }
    out->EndRow(first_row + i);
  }
  return arrow::Status::OK();
}

}  // namespace sluice::formats
