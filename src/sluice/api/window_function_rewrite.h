// Window functions in DataFrame operators: `f OVER (...)` is not computed by the projection
// that holds it but by Window nodes below it (Spark's ExtractWindowExpressions), one per
// distinct PARTITION BY and ORDER BY.
#pragma once

#include <vector>

#include <arrow/result.h>

#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

/// An operator's input and expressions after its window expressions were planned.
struct WindowedInput {
  plan::PlanPtr child;
  std::vector<expr::ExprPtr> exprs;
};

/// When `exprs` (a select list over `child`) hold window expressions, returns `child` under
/// Window nodes computing them, and `exprs` with each replaced by a reference to its column; an
/// unqualified `*` still means the columns of `child` only. Without window expressions,
/// returns both unchanged.
arrow::Result<WindowedInput> PlanWindowFunctions(plan::PlanPtr child,
                                                 std::vector<expr::ExprPtr> exprs,
                                                 const plan::AnalysisContext& context);

}  // namespace sluice
