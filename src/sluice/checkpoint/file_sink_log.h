// The file sink's manifest, <out>/_spark_metadata/: Spark's FileStreamSinkLog. Each batch logs
// the files it wrote as SinkFileStatus JSON lines; readers of the output folder (Spark, our
// batch reader and our file source) read only the files listed here, so the files of a batch
// that crashed before its log entry are invisible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

namespace sluice::checkpoint {

/// The name of the manifest folder inside a file sink's output folder.
inline constexpr std::string_view kSinkMetadataFolder = "_spark_metadata";
/// spark.sql.streaming.fileSink.log.compactInterval's default.
inline constexpr int kDefaultSinkCompactInterval = 10;

/// One line of the manifest: Spark's SinkFileStatus, fields in Spark's order.
struct SinkFileStatus {
  /// A fully qualified URI: "file:///abs/path/part-..." (see file_uri.h).
  std::string path;
  int64_t size = 0;
  bool is_dir = false;
  int64_t modification_time = 0;
  int32_t block_replication = 1;
  int64_t block_size = 33554432;
  /// "add" or "delete".
  std::string action = "add";
};

/// {"path":..,"size":..,"isDir":..,"modificationTime":..,"blockReplication":..,
///  "blockSize":..,"action":..} as Spark writes it.
std::string SinkFileStatusToJson(const SinkFileStatus& status);
/// Parses one manifest line; MALFORMED_LOG_FILE naming `log_path` when it is not one.
arrow::Result<SinkFileStatus> ParseSinkFileStatus(std::string_view json,
                                                  const std::string& log_path);

/// True when `folder` holds a file sink manifest.
bool HasSinkManifest(const std::string& folder);

/// The local paths of the files committed to a file sink's output `folder` (added and not
/// deleted), in log order; nullopt when the folder has no manifest. A corrupt manifest is an
/// error naming the log file, never a silent fallback to listing the folder.
arrow::Result<std::optional<std::vector<std::string>>> CommittedSinkFiles(
    const std::string& folder);

}  // namespace sluice::checkpoint
