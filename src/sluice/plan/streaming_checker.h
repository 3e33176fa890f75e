// Spark's UnsupportedOperationChecker for streaming plans: what a writeStream query may contain
// in its output mode (the spec, section 4). Stateful operators the engine does not run yet
// (deduplication, chained stateful operators, stream-stream joins, limit) are refused with a
// message that says so.
#pragma once

#include <arrow/status.h>

#include "sluice/plan/logical_plan.h"
#include "sluice/plan/output_mode.h"

namespace sluice::plan {

/// OK when `plan` can run incrementally in `mode`; otherwise the first offending node, in
/// Spark's words. `check_correctness` (Spark's statefulOperator.checkCorrectness.enabled)
/// refuses a stateful operator fed by an aggregation in update and complete modes, whose
/// rows may be late for it.
arrow::Status CheckStreamingPlan(const LogicalPlan& plan, OutputMode mode,
                                 bool check_correctness = true);

}  // namespace sluice::plan
