// The one form of floating-point values that grouping keeps (Spark's NormalizeFloatingNumbers):
// every NaN becomes the quiet NaN of Java's Float.NaN / Double.NaN, and -0.0 becomes 0.0. Keys
// that Spark groups together then have the same bits, and a group's key is output in the form
// Spark outputs, whatever form its first row had.
#pragma once

#include <cstdint>
#include <memory>

#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types {

/// The canonical bits of a half float (uint16_t), float (uint32_t) or double (uint64_t) given
/// by its bits. Working on the bits keeps it branch-light and exact.
template <typename Bits>
inline Bits CanonicalFloatBits(Bits bits) {
  if constexpr (sizeof(Bits) == 2) {
    if ((bits & 0x7c00u) == 0x7c00u && (bits & 0x03ffu) != 0) return 0x7e00u;
    return bits == 0x8000u ? 0 : bits;
  } else if constexpr (sizeof(Bits) == 4) {
    if ((bits & 0x7fffffffu) > 0x7f800000u) return 0x7fc00000u;
    return bits == 0x80000000u ? 0 : bits;
  } else {
    static_assert(sizeof(Bits) == 8);
    if ((bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return 0x7ff8000000000000ull;
    return bits == 0x8000000000000000ull ? 0 : bits;
  }
}

/// Whether values of `type` hold floating-point values at any depth.
bool HasFloatingPoint(const arrow::DataType& type);

/// `array` with every floating-point value, at any depth, in its canonical form; `array`
/// itself when its type holds none.
arrow::Result<std::shared_ptr<arrow::Array>> WithCanonicalFloats(
    const std::shared_ptr<arrow::Array>& array, arrow::MemoryPool* pool);

}  // namespace sluice::types
