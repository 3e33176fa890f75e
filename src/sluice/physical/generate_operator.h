#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/required_columns.h"

namespace sluice::physical {

/// Runs a Generate node batch by batch: repeats each input row once per generated row. Only
/// the `required` columns of its output (those read above) are repeated or generated; the
/// others hold nulls.
BatchStreamPtr MakeGenerate(const plan::Generate& generate, plan::ColumnMask required,
                            BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
