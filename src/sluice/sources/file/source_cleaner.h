// cleanSource: what the file source does with the files of a committed batch (Spark's
// FileStreamSourceCleaner). Cleaning is best effort, as in Spark: a file that cannot be moved
// or deleted is logged and left, never failing the query.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>

#include "sluice/sources/file/file_stream_options.h"

namespace sluice::sources {

/// Deletes or archives processed files. Immutable; Clean may be called from one thread.
class SourceCleaner {
 public:
  /// A cleaner for `mode` (nullptr for kOff). `source_pattern` is the source's absolute local
  /// path (maybe a glob). For kArchive, `archive_dir` must not be a path the source pattern
  /// could match (compared at the depth of the shorter path, as Spark does), or archived files
  /// would be read again: an error naming both paths.
  static arrow::Result<std::unique_ptr<SourceCleaner>> Make(
      CleanSourceMode mode, const std::string& source_pattern,
      const std::optional<std::string>& archive_dir);

  CleanSourceMode mode() const { return mode_; }
  /// Where archive moves `local_path`: the archive folder + the file's full path.
  std::string ArchivePathOf(const std::string& local_path) const;
  /// Deletes or archives one file; false (after a logged warning) when that failed.
  bool Clean(const std::string& local_path) const;

 private:
  SourceCleaner(CleanSourceMode mode, std::string archive_dir)
      : mode_(mode), archive_dir_(std::move(archive_dir)) {}

  CleanSourceMode mode_;
  std::string archive_dir_;
};

}  // namespace sluice::sources
