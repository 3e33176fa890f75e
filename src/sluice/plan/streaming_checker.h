// Spark's UnsupportedOperationChecker for streaming plans: what a writeStream query may contain
// in its output mode (the spec, section 4). Stateful operators (aggregations, deduplication,
// stream-stream joins, sort, limit) come with the state store; until then they are refused
// with a message that says so.
#pragma once

#include <arrow/status.h>

#include "sluice/plan/logical_plan.h"
#include "sluice/plan/output_mode.h"

namespace sluice::plan {

/// OK when `plan` can run incrementally in `mode`; otherwise the first offending node, in
/// Spark's words.
arrow::Status CheckStreamingPlan(const LogicalPlan& plan, OutputMode mode);

}  // namespace sluice::plan
