// Rows of Arrow columns as byte strings and back: the encoding of state store keys and values.
//
// A row of columns of fixed types is encoded as one byte string; decoding those bytes with the
// same types gives back the same values, bit for bit. An encoder made for keys is canonical for
// grouping instead: two rows that Spark groups together (null equals null, -0.0 equals 0.0,
// every NaN equals every NaN, at any depth of nesting) encode to the same bytes, and rows Spark
// tells apart encode differently, so the bytes of a key can be hashed and compared directly;
// decoding then returns the canonical value (0.0, the quiet NaN), as Spark's grouping does.
//
// The bytes are kept in checkpoints, so the layout is a format (kRowCodecFormatVersion):
//   row       the values of the columns one after another, nothing else
//   value     u8 null flag (0 = null, 1 = present), then, when present, the payload:
//     boolean   one byte, 0 or 1
//     integers, floats, date, timestamp, time, duration, intervals, decimal (32 to 256 bits)
//               the value's bytes in little-endian order (byte width of the type)
//     fixed-size binary
//               the bytes (byte width of the type)
//     string, binary (and large variants)
//               u32 length, bytes
//     list, large list, fixed-size list
//               u32 element count, the elements as values
//     struct    the fields as values
//     map       u32 entry count, then key value, item value for each entry
//   null type  the null flag only (always 0).
// The type parameters that do not change the bytes (timestamp unit and zone, decimal precision
// and scale, field names) come from the types given to Make, so rows must be decoded with the
// types they were encoded with. Other types (unions, dictionaries, extension types, string and
// list views, run-end encoded) are refused by Make.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types {

/// Bumped whenever the byte layout above changes.
inline constexpr uint16_t kRowCodecFormatVersion = 1;

/// Encodes rows of columns of fixed types. Immutable after Make; safe to share between threads.
class RowEncoder {
 public:
  /// An encoder for rows whose columns have `types`; `for_keys` makes it canonical for
  /// grouping (see above). Fails with a clear error naming the type when a type cannot be
  /// encoded.
  static arrow::Result<std::shared_ptr<const RowEncoder>> Make(
      std::vector<std::shared_ptr<arrow::DataType>> types, bool for_keys);

  virtual ~RowEncoder() = default;

  /// Appends the encoding of row `row` of `columns` (one array per type, any offsets) to `out`.
  /// The columns must have the encoder's types. A single value longer than 4 GiB cannot be
  /// framed and aborts the process rather than corrupt state.
  virtual void EncodeRow(const arrow::ArrayVector& columns, int64_t row,
                         std::string* out) const = 0;

  /// Encodes rows [begin, begin + count) of `columns` into `out` (cleared first): the bytes of
  /// row begin + i are out->substr(offsets[i], offsets[i + 1] - offsets[i]); `offsets` gets
  /// count + 1 entries. Faster than calling EncodeRow per row: fixed-width columns are
  /// written a column at a time. The total must stay under 4 GiB (the offsets are u32);
  /// callers encode larger batches in slices, and a call past it aborts rather than corrupt.
  virtual void EncodeRows(const arrow::ArrayVector& columns, int64_t begin, int64_t count,
                          std::string* out, std::vector<uint32_t>* offsets) const = 0;

  const std::vector<std::shared_ptr<arrow::DataType>>& types() const { return types_; }

 protected:
  explicit RowEncoder(std::vector<std::shared_ptr<arrow::DataType>> types)
      : types_(std::move(types)) {}

 private:
  std::vector<std::shared_ptr<arrow::DataType>> types_;
};

/// Decodes encoded rows back into columns. Not thread-safe: one decoder per thread.
class RowDecoder {
 public:
  /// A decoder of rows encoded with the same `types`, building arrays from `pool`.
  static arrow::Result<std::unique_ptr<RowDecoder>> Make(
      std::vector<std::shared_ptr<arrow::DataType>> types,
      arrow::MemoryPool* pool = arrow::default_memory_pool());

  virtual ~RowDecoder() = default;

  /// Appends the values of one encoded row. Fails with Invalid, saying what was malformed
  /// (truncated bytes, trailing bytes, a bad null flag, a length past the end), when `row` was
  /// not produced by an encoder of the same types; it never reads outside `row`. After a
  /// failure the decoder is unusable: Append and Finish return the same error. Appending more
  /// than 2^31 - 1 string bytes or list elements to a column with 32-bit offsets before Finish
  /// fails with CapacityError.
  virtual arrow::Status Append(std::string_view row) = 0;

  /// Makes room for `rows` more rows, where the space they take follows from their types
  /// (fixed-width values, booleans, offsets, the fields of structs): a caller that knows how
  /// many rows it will append spares the arrays' growth, each step a copy into fresh memory.
  virtual arrow::Status Reserve(int64_t rows) = 0;

  /// Rows appended so far.
  virtual int64_t num_rows() const = 0;

  /// The appended rows as one array per type (each with the type given to Make); the decoder
  /// is empty afterwards and can decode the next rows.
  virtual arrow::Result<arrow::ArrayVector> Finish() = 0;
};

/// The byte just past the value of `type` that starts at byte `position` of the encoded row
/// `row`: how to reach one column of an encoded row without decoding the columns before it.
/// nullopt when the bytes end before the value does or `type` cannot be encoded.
std::optional<size_t> EncodedValueEnd(const arrow::DataType& type, std::string_view row,
                                      size_t position);

/// One column of rows encoded with the same types, found as EncodedValueEnd finds it but with
/// what each column takes looked up once: for the eviction scans, which read one column of
/// every row kept.
class EncodedColumnSeeker {
 public:
  /// For column `column` of rows of columns `types`.
  EncodedColumnSeeker(const std::vector<std::shared_ptr<arrow::DataType>>& types, int column);

  /// The bytes of the column's value in `row` (its null flag, then its payload); nullopt when
  /// the row ends before the value does.
  std::optional<std::string_view> Find(std::string_view row) const;

 private:
  /// How a column is stepped over when not null: by a fixed number of bytes, by the length
  /// that follows its null flag, or by EncodedValueEnd (nested values).
  struct Skip {
    enum class Kind { kFixed, kLengthPrefixed, kNested } kind;
    size_t width;
    const arrow::DataType* type;
  };
  /// The byte just past the value `skip` describes that starts at `position` of `row`.
  static std::optional<size_t> Past(const Skip& skip, std::string_view row, size_t position);

  /// The columns up to the sought one, which is the last.
  std::vector<Skip> columns_;
  /// Their types, kept alive for the nested skips.
  std::vector<std::shared_ptr<arrow::DataType>> types_;
};

}  // namespace sluice::types
