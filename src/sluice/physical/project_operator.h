#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/project.h"
#include "sluice/plan/required_columns.h"

namespace sluice::physical {

// Both operators compute only the `required` columns of their output (those read above,
// plan/required_columns.h); the others hold nulls (UnreadColumns), so batches keep the plan's
// layout.

/// Evaluates a Project's expressions over each input batch.
BatchStreamPtr MakeProject(const plan::Project& project, plan::ColumnMask required,
                           BatchStreamPtr input, const ExecContext& context);

/// Keeps the rows of each input batch where a Filter's condition is true. Of a struct column
/// read only in part, only the fields read are copied.
BatchStreamPtr MakeFilter(const plan::Filter& filter, plan::ColumnUses required,
                          BatchStreamPtr input, const ExecContext& context);

/// Keeps the rows of each input batch where `condition` is true.
BatchStreamPtr MakeFilter(expr::BoundExprPtr condition, plan::ColumnUses required,
                          BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
