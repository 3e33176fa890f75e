#include "sluice/plan/filter.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<const Filter>> Filter::Make(PlanPtr child,
                                                          const expr::ExprPtr& condition,
                                                          const AnalysisContext& context) {
  if (expr::ContainsWindow(*condition)) {
    return SparkError("_LEGACY_ERROR_TEMP_1034",
                      "It is not allowed to use window functions inside WHERE clause.");
  }
  if (expr::ContainsAggregate(*condition, *context.registry)) {
    return SparkError("INVALID_WHERE_CONDITION",
                      "The WHERE condition \"" + condition->ToString() +
                          "\" contains invalid expressions. Rewrite the query to avoid window "
                          "functions, aggregate functions, and generator functions in the WHERE "
                          "clause.");
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, expr::Bind(*condition, ScopeOf(*child, context)));
  const auto id = bound->type()->id();
  if (id != arrow::Type::BOOL && id != arrow::Type::NA) {
    return SparkError("DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN",
                      "Cannot resolve \"" + bound->sql() +
                          "\" due to data type mismatch: Filter expression \"" + bound->sql() +
                          "\" of type \"" + expr::SqlTypeName(*bound->type()) +
                          "\" is not a boolean.");
  }
  return std::make_shared<Filter>(std::move(child), std::move(bound));
}

std::string Filter::Describe() const { return "Filter " + condition_->sql(); }

}  // namespace sluice::plan
