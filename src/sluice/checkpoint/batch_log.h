// Spark's HDFSMetadataLog: a folder holding one file per batch id, each written atomically and
// never rewritten. The offsets and commits logs are batch logs; so are the file source and file
// sink logs (through CompactibleLog).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::checkpoint {

/// A folder of files named by batch id ("0", "1", ...). Thread-compatible: one query writes it;
/// readers may list it at any time and see only complete files.
class BatchLog {
 public:
  explicit BatchLog(std::string directory) : directory_(std::move(directory)) {}

  const std::string& directory() const { return directory_; }
  std::string PathOf(int64_t batch_id) const;

  /// Writes the file of `batch_id` durably. If it exists already, another query wrote it:
  /// fails with CONCURRENT_STREAM_LOG_UPDATE.
  arrow::Status Add(int64_t batch_id, std::string_view contents) const;
  /// The contents of `batch_id`'s file, or nullopt if there is none.
  arrow::Result<std::optional<std::string>> Get(int64_t batch_id) const;
  /// The batch ids present, ascending (names that are not batch ids are ignored).
  arrow::Result<std::vector<int64_t>> BatchIds() const;
  arrow::Result<std::optional<int64_t>> LatestBatchId() const;
  /// Deletes the files of batch ids below `threshold`.
  arrow::Status PurgeBefore(int64_t threshold) const;

 private:
  std::string directory_;
};

/// Writes the file of batch `batch_id` at `path` durably and only once: if it exists already,
/// another query wrote it, and this fails with CONCURRENT_STREAM_LOG_UPDATE naming the batch
/// and the file. Every log's Add goes through here.
arrow::Status WriteBatchLogFile(const std::string& path, int64_t batch_id,
                                std::string_view contents);

/// The batch id a log file is named by ("12" -> 12); nullopt for other names.
std::optional<int64_t> BatchIdOfFileName(std::string_view name);

/// "v<version>\n" + body (just "v<version>" when the body is empty): the framing of every
/// versioned log file.
std::string WithVersionLine(int version, std::string_view body);

/// Splits a versioned log file into its lines after the version line, checking the version is
/// 1..max_version. Errors name `path`: MALFORMED_LOG_FILE for a missing or garbled version
/// line, INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION for a newer one.
arrow::Result<std::vector<std::string_view>> SplitVersionedLog(std::string_view contents,
                                                               int max_version,
                                                               const std::string& path);

/// MALFORMED_LOG_FILE naming `path` and saying what is wrong with it.
arrow::Status MalformedLogFile(const std::string& path, std::string_view problem);

}  // namespace sluice::checkpoint
