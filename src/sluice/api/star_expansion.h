#pragma once

#include <vector>

#include "sluice/expr/expression.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

/// `exprs` with every unqualified `*` replaced by references to `child`'s columns (by id), for
/// rewrites that add columns below an operator: Spark resolves the star against the input
/// before it plans time windows or window functions, so the added columns are not selected.
std::vector<expr::ExprPtr> ExpandUnqualifiedStar(std::vector<expr::ExprPtr> exprs,
                                                 const plan::LogicalPlan& child);

}  // namespace sluice
