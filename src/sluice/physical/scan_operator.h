#pragma once

#include "sluice/physical/batch_stream.h"
#include "sluice/plan/relation.h"
#include "sluice/plan/required_columns.h"

namespace sluice::physical {

/// Reads a Relation's data source (a streaming source: its rows of the current micro-batch,
/// from context.stream_inputs), checking each batch against the planned schema so a source
/// that changed under the plan fails with a clear error instead of corrupting results. The
/// source may skip what is not `required` (columns, struct fields), reading nulls in its place.
arrow::Result<BatchStreamPtr> MakeScan(const plan::Relation& relation,
                                       const plan::ColumnUses& required,
                                       const ExecContext& context);

}  // namespace sluice::physical
