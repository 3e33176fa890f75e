#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/generate.h"

namespace sluice::physical {

/// Runs a Generate node batch by batch: repeats each input row once per generated row.
BatchStreamPtr MakeGenerate(const plan::Generate& generate, BatchStreamPtr input,
                            const ExecContext& context);

}  // namespace sluice::physical
