// Internal to the CAST implementation (cast*.cc): the per-family array casts and Spark's errors.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/decimal.h>

#include "sluice/datetime/zone.h"

namespace sluice::expr::cast_internal {

/// How one CAST evaluates: whether a value that does not convert fails (ANSI, not try_cast) or
/// becomes null, in which zone, and the query's current time (for strings holding a time only).
struct CastSettings {
  bool fail_on_error = true;
  /// ANSI mode off (and not try_cast): Java's wrapping and saturating conversions instead of
  /// overflow checks, and Spark's legacy leniency in parsing.
  bool legacy = false;
  const datetime::TimeZone* zone = nullptr;
  int64_t now_micros = 0;
  arrow::MemoryPool* pool = nullptr;
  /// To string as show() prints (Spark's ToPrettyString): binary as its bytes in hex,
  /// "[68 65 6C]", and nulls inside arrays, maps and structs as NULL.
  bool pretty = false;
};

/// Casts every value of `input` to `target` (a cast CanCast allows).
arrow::Result<std::shared_ptr<arrow::Array>> CastArray(const std::shared_ptr<arrow::Array>& input,
                                                       const std::shared_ptr<arrow::DataType>& target,
                                                       const CastSettings& settings);

/// Any type to string, as Spark prints values (nested types included).
arrow::Result<std::shared_ptr<arrow::Array>> CastToString(const arrow::Array& input,
                                                          const CastSettings& settings);

/// String to binary, boolean, any number, date, timestamp or timestamp_ntz.
arrow::Result<std::shared_ptr<arrow::Array>> CastFromString(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings);

/// Between numbers and booleans.
arrow::Result<std::shared_ptr<arrow::Array>> CastNumeric(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings);

/// Between dates, timestamps and timestamp_ntz, and between numbers and timestamps.
arrow::Result<std::shared_ptr<arrow::Array>> CastDatetime(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings);

/// Spark's upper-case type name for messages: "INT", "DECIMAL(10,2)".
std::string TypeSql(const arrow::DataType& type);

/// Spark's SQL rendering of one value of `array` for messages: 'abc', 300, 3000000000L, 1.0E10D,
/// 123.5BD, TIMESTAMP '2024-01-01 00:00:00'.
std::string ValueSql(const arrow::Array& array, int64_t index, const CastSettings& settings);

/// CAST_INVALID_INPUT for value `value_sql` of `from` cast to `to`.
arrow::Status InvalidInput(std::string_view value_sql, const arrow::DataType& from,
                           const arrow::DataType& to);

/// CAST_OVERFLOW for value `value_sql` of `from` cast to `to`.
arrow::Status Overflow(std::string_view value_sql, const arrow::DataType& from,
                       const arrow::DataType& to);

/// NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION: `value_text` (plain decimal text) does not fit
/// decimal(precision, scale).
arrow::Status DecimalOutOfRange(std::string_view value_text, int32_t precision, int32_t scale);

/// INTERNAL_ERROR for a type pair that CanCast admitted but no kernel handles: an engine bug,
/// never a user error.
arrow::Status MissingCastKernel(const arrow::DataType& from, const arrow::DataType& to);

/// Whether `from` and `to` are interval types of one family with other fields: Arrow sees one
/// type, but the cast drops what is below the target's end field.
bool ChangesIntervalFields(const arrow::DataType& from, const arrow::DataType& to);

/// Rescales `value` from `scale` to `new_scale`, rounding HALF_UP; false when the result does not
/// fit `precision` digits.
bool RescaleDecimal(const arrow::Decimal128& value, int32_t scale, int32_t precision,
                    int32_t new_scale, arrow::Decimal128* out);

/// Parses a decimal number as java.math.BigDecimal does ("1.5", "-.5", "1e3", "+7") and rounds it
/// HALF_UP to decimal(precision, scale). Returns 0 on success, 1 when the text is not a number,
/// 2 when the value does not fit (`*plain` then holds the number in plain notation, for the
/// error message).
int ParseDecimal(std::string_view text, int32_t precision, int32_t scale, arrow::Decimal128* out,
                 std::string* plain);

/// Integer division of decimals' unscaled values (truncating); false on division by zero.
inline bool DivideDecimal(const arrow::Decimal128& dividend, const arrow::Decimal128& divisor,
                          arrow::Decimal128* quotient, arrow::Decimal128* remainder) {
  return static_cast<const arrow::BasicDecimal128&>(dividend).Divide(divisor, quotient,
                                                                     remainder) ==
         arrow::DecimalStatus::kSuccess;
}

/// A fixed-width output column under construction: values, validity and null count.
template <typename CType>
struct FixedWidthOutput {
  std::shared_ptr<arrow::Buffer> values;
  std::shared_ptr<arrow::Buffer> validity;
  CType* data = nullptr;
  uint8_t* valid = nullptr;
  int64_t null_count = 0;
  int64_t length = 0;

  arrow::Status Allocate(int64_t num_rows, arrow::MemoryPool* pool) {
    length = num_rows;
    ARROW_ASSIGN_OR_RAISE(auto value_buffer, arrow::AllocateBuffer(num_rows * sizeof(CType), pool));
    ARROW_ASSIGN_OR_RAISE(auto validity_buffer, arrow::AllocateBitmap(num_rows, pool));
    values = std::move(value_buffer);
    validity = std::move(validity_buffer);
    data = reinterpret_cast<CType*>(values->mutable_data());
    valid = validity->mutable_data();
    std::memset(valid, 0xff, static_cast<size_t>(arrow::bit_util::BytesForBits(num_rows)));
    return arrow::Status::OK();
  }
  void SetNull(int64_t i) {
    data[i] = CType{};
    arrow::bit_util::ClearBit(valid, i);
    ++null_count;
  }
  std::shared_ptr<arrow::Array> Finish(const std::shared_ptr<arrow::DataType>& type) {
    return arrow::MakeArray(arrow::ArrayData::Make(
        type, length, {null_count > 0 ? validity : nullptr, values}, null_count));
  }
};

}  // namespace sluice::expr::cast_internal
