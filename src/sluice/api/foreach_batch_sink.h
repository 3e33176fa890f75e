#pragma once

#include <memory>

#include "sluice/api/data_stream_writer.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice {

/// foreachBatch's sink: each micro-batch's rows are gathered into a DataFrame of `session`
/// and handed to `function` with the batch id. The DataFrame is held in memory, so several
/// actions on it see the same rows without reading the sources again. Exactly-once only if
/// `function` is idempotent per batch id: a batch re-run after a crash calls it again.
std::unique_ptr<sinks::StreamSink> MakeForeachBatchSink(std::shared_ptr<SessionState> session,
                                                        ForeachBatchFunction function);

}  // namespace sluice
