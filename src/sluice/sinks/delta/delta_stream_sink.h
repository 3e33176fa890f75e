// The "delta" streaming sink (Delta's DeltaSink): each micro-batch becomes one commit of the
// table, recording txn(appId = query id, version = batch id). A batch re-run after a crash
// finds its version recorded and is skipped, so every batch lands exactly once. Append mode
// adds the batch's files; complete mode replaces every file of the table in the same commit.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// A Delta sink writing to the table at `path` (created by the first batch if missing).
/// Options: mergeSchema (new columns join the table schema), and the Parquet writer's options
/// (compression). Update mode is refused (DELTA_UNSUPPORTED_OUTPUT_MODE), as Delta refuses it.
/// `checkpoint_root` is the query's checkpoint folder, whose metadata file names the query id
/// once the query has started.
arrow::Result<std::unique_ptr<StreamSink>> MakeDeltaStreamSink(
    const formats::OptionMap& options, const std::string& path,
    const std::vector<std::string>& partition_by, OutputMode mode,
    const formats::FormatContext& context, std::string checkpoint_root);

}  // namespace sluice::sinks
