#include "sluice/sinks/file/manifest_commit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::sinks {

namespace fs = std::filesystem;

namespace {

arrow::Status Errno(const char* what, const std::string& path) {
  return arrow::Status::IOError(what, " ", path, ": ", std::strerror(errno));
}

arrow::Status SyncFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno("Cannot open", path);
  int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) return Errno("Cannot fsync", path);
  return arrow::Status::OK();
}

bool Retained(const checkpoint::SinkFileStatus& file, int64_t retention_ms, int64_t now_ms) {
  return now_ms - file.modification_time <= retention_ms;
}

}  // namespace

arrow::Result<checkpoint::SinkFileStatus> StatusOfPartFile(const std::string& output_folder,
                                                           const std::string& relative_path) {
  std::string path = (fs::path(output_folder) / relative_path).string();
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) return Errno("Cannot read the status of", path);
  checkpoint::SinkFileStatus status;
  status.path = checkpoint::FileUri(path);
  status.size = static_cast<int64_t>(info.st_size);
  // Hadoop reports whole milliseconds, truncated.
  status.modification_time = static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 +
                             static_cast<int64_t>(info.st_mtim.tv_nsec) / 1000000;
  return status;
}

arrow::Status SyncPartFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths) {
  std::set<fs::path> folders = {fs::path(output_folder)};
  for (const auto& relative : relative_paths) {
    ARROW_RETURN_NOT_OK(SyncFile((fs::path(output_folder) / relative).string()));
    for (fs::path folder = fs::path(relative).parent_path(); !folder.empty();
         folder = folder.parent_path()) {
      folders.insert(fs::path(output_folder) / folder);
    }
  }
  for (const auto& folder : folders) {
    ARROW_RETURN_NOT_OK(checkpoint::SyncDirectory(folder.string()));
  }
  return arrow::Status::OK();
}

arrow::Status CommitBatchManifest(const checkpoint::CompactibleLog& log, int64_t batch_id,
                                  const std::vector<checkpoint::SinkFileStatus>& files,
                                  std::optional<int64_t> retention_ms, int64_t now_ms) {
  // Retention only ever applies when compacting, as in Spark: delta files list what the
  // batch wrote, and compact files are where expired entries are left out.
  const bool expire = retention_ms.has_value() && log.IsCompactionBatch(batch_id);
  std::vector<std::string> entries;
  entries.reserve(files.size());
  for (const auto& file : files) {
    if (expire && !Retained(file, *retention_ms, now_ms)) continue;
    entries.push_back(checkpoint::SinkFileStatusToJson(file));
  }
  if (!expire) return log.Add(batch_id, entries);
  auto keep = [&](std::string_view entry) {
    auto parsed = checkpoint::ParseSinkFileStatus(entry, log.directory());
    // An entry that does not parse is kept, so that readers report the corrupt log file.
    return !parsed.ok() || Retained(*parsed, *retention_ms, now_ms);
  };
  return log.Add(batch_id, entries, keep);
}

void DeleteUncommittedFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths) {
  for (const auto& relative : relative_paths) {
    std::error_code ignored;
    fs::remove(fs::path(output_folder) / relative, ignored);
  }
}

}  // namespace sluice::sinks
