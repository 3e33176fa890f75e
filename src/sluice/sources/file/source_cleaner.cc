#include "sluice/sources/file/source_cleaner.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <arrow/util/logging.h>

#include "sluice/formats/partition_discovery.h"

namespace sluice::sources {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> Components(const std::string& path) {
  std::vector<std::string> parts;
  for (const auto& part : fs::path(path).relative_path()) {
    if (!part.empty()) parts.push_back(part.string());
  }
  return parts;
}

/// Spark's isBaseArchivePathMatchedAgainstSourcePattern: both paths cut to the depth of the
/// shorter one, then every component of the archive path matched against the source's.
bool ArchiveMatchesSource(const std::string& source_pattern, const std::string& archive_dir) {
  auto source = Components(source_pattern);
  auto archive = Components(archive_dir);
  size_t depth = std::min(source.size(), archive.size());
  for (size_t i = 0; i < depth; ++i) {
    if (!formats::GlobMatch(source[i], archive[i])) return false;
  }
  return true;
}

}  // namespace

arrow::Result<std::unique_ptr<SourceCleaner>> SourceCleaner::Make(
    CleanSourceMode mode, const std::string& source_pattern,
    const std::optional<std::string>& archive_dir) {
  if (mode == CleanSourceMode::kOff) return nullptr;
  std::string archive;
  if (mode == CleanSourceMode::kArchive) {
    if (!archive_dir) {
      return arrow::Status::Invalid("Archive mode must be used with 'sourceArchiveDir' option.");
    }
    archive = formats::LocalPath(*archive_dir);
    if (ArchiveMatchesSource(source_pattern, archive)) {
      return arrow::Status::Invalid(
          "Base archive path cannot be set to the path where archived path can possibly match "
          "with source pattern. Ensure the base archive path doesn't match with source pattern "
          "in depth, where the depth is minimum of depth on both paths. source path: ",
          formats::QualifiedPath(source_pattern),
          " / base archive path: ", formats::QualifiedPath(archive));
    }
  }
  return std::unique_ptr<SourceCleaner>(new SourceCleaner(mode, std::move(archive)));
}

std::string SourceCleaner::ArchivePathOf(const std::string& local_path) const {
  std::string base = archive_dir_;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + local_path;
}

bool SourceCleaner::Clean(const std::string& local_path) const {
  std::error_code error;
  if (mode_ == CleanSourceMode::kDelete) {
    if (!fs::remove(local_path, error)) {
      ARROW_LOG(WARNING) << "Failed to remove " << formats::QualifiedPath(local_path)
                         << " / skip removing file." << (error ? " " : "")
                         << (error ? error.message() : std::string());
      return false;
    }
    return true;
  }
  std::string target = ArchivePathOf(local_path);
  fs::create_directories(fs::path(target).parent_path(), error);
  if (!error) fs::rename(local_path, target, error);
  if (error == std::errc::cross_device_link) {
    // Another file system: copy, then remove the source, as Hadoop's rename falls back to.
    error.clear();
    fs::copy_file(local_path, target, fs::copy_options::overwrite_existing, error);
    if (!error) fs::remove(local_path, error);
  }
  if (error) {
    ARROW_LOG(WARNING) << "Fail to move " << formats::QualifiedPath(local_path) << " to "
                       << formats::QualifiedPath(target)
                       << " / skip moving file. " << error.message();
    return false;
  }
  return true;
}

}  // namespace sluice::sources
