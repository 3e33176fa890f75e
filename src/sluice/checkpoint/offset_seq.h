// The formats of offsets/<N>, commits/<N> and metadata: Spark's OffsetSeq, CommitMetadata and
// StreamMetadata, byte-compatible with what Spark writes.
//
//   offsets/<N>:  v1
//                 {"batchWatermarkMs":0,"batchTimestampMs":1796060373596,"conf":{...}}
//                 {"logOffset":0}          one line per source, "-" when it had no offset yet
//   commits/<N>:  v1
//                 {"nextBatchWatermarkMs":0}
//   metadata:     {"id":"<query id>"}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <arrow/result.h>

namespace sluice::checkpoint {

/// The settings pinned by the first batch of a checkpoint and restored over the session's on
/// every restart, in the order Spark writes them.
using PinnedConf = std::vector<std::pair<std::string, std::string>>;

/// Spark's OffsetSeqMetadata.
struct OffsetSeqMetadata {
  int64_t batch_watermark_ms = 0;
  int64_t batch_timestamp_ms = 0;
  PinnedConf conf;
};

/// One offsets log entry: what batch N reads, and under which time and settings.
struct OffsetSeq {
  OffsetSeqMetadata metadata;
  /// Per source, in plan order: its end offset as a JSON text, nullopt for "-".
  std::vector<std::optional<std::string>> offsets;
};

std::string SerializeOffsetSeq(const OffsetSeq& seq);
/// Errors name `path`: MALFORMED_LOG_FILE, INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION.
arrow::Result<OffsetSeq> ParseOffsetSeq(std::string_view contents, const std::string& path);

/// Spark's CommitMetadata.
struct CommitMetadata {
  int64_t next_batch_watermark_ms = 0;
};

std::string SerializeCommitMetadata(const CommitMetadata& commit);
arrow::Result<CommitMetadata> ParseCommitMetadata(std::string_view contents,
                                                  const std::string& path);

/// The metadata file: {"id":"<query id>"}, no trailing newline (as Spark).
std::string SerializeQueryMetadata(const std::string& query_id);
arrow::Result<std::string> ParseQueryMetadata(std::string_view contents,
                                              const std::string& path);

}  // namespace sluice::checkpoint
