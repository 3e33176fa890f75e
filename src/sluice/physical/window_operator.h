#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/window.h"

namespace sluice::physical {

/// Computes a Window node's functions over its whole input (read on the first Next()): the
/// rows are sorted by partition and order keys and yielded in that order, each with one more
/// column per function.
BatchStreamPtr MakeWindow(const plan::Window& window, BatchStreamPtr input,
                          const ExecContext& context);

}  // namespace sluice::physical
