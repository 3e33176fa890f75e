#pragma once

#include <vector>

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/union.h"

namespace sluice::physical {

/// Yields the batches of each input in turn, relabelled with the Union's output schema.
BatchStreamPtr MakeUnion(const plan::Union& node, std::vector<BatchStreamPtr> inputs);

}  // namespace sluice::physical
