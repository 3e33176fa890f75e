// Spark's CompactibleFileStreamLog, behind the file source log (sources/<i>/) and the file sink
// log (<out>/_spark_metadata/): a batch log of JSON-lines entries where every
// `compact_interval`-th batch is written as "<id>.compact" holding all entries so far, so that
// reading the whole log never needs more than one compact file plus a few deltas.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::checkpoint {

/// A compacting log of string entries (one JSON object per line, "v1" framing). One writer;
/// readers may read at any time and see only complete files.
class CompactibleLog {
 public:
  /// Opens the log in `directory` (which may not exist yet). The compaction interval is
  /// `default_interval` unless the log was compacted before with another one: then, as
  /// Spark does, the interval stays compatible with the existing compact files.
  static arrow::Result<std::unique_ptr<CompactibleLog>> Open(std::string directory,
                                                             int default_interval);

  const std::string& directory() const { return directory_; }
  int compact_interval() const { return compact_interval_; }
  bool IsCompactionBatch(int64_t batch_id) const {
    return (batch_id + 1) % compact_interval_ == 0;
  }
  /// The file of `batch_id`: "<id>" or "<id>.compact".
  std::string PathOf(int64_t batch_id) const;

  /// Writes the entries of `batch_id`. On a compaction batch the file holds every earlier
  /// entry too, minus those `keep` rejects (the sink drops deleted files this way). Fails with
  /// CONCURRENT_STREAM_LOG_UPDATE when the batch was written already.
  arrow::Status Add(int64_t batch_id, const std::vector<std::string>& entries,
                    const std::function<bool(std::string_view)>& keep = nullptr) const;
  /// The entries of `batch_id`'s file (for a compact file, all entries up to it), or nullopt.
  arrow::Result<std::optional<std::vector<std::string>>> Get(int64_t batch_id) const;
  arrow::Result<std::optional<int64_t>> LatestBatchId() const;
  /// Every entry of the log, oldest first.
  arrow::Result<std::vector<std::string>> AllEntries() const;

 private:
  CompactibleLog(std::string directory, int compact_interval)
      : directory_(std::move(directory)), compact_interval_(compact_interval) {}
  /// (batch id, is compact) of every log file, ascending by id.
  arrow::Result<std::vector<std::pair<int64_t, bool>>> ListFiles() const;
  arrow::Result<std::vector<std::string>> ReadEntries(const std::string& path) const;

  std::string directory_;
  int compact_interval_;
};

}  // namespace sluice::checkpoint
