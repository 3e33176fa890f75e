// Which new files the next batch of the file source takes (the admission half of Spark's
// FileStreamSource.fetchMaxOffset): a file count or byte limit, and the cache of files listed
// but not yet taken that saves listing the folder again for every batch.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sluice/sources/file/source_listing.h"

namespace sluice::sources {

/// How much one batch may take (Spark's ReadLimit).
struct FileReadLimit {
  enum class Kind { kAll, kMaxFiles, kMaxBytes };
  Kind kind = Kind::kAll;
  int64_t value = 0;
};

/// The files of the next batch and, when worth keeping, the rest for the batches after it.
struct FileAdmission {
  std::vector<SourceFile> batch;
  /// The files left out, in order, to be offered to the next batch instead of a new listing;
  /// nullopt when there is nothing worth keeping.
  std::optional<std::vector<SourceFile>> rest;
};

/// Takes files from `candidates` (new files, in the source's order) under `limit`: the first
/// maxFiles files, or files while their total stays within maxBytes (always at least one).
/// With `may_cache`, the files left out are kept unless they are fewer (or smaller) than
/// `discard_ratio` of the limit, so that the next batch is not a sliver.
FileAdmission AdmitFiles(std::vector<SourceFile> candidates, const FileReadLimit& limit,
                         bool may_cache, double discard_ratio);

}  // namespace sluice::sources
