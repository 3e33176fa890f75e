// Stateless operators run ahead of what consumes them, on the pipeline pool: while an
// aggregation, deduplication or join updates its state with a batch, or a sink writes it, the
// filters, projections and watermarks below compute the next ones.
#pragma once

#include "sluice/physical/batch_stream.h"

namespace sluice::plan {
class LogicalPlan;
}  // namespace sluice::plan

namespace sluice::physical {

/// True when `input` may run ahead of its consumer: every node of it works a batch at a time
/// and keeps nothing across batches that another operator reads (scans, projections,
/// filters, generators, watermarks, unions and aliases of them), so running it on another
/// thread changes nothing but when its work is done.
bool MayRunAhead(const plan::LogicalPlan& input);

/// `input`, read ahead on the pipeline pool (common/read_ahead.h).
BatchStreamPtr RunAhead(BatchStreamPtr input);

}  // namespace sluice::physical
