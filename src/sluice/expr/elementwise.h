#pragma once

#include <cstdint>
#include <memory>

#include <arrow/array.h>
#include <arrow/buffer.h>
#include <arrow/datum.h>
#include <arrow/scalar.h>
#include <arrow/type_traits.h>
#include <arrow/util/bit_util.h>

namespace sluice::expr {

/// What an element-wise operation made of one row.
enum class RowOutcome : uint8_t { kValue, kNull, kError };

/// Reads a fixed-width numeric argument that is either an array or a scalar standing for all rows,
/// without copying. `T` is an Arrow type class (arrow::Int64Type, arrow::DoubleType, ...).
template <typename T>
class NumericInput {
 public:
  using CType = typename arrow::TypeTraits<T>::CType;

  explicit NumericInput(const arrow::Datum& datum) {
    if (datum.is_scalar()) {
      const auto& scalar = datum.scalar_as<typename arrow::TypeTraits<T>::ScalarType>();
      is_scalar_ = true;
      scalar_valid_ = scalar.is_valid;
      scalar_value_ = scalar.is_valid ? scalar.value : CType{};
    } else {
      const auto& data = *datum.array();
      values_ = data.GetValues<CType>(1);
      validity_ = data.null_count != 0 && data.buffers[0] ? data.buffers[0]->data() : nullptr;
      offset_ = data.offset;
    }
  }

  bool IsValid(int64_t row) const {
    if (is_scalar_) return scalar_valid_;
    return validity_ == nullptr || arrow::bit_util::GetBit(validity_, offset_ + row);
  }
  CType Value(int64_t row) const { return is_scalar_ ? scalar_value_ : values_[row]; }

 private:
  bool is_scalar_ = false;
  bool scalar_valid_ = false;
  CType scalar_value_{};
  const CType* values_ = nullptr;
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
  for (int64_t i = 0; i < num_rows; ++i) {
    RowOutcome outcome = RowOutcome::kNull;
    out[i] = OutC{};
    if (a.IsValid(i) && b.IsValid(i)) outcome = op(a.Value(i), b.Value(i), &out[i]);
    if (outcome == RowOutcome::kError) return on_error(i);
    const bool is_valid = outcome == RowOutcome::kValue;
    arrow::bit_util::SetBitTo(valid, i, is_valid);
    null_count += !is_valid;
  }
  std::shared_ptr<arrow::Buffer> validity_buffer;
  if (null_count > 0) validity_buffer = std::move(validity);
  return arrow::Datum(arrow::ArrayData::Make(out_type, num_rows,
                                             {std::move(validity_buffer), std::move(values)},
                                             null_count));
}

}  // namespace sluice::expr
