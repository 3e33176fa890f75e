#pragma once

// The math functions come in groups, each in its own file; RegisterMathFunctions calls them all.

namespace sluice::expr {

class FunctionRegistry;

/// round, bround, floor, ceil, ceiling (math_rounding.cc).
void RegisterRoundingFunctions(FunctionRegistry& registry);
/// hex, unhex, bin, conv, factorial, & | ^ ~, shiftleft, shiftright, shiftrightunsigned
/// (math_integer_functions.cc).
void RegisterIntegerMathFunctions(FunctionRegistry& registry);

}  // namespace sluice::expr
