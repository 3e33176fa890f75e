#include "sluice/delta/delta_vacuum.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "sluice/checkpoint/file_uri.h"
#include "sluice/delta/delta_protocol.h"

namespace sluice::delta {

namespace fs = std::filesystem;

namespace {

bool Hidden(const std::string& name) { return name.starts_with('_') || name.starts_with('.'); }

int64_t ModificationTimeMs(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return INT64_MAX;
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1000000;
}

/// The table-relative path of a log path (URI-encoded relative path); empty for absolute
/// URIs, which vacuum leaves alone.
std::string RelativeOf(const std::string& path) {
  if (path.find(':') != std::string::npos) return {};
  auto decoded = checkpoint::DecodeUriPath(path);
  return decoded.ok() ? fs::path(*decoded).lexically_normal().string() : std::string();
}

}  // namespace

arrow::Result<std::vector<std::string>> Vacuum(const DeltaLog& log, int64_t retention_ms,
                                               int64_t now_ms) {
  ARROW_ASSIGN_OR_RAISE(auto snapshot, log.Load());
  ARROW_RETURN_NOT_OK(CheckWritable(snapshot, log.table_path(), /*removes_files=*/false));
  const int64_t delete_before = now_ms - retention_ms;
  std::set<std::string> referenced;
  for (const auto& file : snapshot.files) referenced.insert(RelativeOf(file.path));
  ARROW_ASSIGN_OR_RAISE(auto versions, ListCommitVersions(log.LogFolder()));
  for (int64_t version : versions) {
    ARROW_ASSIGN_OR_RAISE(auto actions, log.ReadCommit(version));
    for (const auto& action : actions) {
      const auto* remove = std::get_if<RemoveFile>(&action);
      if (remove != nullptr && remove->deletion_timestamp.value_or(0) > delete_before) {
        referenced.insert(RelativeOf(remove->path));
      }
    }
  }

  const fs::path root(log.table_path());
  std::vector<std::string> deleted;
  std::vector<fs::path> folders;
  std::error_code error;
  fs::recursive_directory_iterator it(root, error);
  if (error) return arrow::Status::IOError("Cannot list ", root.string(), ": ", error.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (error) return arrow::Status::IOError("Cannot list ", root.string(), ": ", error.message());
    const fs::path& path = it->path();
    if (Hidden(path.filename().string())) {
      if (it->is_directory(error)) it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory(error)) {
      folders.push_back(path);
      continue;
    }
    const std::string relative = path.lexically_relative(root).string();
    if (referenced.count(relative) > 0 || ModificationTimeMs(path) >= delete_before) continue;
    if (!fs::remove(path, error) && error) {
      return arrow::Status::IOError("Cannot delete ", path.string(), ": ", error.message());
    }
    deleted.push_back(relative);
  }
  // Deepest folders first, so that a folder emptied of folders goes too.
  std::sort(folders.begin(), folders.end(), [](const fs::path& a, const fs::path& b) {
    return a.string().size() > b.string().size();
  });
  for (const auto& folder : folders) {
    if (fs::is_empty(folder, error)) fs::remove(folder, error);
  }
  std::sort(deleted.begin(), deleted.end());
  return deleted;
}

}  // namespace sluice::delta
