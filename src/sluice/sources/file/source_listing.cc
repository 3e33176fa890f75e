#include "sluice/sources/file/source_listing.h"

#include <sys/stat.h>

#include <algorithm>

#include "sluice/common/errors.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::sources {

bool IsGlobPath(const std::string& path) {
  return path.find_first_of("*?[{") != std::string::npos;
}

bool StatSourceFile(const std::string& local_path, SourceFile* file) {
  struct stat status;
  if (::stat(local_path.c_str(), &status) != 0) return false;
  file->local_path = local_path;
  file->uri = checkpoint::FileUri(local_path);
  file->size = static_cast<int64_t>(status.st_size);
  // Hadoop reports java.io.File.lastModified: milliseconds, truncated.
  file->timestamp = static_cast<int64_t>(status.st_mtim.tv_sec) * 1000 +
                    static_cast<int64_t>(status.st_mtim.tv_nsec) / 1000000;
  return true;
}

arrow::Result<std::vector<SourceFile>> ListSourceFiles(const std::string& pattern,
                                                       const formats::FileSourceOptions& options,
                                                       bool newest_first) {
  // Only the files matter here; partition values are read per batch. Turning partition
  // discovery off keeps a listing with mixed layouts from failing.
  formats::FileSourceOptions listing_options = options;
  listing_options.recursive_file_lookup = true;
  auto listing = formats::ListFiles(pattern, listing_options, nullptr, "UTC");
  if (!listing.ok()) {
    if (ErrorClassOf(listing.status()) == "PATH_NOT_FOUND") return std::vector<SourceFile>{};
    return listing.status();
  }
  std::vector<SourceFile> files;
  files.reserve(listing->files.size());
  for (const auto& path : listing->files) {
    SourceFile file;
    if (StatSourceFile(path, &file)) files.push_back(std::move(file));
  }
  std::stable_sort(files.begin(), files.end(), [&](const SourceFile& a, const SourceFile& b) {
    return newest_first ? a.timestamp > b.timestamp : a.timestamp < b.timestamp;
  });
  return files;
}

}  // namespace sluice::sources
