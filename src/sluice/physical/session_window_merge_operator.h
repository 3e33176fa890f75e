#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/session_window_merge.h"

namespace sluice::physical {

/// Runs a MergeSessionWindows node over its whole input (batch execution): one output batch
/// with the input's rows ordered by (keys, session), each row's session column replaced by its
/// merged session. Blocking, like the aggregation it feeds.
BatchStreamPtr MakeMergeSessionWindows(const plan::MergeSessionWindows& node,
                                       BatchStreamPtr input, const ExecContext& context);

}  // namespace sluice::physical
