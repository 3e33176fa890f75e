// Listing the files of a streaming file source's path (Spark's FileStreamSource.fetchAllFiles):
// what exists now, with the size and modification time that decide admission and order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// A data file of the source's path.
struct SourceFile {
  /// The URI the source log records (checkpoint::FileUri of local_path).
  std::string uri;
  std::string local_path;
  int64_t size = 0;
  /// Modification time in milliseconds since the epoch.
  int64_t timestamp = 0;
};

/// True when `path` holds glob characters (* ? [ {).
bool IsGlobPath(const std::string& path);

/// The files under `pattern` (an absolute local path: a folder, a file, or a glob) as
/// formats::ListFiles finds them (hidden names skipped, pathGlobFilter honoured, a file sink's
/// output folder read through its manifest), sorted by modification time, oldest first, or
/// newest first when `newest_first`; equal times keep path order. A path that does not exist
/// yet, or a file that vanishes while listing, is simply not there.
arrow::Result<std::vector<SourceFile>> ListSourceFiles(const std::string& pattern,
                                                       const formats::FileSourceOptions& options,
                                                       bool newest_first);

/// The size and modification time of `local_path` into `file`; false when it does not exist.
bool StatSourceFile(const std::string& local_path, SourceFile* file);

}  // namespace sluice::sources
