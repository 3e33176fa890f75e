// Spark's session windows in DataFrame operators: session_window(time, gap) is not a scalar in
// Spark but a rewrite of the plan (the analyzer's SessionWindowing rule) and, under a grouping,
// a merging of the sessions of each key before the aggregation.
#pragma once

#include <cstddef>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

/// An operator's input and expressions after its session window was planned.
struct SessionWindowedInput {
  plan::PlanPtr child;
  std::vector<expr::ExprPtr> exprs;
};

/// When `exprs` (an operator's expressions over `child`) call session_window(time, gap),
/// returns `child` with a `session_window` column struct<start, end> added, holding each row's
/// own session [time, time + gap), under a filter that drops the rows with a null time or whose
/// gap is null, unparsable or not positive (as Spark's SessionWindowing); and `exprs` with every
/// session_window call replaced by a reference to that column. An unqualified `*` still means
/// the columns of `child` only.
///
/// The first `num_grouping_keys` of `exprs` are the grouping keys of an aggregation (0 for a
/// projection): when one of them is the session window itself (possibly aliased), the sessions
/// of rows with equal other keys that overlap or touch are merged below the aggregation
/// (plan::MergeSessionWindows), as Spark's aggregation by session window does; a key such as
/// `session_window(...).start` groups by the rows' own sessions, as in Spark.
///
/// Without a session_window call, returns both unchanged. Two different window or
/// session_window calls in one operator are refused (_LEGACY_ERROR_TEMP_1039), as in Spark;
/// argument errors are Spark's (WRONG_NUM_ARGS, DATATYPE_MISMATCH, _LEGACY_ERROR_TEMP_1040).
arrow::Result<SessionWindowedInput> PlanSessionWindows(plan::PlanPtr child,
                                                       std::vector<expr::ExprPtr> exprs,
                                                       size_t num_grouping_keys,
                                                       const plan::AnalysisContext& context);

}  // namespace sluice
