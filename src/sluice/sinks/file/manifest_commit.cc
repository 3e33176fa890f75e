#include "sluice/sinks/file/manifest_commit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::sinks {

namespace fs = std::filesystem;

namespace {

arrow::Status Errno(const char* what, const std::string& path) {
  return arrow::Status::IOError(what, " ", path, ": ", std::strerror(errno));
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

}  // namespace sluice::sinks
