#include "sluice/expr/functions/function_areas.h"

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

void RegisterBuiltinFunctions(FunctionRegistry& registry) {
  RegisterArithmeticFunctions(registry);
  RegisterComparisonFunctions(registry);
  RegisterPredicateFunctions(registry);
  RegisterStringFunctions(registry);
  RegisterRegexFunctions(registry);
  RegisterDatetimeFunctions(registry);
  RegisterTimeWindowFunctions(registry);
  RegisterMathFunctions(registry);
  RegisterHashFunctions(registry);
  RegisterCollectionFunctions(registry);
  RegisterJsonFunctions(registry);
  RegisterAggregateFunctions(registry);
  RegisterCastFunctions(registry);
}

}  // namespace sluice::expr
