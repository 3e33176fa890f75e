#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/sort.h"

namespace sluice::physical {

/// Sorts the whole input of a Sort node (read on the first Next()) and yields it in order.
BatchStreamPtr MakeSort(const plan::Sort& sort, BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
