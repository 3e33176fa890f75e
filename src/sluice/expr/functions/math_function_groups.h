#pragma once

// The math functions come in groups, each in its own file; RegisterMathFunctions calls them all.

#include <memory>
#include <vector>

#include <arrow/type_fwd.h>

namespace sluice::expr {

/// CommonType of numeric operands with Spark 4's ANSI rule that a float meeting an integral
/// type widens to double (an int does not fit a float exactly): float + int is double.
std::shared_ptr<arrow::DataType> NumericCommonType(
    const std::vector<std::shared_ptr<arrow::DataType>>& types);

class FunctionRegistry;

/// round, bround, floor, ceil, ceiling (math_rounding.cc).
void RegisterRoundingFunctions(FunctionRegistry& registry);
/// hex, unhex, bin, conv, factorial, & | ^ ~, shiftleft, shiftright, shiftrightunsigned
/// (math_integer_functions.cc).
void RegisterIntegerMathFunctions(FunctionRegistry& registry);

}  // namespace sluice::expr
