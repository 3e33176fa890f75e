#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/project.h"

namespace sluice::physical {

/// Evaluates a Project's expressions over each input batch.
BatchStreamPtr MakeProject(const plan::Project& project, BatchStreamPtr input,
                           const ExecContext& context);

/// Keeps the rows of each input batch where a Filter's condition is true.
BatchStreamPtr MakeFilter(const plan::Filter& filter, BatchStreamPtr input,
                          const ExecContext& context);

/// Keeps the rows of each input batch where `condition` is true.
BatchStreamPtr MakeFilter(expr::BoundExprPtr condition, BatchStreamPtr input,
                          const ExecContext& context);

}  // namespace sluice::physical
