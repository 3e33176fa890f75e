#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::physical {

/// Turns a resolved logical plan into running operators (batch execution: every source is read
/// to its end). `context` must outlive the returned stream.
arrow::Result<BatchStreamPtr> Execute(const plan::LogicalPlan& plan, const ExecContext& context);

}  // namespace sluice::physical
