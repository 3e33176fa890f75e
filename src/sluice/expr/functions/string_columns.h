#pragma once

// Typed readers and writers of string columns for the string and regex function kernels: read a
// utf8/binary argument that is an array or a scalar without copying, build a utf8 (or int32,
// boolean, list<utf8>) result row by row into preallocated buffers, and walk UTF-8 code points
// the way Spark's UTF8String does.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/buffer_builder.h>
#include <arrow/datum.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/scalar.h>
#include <arrow/status.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/expr/elementwise.h"
#include "sluice/expr/functions/byte_counts.h"

namespace sluice::expr {

/// Reads a utf8 or binary argument (array or scalar standing for every row): an array's values
/// where they lie, a scalar's copied once, with room after it (Span).
class StringInput {
 public:
  explicit StringInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      is_scalar_ = true;
      const auto& scalar = *datum.scalar();
      scalar_valid_ = scalar.is_valid && scalar.type->id() != arrow::Type::NA;
      if (scalar_valid_) {
        // A copy with room after it, that Span() gives.
        const std::string_view value = static_cast<const arrow::BaseBinaryScalar&>(scalar).view();
        padded_scalar_ = std::make_shared<std::string>(value.size() + kRoom, '\0');
        std::copy(value.begin(), value.end(), padded_scalar_->begin());
        scalar_value_ = std::string_view(padded_scalar_->data(), value.size());
      }
      return;
    }
    const auto& data = *datum.array();
    if (data.type->id() == arrow::Type::NA) {
      is_scalar_ = true;
      return;
    }
    offsets_ = data.GetValues<int32_t>(1);
    bytes_ = data.buffers[2] ? reinterpret_cast<const char*>(data.buffers[2]->data()) : "";
    bytes_end_ = bytes_ + (data.buffers[2] ? data.buffers[2]->size() : 0);
    validity_ = data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
    offset_ = data.offset;
  }

  bool is_scalar() const { return is_scalar_; }
  bool IsValid(int64_t row) const {
    if (is_scalar_) return scalar_valid_;
    return validity_ == nullptr || arrow::bit_util::GetBit(validity_, offset_ + row);
  }
  /// The validity of rows [begin, begin + n), n <= 64, as the low bits of a word.
  uint64_t ValidBits(int64_t begin, int64_t n) const {
    if (is_scalar_) return scalar_valid_ ? LowBits(n) : 0;
    return BitmapWord(validity_, offset_ + begin, n);
  }
  std::string_view View(int64_t row) const {
    if (is_scalar_) return scalar_value_;
    const int32_t begin = offsets_[row];
    return std::string_view(bytes_ + begin, static_cast<size_t>(offsets_[row + 1] - begin));
  }
  /// The bytes every value lies within, which may be read whole (for loads of whole words or
  /// 16 bytes whatever a value's length): an array's buffer, or a scalar's value with 16
  /// bytes after it.
  std::string_view Span() const {
    if (is_scalar_) return padded_scalar_ ? std::string_view(*padded_scalar_) : std::string_view();
    return std::string_view(bytes_, static_cast<size_t>(bytes_end_ - bytes_));
  }
  /// Bytes of all values together (a reservation hint for outputs).
  int64_t TotalBytes(int64_t num_rows) const {
    if (is_scalar_) return static_cast<int64_t>(scalar_value_.size()) * num_rows;
    return num_rows == 0 ? 0 : offsets_[num_rows] - offsets_[0];
  }

 private:
  static constexpr size_t kRoom = 16;

  bool is_scalar_ = false;
  bool scalar_valid_ = false;
  std::string_view scalar_value_;
  // Where scalar_value_ lies: shared, so that a copy of the input views the same bytes.
  std::shared_ptr<std::string> padded_scalar_;
  const int32_t* offsets_ = nullptr;
  const char* bytes_ = nullptr;
  const char* bytes_end_ = nullptr;
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
};

/// Reads an integer (int32 after implicit casts) argument, array or scalar.
class IntInput {
 public:
  explicit IntInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      is_scalar_ = true;
      const auto& scalar = *datum.scalar();
      scalar_valid_ = scalar.is_valid && scalar.type->id() != arrow::Type::NA;
      if (scalar_valid_) {
        scalar_value_ = scalar.type->id() == arrow::Type::INT64
                            ? static_cast<const arrow::Int64Scalar&>(scalar).value
                            : static_cast<const arrow::Int32Scalar&>(scalar).value;
      }
      return;
    }
    const auto& data = *datum.array();
    if (data.type->id() == arrow::Type::NA) {
      is_scalar_ = true;
      return;
    }
    wide_ = data.type->id() == arrow::Type::INT64;
    values32_ = wide_ ? nullptr : data.GetValues<int32_t>(1);
    values64_ = wide_ ? data.GetValues<int64_t>(1) : nullptr;
    validity_ = data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
    offset_ = data.offset;
  }
  bool is_scalar() const { return is_scalar_; }
  bool IsValid(int64_t row) const {
    if (is_scalar_) return scalar_valid_;
    return validity_ == nullptr || arrow::bit_util::GetBit(validity_, offset_ + row);
  }
  int64_t Value(int64_t row) const {
    if (is_scalar_) return scalar_value_;
    return wide_ ? values64_[row] : values32_[row];
  }

 private:
  bool is_scalar_ = false;
  bool scalar_valid_ = false;
  bool wide_ = false;
  int64_t scalar_value_ = 0;
  const int32_t* values32_ = nullptr;
  const int64_t* values64_ = nullptr;
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
};

/// Builds a utf8 (or binary) array row by row: each row is either appended bytes or a null.
class StringOutput {
 public:
  StringOutput(int64_t num_rows, int64_t data_hint, arrow::MemoryPool* pool,
               std::shared_ptr<arrow::DataType> type = arrow::utf8())
      : type_(std::move(type)), pool_(pool), offsets_(pool), data_(pool) {
    status_ = offsets_.Reserve(num_rows + 1);
    if (status_.ok()) status_ = data_.Reserve(data_hint > 0 ? data_hint : 0);
    if (status_.ok()) offsets_.UnsafeAppend(0);
  }

  /// Starts the bytes of the current row (append with Append/AppendChar, then call EndRow).
  void Append(std::string_view bytes) {
    // An empty view may have no data pointer, which memcpy must never be given.
    if (bytes.empty()) return;
    const auto n = static_cast<int64_t>(bytes.size());
    if (data_.capacity() - data_.length() < n) Grow(n);
    CopyBytes(data_.mutable_data() + data_.length(), bytes.data(), bytes.size());
    data_.UnsafeAdvance(n);
  }
  void AppendChar(char c) {
    if (data_.capacity() == data_.length()) Grow(1);
    data_.UnsafeAppend(reinterpret_cast<const uint8_t*>(&c), 1);
  }
  /// Room for `n` more bytes written directly through the returned pointer; then Advance(n).
  char* Extend(int64_t n) {
    if (data_.capacity() - data_.length() < n) Grow(n);
    return reinterpret_cast<char*>(data_.mutable_data() + data_.length());
  }
  void Advance(int64_t n) { data_.UnsafeAdvance(n); }
  /// Current length of the row being built, from its start.
  int64_t RowLength() const { return data_.length() - offsets_.data()[offsets_.length() - 1]; }
  /// Drops the bytes appended so far for the current row.
  void TruncateRow(int64_t length) {
    data_.Rewind(offsets_.data()[offsets_.length() - 1] + length);
  }

  void EndRow() {
    if (data_.length() > INT32_MAX) overflow_ = true;
    FinishRow(true);
  }
  void AppendNullRow() {
    data_.Rewind(offsets_.data()[offsets_.length() - 1]);
    FinishRow(false);
  }
  void AppendRow(std::string_view bytes) {
    Append(bytes);
    EndRow();
  }
  /// AppendRow of `part`, which lies within `whole` (or is empty; an input's Span): a part of
  /// 1 to 16 bytes with 16 bytes of `whole` from its start is copied as one 16-byte move,
  /// whatever its length. The parts a split takes from Nexmark's urls are 3 or 4 bytes at
  /// random, and the choice of a copy by the length mispredicted half of them (q22 ran a
  /// tenth longer).
  void AppendRowWithin(std::string_view part, std::string_view whole) {
    const auto n = static_cast<int64_t>(part.size());
    if (n == 0 || n > 16 || whole.data() + whole.size() - part.data() < 16) {
      AppendRow(part);
      return;
    }
    std::memcpy(Extend(16), part.data(), 16);
    Advance(n);
    EndRow();
  }
  /// AppendRow of `input`'s value at `row`, as AppendRowWithin its Span.
  void AppendRowFrom(const StringInput& input, int64_t row) {
    AppendRowWithin(input.View(row), input.Span());
  }

  arrow::Result<std::shared_ptr<arrow::ArrayData>> Finish() {
    ARROW_RETURN_NOT_OK(status_);
    if (overflow_) {
      return arrow::Status::CapacityError(
          "A string result is larger than 2 GiB in one batch; use smaller batches.");
    }
    std::shared_ptr<arrow::Buffer> validity, offsets, data;
    if (nulls_ > 0) {
      ARROW_RETURN_NOT_OK(validity_->Resize(arrow::bit_util::BytesForBits(rows_)));
      validity = validity_;
    }
    ARROW_RETURN_NOT_OK(offsets_.Finish(&offsets));
    ARROW_RETURN_NOT_OK(data_.Finish(&data));
    return arrow::ArrayData::Make(type_, rows_, {validity, offsets, data}, nulls_);
  }

 private:
  /// memcpy of `n` >= 1 bytes. Most strings a function appends are a few bytes long (a part of
  /// a url, a word), and a call to memcpy costs more than copying them: up to 16 bytes are
  /// two overlapping fixed-size copies, which compile to moves.
  static void CopyBytes(uint8_t* to, const char* from, size_t n) {
    if (n >= 8 && n <= 16) {
      uint64_t head, tail;
      std::memcpy(&head, from, 8);
      std::memcpy(&tail, from + n - 8, 8);
      std::memcpy(to, &head, 8);
      std::memcpy(to + n - 8, &tail, 8);
    } else if (n >= 4 && n < 8) {
      uint32_t head, tail;
      std::memcpy(&head, from, 4);
      std::memcpy(&tail, from + n - 4, 4);
      std::memcpy(to, &head, 4);
      std::memcpy(to + n - 4, &tail, 4);
    } else if (n < 4) {
      to[0] = static_cast<uint8_t>(from[0]);
      to[n / 2] = static_cast<uint8_t>(from[n / 2]);
      to[n - 1] = static_cast<uint8_t>(from[n - 1]);
    } else {
      std::memcpy(to, from, n);
    }
  }

  void FinishRow(bool valid) {
    if (offsets_.length() < offsets_.capacity()) {
      offsets_.UnsafeAppend(static_cast<int32_t>(data_.length()));
    } else {
      status_ &= offsets_.Append(static_cast<int32_t>(data_.length()));
    }
    if (!valid || validity_ != nullptr) SetValidity(valid);
    ++rows_;
  }
  /// Records the validity of row rows_ once some row is null: the bitmap is made at the first
  /// null, every row before it valid (a bit a row appended to a builder was a tenth of
  /// q22's split parts, whose rows are never null).
  void SetValidity(bool valid) {
    if (rows_ >= validity_rows_ && !GrowValidity()) return;
    arrow::bit_util::SetBitTo(validity_->mutable_data(), rows_, valid);
    nulls_ += valid ? 0 : 1;
  }
  bool GrowValidity() {
    const int64_t rows = std::max({rows_ + 1, 2 * validity_rows_, offsets_.capacity() - 1});
    const int64_t bytes = arrow::bit_util::BytesForBits(rows);
    if (validity_ == nullptr) {
      auto made = arrow::AllocateResizableBuffer(bytes, pool_);
      if (!made.ok()) {
        status_ &= made.status();
        return false;
      }
      validity_ = std::move(made).ValueUnsafe();
      // The rows before the first null are valid; those after set their own bits.
      std::memset(validity_->mutable_data(), 0xFF, static_cast<size_t>(bytes));
    } else {
      const arrow::Status resized = validity_->Resize(bytes);
      if (!resized.ok()) {
        status_ &= resized;
        return false;
      }
    }
    validity_rows_ = bytes * 8;
    return true;
  }
  void Grow(int64_t extra) {
    const int64_t wanted = std::max<int64_t>(data_.length() + extra, data_.capacity() * 2);
    arrow::Status status = data_.Reserve(wanted - data_.length());
    if (!status.ok() && status_.ok()) status_ = status;
  }

  std::shared_ptr<arrow::DataType> type_;
  arrow::MemoryPool* pool_;
  arrow::TypedBufferBuilder<int32_t> offsets_;
  arrow::BufferBuilder data_;
  // None while every row is valid; then a bit for each of validity_rows_ rows.
  std::shared_ptr<arrow::ResizableBuffer> validity_;
  int64_t validity_rows_ = 0;
  int64_t rows_ = 0;
  int64_t nulls_ = 0;
  arrow::Status status_;
  bool overflow_ = false;
};

/// True when every argument is a scalar: kernels then compute one row and return a scalar.
inline bool AllScalars(const std::vector<arrow::Datum>& args) {
  for (const auto& arg : args) {
    if (!arg.is_scalar()) return false;
  }
  return true;
}

/// Wraps a finished one-row-or-more result: a scalar when the inputs were all scalars.
inline arrow::Result<arrow::Datum> FinishDatum(std::shared_ptr<arrow::ArrayData> data,
                                               bool scalar_result) {
  auto array = arrow::MakeArray(std::move(data));
  if (scalar_result) {
    ARROW_ASSIGN_OR_RAISE(auto scalar, array->GetScalar(0));
    return arrow::Datum(std::move(scalar));
  }
  return arrow::Datum(std::move(array));
}

/// Runs `row_fn(row, out)` for every row (one row when all arguments are scalars); `row_fn`
/// appends a row to `out` (a value or a null) and returns a Status.
template <typename RowFn>
arrow::Result<arrow::Datum> MapToStrings(const std::vector<arrow::Datum>& args, int64_t num_rows,
                                         int64_t data_hint, arrow::MemoryPool* pool,
                                         RowFn&& row_fn,
                                         std::shared_ptr<arrow::DataType> type = arrow::utf8()) {
  const bool scalar = AllScalars(args);
  const int64_t rows = scalar ? 1 : num_rows;
  StringOutput out(rows, scalar ? 16 : data_hint, pool, std::move(type));
  for (int64_t row = 0; row < rows; ++row) ARROW_RETURN_NOT_OK(row_fn(row, out));
  ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
  return FinishDatum(std::move(data), scalar);
}

/// Runs `row_fn(row, &value) -> bool valid` (and may fail through `*status`) for every row and
/// builds an array of the fixed-width Arrow type `T` (Int32Type, BooleanType, ...).
template <typename T, typename RowFn>
arrow::Result<arrow::Datum> MapToFixed(const std::vector<arrow::Datum>& args, int64_t num_rows,
                                       arrow::MemoryPool* pool, RowFn&& row_fn) {
  using CType = typename arrow::TypeTraits<T>::CType;
  const bool scalar = AllScalars(args);
  const int64_t rows = scalar ? 1 : num_rows;
  arrow::TypedBufferBuilder<CType> values(pool);
  arrow::TypedBufferBuilder<bool> validity(pool);
  ARROW_RETURN_NOT_OK(values.Reserve(rows));
  ARROW_RETURN_NOT_OK(validity.Reserve(rows));
  for (int64_t row = 0; row < rows; ++row) {
    CType value{};
    ARROW_ASSIGN_OR_RAISE(bool valid, row_fn(row, &value));
    values.UnsafeAppend(value);
    validity.UnsafeAppend(valid);
  }
  const int64_t null_count = validity.false_count();
  std::shared_ptr<arrow::Buffer> validity_buffer, value_buffer;
  ARROW_RETURN_NOT_OK(validity.Finish(&validity_buffer));
  ARROW_RETURN_NOT_OK(values.Finish(&value_buffer));
  if (null_count == 0) validity_buffer = nullptr;
  auto data = arrow::ArrayData::Make(arrow::TypeTraits<T>::type_singleton(), rows,
                                     {validity_buffer, value_buffer}, null_count);
  return FinishDatum(std::move(data), scalar);
}

/// Builds list<utf8> rows: each row appends its elements to `elements` then calls EndList (or
/// AppendNullList).
class StringListOutput {
 public:
  StringListOutput(int64_t num_rows, arrow::MemoryPool* pool,
                   std::shared_ptr<arrow::DataType> type)
      : elements(num_rows, 0, pool), type_(std::move(type)), offsets_(pool), validity_(pool) {
    status_ = offsets_.Reserve(num_rows + 1);
    if (status_.ok()) status_ = validity_.Reserve(num_rows);
    if (status_.ok()) offsets_.UnsafeAppend(0);
  }
  void AppendElement(std::string_view value) {
    elements.AppendRow(value);
    ++count_;
  }
  void EndList() {
    status_ &= offsets_.Append(static_cast<int32_t>(count_));
    status_ &= validity_.Append(true);
  }
  void AppendNullList() {
    status_ &= offsets_.Append(static_cast<int32_t>(count_));
    status_ &= validity_.Append(false);
  }
  arrow::Result<std::shared_ptr<arrow::ArrayData>> Finish() {
    ARROW_RETURN_NOT_OK(status_);
    ARROW_ASSIGN_OR_RAISE(auto child, elements.Finish());
    const int64_t length = validity_.length();
    const int64_t null_count = validity_.false_count();
    std::shared_ptr<arrow::Buffer> validity, offsets;
    ARROW_RETURN_NOT_OK(validity_.Finish(&validity));
    ARROW_RETURN_NOT_OK(offsets_.Finish(&offsets));
    if (null_count == 0) validity = nullptr;
    auto data = arrow::ArrayData::Make(type_, length, {validity, offsets}, null_count);
    data->child_data.push_back(std::move(child));
    return data;
  }

  StringOutput elements;

 private:
  int64_t count_ = 0;
  std::shared_ptr<arrow::DataType> type_;
  arrow::TypedBufferBuilder<int32_t> offsets_;
  arrow::TypedBufferBuilder<bool> validity_;
  arrow::Status status_;
};

// ---- UTF-8 code points, counted the way Spark's UTF8String counts them (by leading byte). ----

/// Bytes taken by the code point that starts with `lead` (1 for continuation or invalid bytes).
inline int Utf8Width(unsigned char lead) {
  if (lead < 0xC0) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return lead < 0xF8 ? 4 : 1;
}

/// Number of code points in `text`: its bytes less its continuation bytes (10xxxxxx).
inline int64_t Utf8Length(std::string_view text) {
  return static_cast<int64_t>(text.size()) - CountContinuationBytes(text);
}

/// Byte offset of code point `index` (0-based) in `text`, or text.size() when past the end.
inline size_t Utf8Offset(std::string_view text, int64_t index) {
  size_t pos = 0;
  while (index > 0 && pos < text.size()) {
    pos += Utf8Width(static_cast<unsigned char>(text[pos]));
    --index;
  }
  return pos < text.size() ? pos : text.size();
}

/// Decodes the code point at `pos` and advances `pos` past it.
inline uint32_t Utf8Decode(std::string_view text, size_t& pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  const int width = Utf8Width(lead);
  if (width == 1 || pos + width > text.size()) {
    ++pos;
    return lead;
  }
  uint32_t cp = lead & (0x7F >> width);
  for (int i = 1; i < width; ++i) cp = (cp << 6) | (static_cast<unsigned char>(text[pos + i]) & 0x3F);
  pos += width;
  return cp;
}

/// Appends the UTF-8 encoding of `cp` to `out`.
inline void Utf8Encode(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// UTF8String.substringSQL: 1-based `pos` (0 acts as 1, negative counts from the end) and
// `length` code points, computed without overflow.
inline std::string_view SubstringSql(std::string_view text, int64_t pos, int64_t length, bool bytes) {
  int64_t start;
  if (pos > 0) {
    start = pos - 1;
  } else if (pos < 0) {
    start = (bytes ? static_cast<int64_t>(text.size()) : Utf8Length(text)) + pos;
  } else {
    start = 0;
  }
  int64_t end = std::clamp<int64_t>(start + length, INT32_MIN, INT32_MAX);
  start = std::max<int64_t>(start, 0);
  if (start >= end) return {};
  if (bytes) {
    const auto size = static_cast<int64_t>(text.size());
    if (start >= size) return {};
    return text.substr(start, std::min(end, size) - start);
  }
  const size_t begin = Utf8Offset(text, start);
  if (begin >= text.size()) return {};
  const size_t stop = begin + Utf8Offset(text.substr(begin), end - start);
  return text.substr(begin, stop - begin);
}

}  // namespace sluice::expr
