#pragma once

// Decimal128 values as native 128-bit integers (their unscaled values), for decimal arithmetic
// whose exact result fits in 128 bits: far cheaper than arrow::Decimal256's word-by-word
// operations.

#include <cstdint>

#include <arrow/util/decimal.h>

namespace sluice::expr {

using Int128 = __int128;

inline Int128 ToInt128(const arrow::Decimal128& value) {
  return (static_cast<Int128>(value.high_bits()) << 64) | static_cast<Int128>(value.low_bits());
}

inline arrow::Decimal128 ToDecimal128(Int128 value) {
  return arrow::Decimal128(static_cast<int64_t>(value >> 64), static_cast<uint64_t>(value));
}

/// 10^exponent, for exponents up to 38.
inline Int128 PowerOfTen(int exponent) {
  Int128 result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

}  // namespace sluice::expr
