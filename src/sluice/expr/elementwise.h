#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/datum.h>
#include <arrow/scalar.h>
#include <arrow/type_traits.h>
#include <arrow/util/bit_util.h>

namespace sluice::expr {

/// What an element-wise operation made of one row.
enum class RowOutcome : uint8_t { kValue, kNull, kError };

/// The low `n` (<= 64) bits of a word set.
inline uint64_t LowBits(int64_t n) { return n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

/// Bits `first` to `first + n` (n <= 64) of a bitmap, as the low bits of a word; all set when
/// there is none (the validity of an array without nulls).
inline uint64_t BitmapWord(const uint8_t* bitmap, int64_t first, int64_t n) {
  if (bitmap == nullptr) return LowBits(n);
  uint8_t bytes[16] = {};
  std::memcpy(bytes, bitmap + first / 8, static_cast<size_t>((first % 8 + n + 7) / 8));
  uint64_t low, high;
  std::memcpy(&low, bytes, 8);
  std::memcpy(&high, bytes + 8, 8);
  const int shift = static_cast<int>(first % 8);
  const uint64_t word = shift == 0 ? low : (low >> shift) | (high << (64 - shift));
  return word & LowBits(n);
}

/// Reads a fixed-width numeric argument that is either an array or a scalar standing for all rows,
/// without copying. `T` is an Arrow type class (arrow::Int64Type, arrow::DoubleType, ...).
template <typename T>
class NumericInput {
 public:
  using CType = typename arrow::TypeTraits<T>::CType;

  explicit NumericInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      const auto& scalar = datum.scalar_as<typename arrow::TypeTraits<T>::ScalarType>();
      scalar_valid_ = scalar.is_valid;
      scalar_value_ = scalar.is_valid ? scalar.value : CType{};
      values_ = &scalar_value_;
      row_mask_ = 0;
    } else {
      const auto& data = *datum.array();
      values_ = data.GetValues<CType>(1);
      validity_ = data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
      offset_ = data.offset;
    }
  }
  // values_ may point into this object.
  NumericInput(const NumericInput&) = delete;
  NumericInput& operator=(const NumericInput&) = delete;

  bool IsValid(int64_t row) const {
    if (row_mask_ == 0) return scalar_valid_;
    return validity_ == nullptr || arrow::bit_util::GetBit(validity_, offset_ + row);
  }
  // A scalar's value is read through the same pointer as an array's, with the row masked to
  // 0, so that a loop over rows does not branch on which of the two it reads.
  CType Value(int64_t row) const { return values_[row & row_mask_]; }

  /// The validity of rows [begin, begin + n), n <= 64, as the low bits of a word.
  uint64_t ValidBits(int64_t begin, int64_t n) const {
    if (row_mask_ == 0) return scalar_valid_ ? LowBits(n) : 0;
    return BitmapWord(validity_, offset_ + begin, n);
  }

 private:
  bool scalar_valid_ = false;
  CType scalar_value_{};
  const CType* values_ = nullptr;
  int64_t row_mask_ = ~int64_t{0};
  const uint8_t* validity_ = nullptr;
  int64_t offset_ = 0;
};

/// Applies `op(left, right, &out) -> RowOutcome` to every row where both inputs are non-null and
/// returns an array of `out_type` (null where an input is null or `op` said kNull). At the first
/// kError, returns `on_error(row)`. Scalars are broadcast.
template <typename LeftT, typename RightT, typename OutT, typename Op, typename OnError>
arrow::Result<arrow::Datum> ApplyBinary(const arrow::Datum& left, const arrow::Datum& right,
                                        int64_t num_rows,
                                        const std::shared_ptr<arrow::DataType>& out_type,
                                        arrow::MemoryPool* pool, Op&& op, OnError&& on_error) {
  using OutC = typename arrow::TypeTraits<OutT>::CType;
  NumericInput<LeftT> a(left);
  NumericInput<RightT> b(right);
  ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(num_rows * sizeof(OutC), pool));
  ARROW_ASSIGN_OR_RAISE(auto validity, arrow::AllocateBitmap(num_rows, pool));
  auto* out = reinterpret_cast<OutC*>(values->mutable_data());
  uint8_t* valid = validity->mutable_data();
  int64_t null_count = 0;
  // 64 rows at a time: their validity is read, and written, a word at a time rather than a
  // bit per row (the per-row bits cost more than a remainder by a constant).
  for (int64_t begin = 0; begin < num_rows; begin += 64) {
    const int64_t n = std::min<int64_t>(64, num_rows - begin);
    const uint64_t inputs_valid = a.ValidBits(begin, n) & b.ValidBits(begin, n);
    uint64_t outputs_valid = 0;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t i = begin + j;
      RowOutcome outcome = RowOutcome::kNull;
      out[i] = OutC{};
      if (inputs_valid >> j & 1) outcome = op(a.Value(i), b.Value(i), &out[i]);
      if (outcome == RowOutcome::kError) return on_error(i);
      outputs_valid |= uint64_t{outcome == RowOutcome::kValue} << j;
    }
    std::memcpy(valid + begin / 8, &outputs_valid, static_cast<size_t>((n + 7) / 8));
    null_count += n - std::popcount(outputs_valid);
  }
  std::shared_ptr<arrow::Buffer> validity_buffer;
  if (null_count > 0) validity_buffer = std::move(validity);
  return arrow::Datum(arrow::ArrayData::Make(out_type, num_rows,
                                             {std::move(validity_buffer), std::move(values)},
                                             null_count));
}

/// As ApplyBinary for inputs without nulls, with `op(left, right, &out) -> bool` false where a
/// row's value does not fit: when every row fits (the usual case), their values in a loop that
/// tracks no outcome per row; else nullopt, and the caller's ApplyBinary finds each row's.
template <typename LeftT, typename RightT, typename OutT, typename Op>
arrow::Result<std::optional<arrow::Datum>> ApplyBinaryIfEveryRowFits(
    const arrow::Datum& left, const arrow::Datum& right, int64_t num_rows,
    const std::shared_ptr<arrow::DataType>& out_type, arrow::MemoryPool* pool, Op&& op) {
  using OutC = typename arrow::TypeTraits<OutT>::CType;
  auto has_nulls = [](const arrow::Datum& input) {
    return input.is_scalar() ? !input.scalar()->is_valid : input.null_count() != 0;
  };
  if (has_nulls(left) || has_nulls(right)) return std::nullopt;
  NumericInput<LeftT> a(left);
  NumericInput<RightT> b(right);
  ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBuffer(num_rows * sizeof(OutC), pool));
  auto* out = reinterpret_cast<OutC*>(values->mutable_data());
  bool fits = true;
  for (int64_t i = 0; i < num_rows; ++i) fits &= op(a.Value(i), b.Value(i), &out[i]);
  if (!fits) return std::nullopt;
  return arrow::Datum(
      arrow::ArrayData::Make(out_type, num_rows, {nullptr, std::move(values)}, 0));
}

}  // namespace sluice::expr
