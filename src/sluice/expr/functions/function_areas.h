#pragma once

// Each area of Spark's built-in functions registers itself from its own file; the registry calls
// them all once (function_areas.cc).

namespace sluice::expr {

class FunctionRegistry;

void RegisterArithmeticFunctions(FunctionRegistry& registry);
void RegisterComparisonFunctions(FunctionRegistry& registry);
void RegisterPredicateFunctions(FunctionRegistry& registry);
void RegisterStringFunctions(FunctionRegistry& registry);
void RegisterRegexFunctions(FunctionRegistry& registry);
void RegisterDatetimeFunctions(FunctionRegistry& registry);
/// window_time and the internal form of window() (datetime_window.cc).
void RegisterTimeWindowFunctions(FunctionRegistry& registry);
void RegisterMathFunctions(FunctionRegistry& registry);
void RegisterHashFunctions(FunctionRegistry& registry);
void RegisterCollectionFunctions(FunctionRegistry& registry);
void RegisterJsonFunctions(FunctionRegistry& registry);
void RegisterAggregateFunctions(FunctionRegistry& registry);
void RegisterCastFunctions(FunctionRegistry& registry);

}  // namespace sluice::expr
