#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/limit.h"

namespace sluice::physical {

/// Passes on the first n rows of its input and then stops pulling from it.
BatchStreamPtr MakeLimit(const plan::Limit& limit, BatchStreamPtr input);

}  // namespace sluice::physical
