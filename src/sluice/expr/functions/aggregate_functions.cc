#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/expr/functions/function_areas.h"

namespace sluice::expr {

void RegisterAggregateFunctions(FunctionRegistry& registry) {
  aggregates::RegisterCountFunctions(registry);
  aggregates::RegisterSumFunctions(registry);
  aggregates::RegisterMinMaxFunctions(registry);
  aggregates::RegisterFirstLastFunctions(registry);
  aggregates::RegisterCollectFunctions(registry);
  aggregates::RegisterMomentFunctions(registry);
  aggregates::RegisterApproxCountDistinct(registry);
  aggregates::RegisterMaxByFunctions(registry);
}

}  // namespace sluice::expr
