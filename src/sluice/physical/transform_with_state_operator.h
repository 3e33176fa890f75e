#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/transform_with_state.h"

namespace sluice::physical {

/// Runs transformWithState for one micro-batch (Spark's TransformWithStateExec): the
/// processor's init, then handleInputRows for each key with rows in the batch (late rows
/// dropped in event time), then handleExpiredTimer for each timer at or before the batch's
/// processing time (processing time) or watermark (event time), earliest first; values whose
/// time to live passed are removed at the end. A variable's rows are kept per grouping key in
/// a store named after it (value: the row; list: a list of rows; map: one entry per user key),
/// each row with its expiry when the variable has a time to live. Without `context.stateful`
/// (a batch query), each key is called once, with state that lives for the query only.
/// `initial_state` (null without one) is read in the query's first batch, each key's rows
/// handed to handleInitialState before any input is handled.
BatchStreamPtr MakeTransformWithState(const plan::TransformWithState& node, BatchStreamPtr input,
                                      BatchStreamPtr initial_state, const ExecContext& context);

}  // namespace sluice::physical
