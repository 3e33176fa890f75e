// Spark's time windows in DataFrame operators: window(time, duration[, slide[, start]]) is not
// a scalar in Spark but a rewrite of the plan (the analyzer's TimeWindowing rule), because a
// sliding window puts each row into several windows.
#pragma once

#include <vector>

#include <arrow/result.h>

#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

/// An operator's input and expressions after its time windows were planned.
struct TimeWindowedInput {
  plan::PlanPtr child;
  std::vector<expr::ExprPtr> exprs;
};

/// When `exprs` (an operator's expressions over `child`) call window(...), returns `child`
/// with a `window` column struct<start, end> added, and `exprs` with every such call replaced
/// by a reference to that column; an unqualified `*` still means the columns of `child` only.
/// A tumbling window (exactly one per row) is a projection over the rows whose time is not
/// null; a sliding window is a Generate yielding one row per window containing the row's time
/// (rows with a null time yield none), as Spark plans them. Without a window call, returns both
/// unchanged. Two different window calls in one operator are refused, as in Spark; argument
/// errors are Spark's (DATATYPE_MISMATCH, ...).
arrow::Result<TimeWindowedInput> PlanTimeWindows(plan::PlanPtr child,
                                                 std::vector<expr::ExprPtr> exprs,
                                                 const plan::AnalysisContext& context);

}  // namespace sluice
