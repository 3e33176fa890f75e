// The file source log, <checkpoint>/sources/<i>/: Spark's FileStreamSourceLog. Batch N of the
// log lists the files the source admitted for log offset N, one FileEntry JSON line each,
// framed by "v1" and compacted every compactInterval batches ("<N>.compact" holds every entry
// up to N). Byte-compatible with Spark's, so either engine can resume the other's checkpoint.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/checkpoint/compactible_log.h"

namespace sluice::sources {

/// spark.sql.streaming.fileSource.log.compactInterval's default.
inline constexpr int kDefaultSourceLogCompactInterval = 10;

/// One line of the log: Spark's FileStreamSource.FileEntry.
struct FileEntry {
  /// The file's URI as Spark writes it (see checkpoint::FileUri): "file:///abs/a.json".
  std::string path;
  /// Modification time in milliseconds since the epoch.
  int64_t timestamp = 0;
  /// The log batch (log offset) that admitted the file.
  int64_t batch_id = 0;

  bool operator==(const FileEntry&) const = default;
};

/// {"path":"...","timestamp":N,"batchId":N}, as Spark's json4s writes it.
std::string FileEntryToJson(const FileEntry& entry);
/// Parses one log line; MALFORMED_LOG_FILE naming `log_path` when it is not a FileEntry of a
/// local file.
arrow::Result<FileEntry> ParseFileEntry(std::string_view json, const std::string& log_path);

/// The log of one file source. One writer (the source's query); thread-compatible.
class FileStreamSourceLog {
 public:
  /// Opens the log in `directory` (it may not exist yet) with `compact_interval` (as Spark,
  /// an existing log keeps the interval its compact files were written with).
  static arrow::Result<std::unique_ptr<FileStreamSourceLog>> Open(std::string directory,
                                                                  int compact_interval);

  const std::string& directory() const { return log_->directory(); }

  /// Writes batch `batch_id`; CONCURRENT_STREAM_LOG_UPDATE if it exists already.
  arrow::Status Add(int64_t batch_id, const std::vector<FileEntry>& entries) const;
  /// The newest batch id, or nullopt for an empty log.
  arrow::Result<std::optional<int64_t>> LatestBatchId() const;
  /// The entries of batches `first`..`last` (inclusive), in batch order. A batch whose file is
  /// gone is read from the compact file after it (Spark deletes old files after compacting);
  /// a batch found nowhere is MissingEntry.
  arrow::Result<std::vector<FileEntry>> Get(int64_t first, int64_t last) const;
  /// The error for batch `batch_id` missing from the log, naming its file.
  arrow::Status MissingEntry(int64_t batch_id) const;
  /// Every entry of the log, oldest first: the newest compact file plus the batches after it.
  arrow::Result<std::vector<FileEntry>> Restore() const;

 private:
  explicit FileStreamSourceLog(std::unique_ptr<checkpoint::CompactibleLog> log)
      : log_(std::move(log)) {}
  /// The parsed entries of `batch_id`'s own file (all entries so far for a compact file), or
  /// nullopt when the file does not exist.
  arrow::Result<std::optional<std::vector<FileEntry>>> ReadFile(int64_t batch_id) const;

  std::unique_ptr<checkpoint::CompactibleLog> log_;
};

}  // namespace sluice::sources
