// Spark's ManifestFileCommitProtocol, the commit protocol of the streaming file sink: a batch's
// part files are written straight into the output folder, and become part of the output only
// when the batch's manifest entry (<out>/_spark_metadata/<batch id>) listing them is written,
// in one atomic step. Readers go by the manifest, so the files of an attempt that crashed
// before that step are never read, and a re-run of the batch writes new files (new names).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/checkpoint/compactible_log.h"
#include "sluice/checkpoint/file_sink_log.h"

namespace sluice::sinks {

/// The manifest entry of the complete part file `relative_path` under `output_folder`: its
/// "file:///..." URI, size and modification time in milliseconds, as Hadoop's local file
/// system reports them; IOError naming the file when it cannot be read.
arrow::Result<checkpoint::SinkFileStatus> StatusOfPartFile(const std::string& output_folder,
                                                           const std::string& relative_path);

/// Logs `files` as batch `batch_id` of the sink manifest `log`: one atomic write, after which
/// readers see exactly these files added. On a compaction batch the compact file carries every
/// earlier live entry too, minus, when `retention_ms` is set, the entries (this batch's
/// included) of files modified more than `retention_ms` before `now_ms` (Spark's
/// FileStreamSinkLog.shouldRetain). Fails with CONCURRENT_STREAM_LOG_UPDATE when the batch is
/// logged already.
arrow::Status CommitBatchManifest(const checkpoint::CompactibleLog& log, int64_t batch_id,
                                  const std::vector<checkpoint::SinkFileStatus>& files,
                                  std::optional<int64_t> retention_ms, int64_t now_ms);

}  // namespace sluice::sinks
