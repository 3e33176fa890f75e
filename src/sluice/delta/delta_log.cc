#include "sluice/delta/delta_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unordered_map>

#include <arrow/type.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_checkpoint.h"
#include "sluice/types/json_schema.h"

namespace sluice::delta {

namespace fs = std::filesystem;

namespace {

constexpr size_t kVersionDigits = 20;

std::string VersionName(int64_t version) {
  char text[32];
  std::snprintf(text, sizeof(text), "%020lld", static_cast<long long>(version));
  return text;
}

/// The version of a commit file name "<20 digits>.json", or -1.
int64_t CommitVersionOf(const std::string& name) {
  if (name.size() != kVersionDigits + 5 || name.compare(kVersionDigits, 5, ".json") != 0) {
    return -1;
  }
  int64_t version = 0;
  for (size_t i = 0; i < kVersionDigits; ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    version = version * 10 + (name[i] - '0');
  }
  return version;
}

/// A file's modification time in milliseconds.
arrow::Result<int64_t> ModificationTimeMs(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return arrow::Status::IOError("Cannot read the modification time of ", path);
  }
  return static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1000000;
}

/// The snapshot's files, indexed by path while actions are applied to them.
class FileSet {
 public:
  explicit FileSet(std::vector<AddFile> files) : files_(std::move(files)) {
    for (size_t i = 0; i < files_.size(); ++i) index_[files_[i].path] = i;
  }
  void Add(AddFile add) {
    auto [it, inserted] = index_.emplace(add.path, files_.size());
    if (inserted) {
      files_.push_back(std::move(add));
    } else {
      files_[it->second] = std::move(add);
    }
  }
  void Remove(const std::string& path) {
    auto it = index_.find(path);
    if (it == index_.end()) return;
    removed_.push_back(it->second);
    files_[it->second].path.clear();
    index_.erase(it);
  }
  std::vector<AddFile> Take() && {
    if (!removed_.empty()) {
      files_.erase(std::remove_if(files_.begin(), files_.end(),
                                  [](const AddFile& file) { return file.path.empty(); }),
                   files_.end());
    }
    return std::move(files_);
  }

 private:
  std::vector<AddFile> files_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<size_t> removed_;
};

void Apply(std::vector<Action>& actions, Snapshot* snapshot, FileSet* files) {
  for (auto& action : actions) {
    if (auto* add = std::get_if<AddFile>(&action)) {
      files->Add(std::move(*add));
    } else if (auto* remove = std::get_if<RemoveFile>(&action)) {
      files->Remove(remove->path);
    } else if (auto* txn = std::get_if<Transaction>(&action)) {
      snapshot->app_versions[txn->app_id] = txn->version;
    } else if (auto* protocol = std::get_if<Protocol>(&action)) {
      snapshot->protocol = std::move(*protocol);
    } else if (auto* metadata = std::get_if<Metadata>(&action)) {
      snapshot->metadata = std::move(*metadata);
    }
  }
}

arrow::Status NotContiguous(const DeltaLog& log, int64_t missing) {
  return SparkError("DELTA_VERSIONS_NOT_CONTIGUOUS",
                    "Versions are not contiguous: the commit file " + log.CommitPath(missing) +
                        " is missing. The table's log was damaged; restore the file to read "
                        "the table.");
}

}  // namespace

std::optional<int64_t> Snapshot::AppVersion(const std::string& app_id) const {
  auto found = app_versions.find(app_id);
  if (found == app_versions.end()) return std::nullopt;
  return found->second;
}

DeltaLog::DeltaLog(std::string table_path) : table_path_(std::move(table_path)) {}

std::string DeltaLog::LogFolder() const { return (fs::path(table_path_) / "_delta_log").string(); }

std::string DeltaLog::CommitPath(int64_t version) const {
  return (fs::path(LogFolder()) / (VersionName(version) + ".json")).string();
}

std::string DeltaLog::CheckpointPath(int64_t version) const {
  return (fs::path(LogFolder()) / (VersionName(version) + ".checkpoint.parquet")).string();
}

arrow::Result<std::vector<int64_t>> ListCommitVersions(const std::string& log_folder) {
  std::vector<int64_t> versions;
  std::error_code error;
  if (!fs::is_directory(log_folder, error)) return versions;
  for (const auto& entry : fs::directory_iterator(log_folder, error)) {
    int64_t version = CommitVersionOf(entry.path().filename().string());
    if (version >= 0) versions.push_back(version);
  }
  if (error) {
    return arrow::Status::IOError("Cannot list the Delta log ", log_folder, ": ",
                                  error.message());
  }
  std::sort(versions.begin(), versions.end());
  return versions;
}

arrow::Result<std::optional<int64_t>> DeltaLog::LatestVersion() const {
  ARROW_ASSIGN_OR_RAISE(auto versions, ListCommitVersions(LogFolder()));
  if (!versions.empty()) return versions.back();
  // A log whose commits were all cleaned up still has its checkpoint.
  return FindCheckpoint(*this, INT64_MAX);
}

arrow::Result<std::vector<Action>> DeltaLog::ReadCommit(int64_t version) const {
  const std::string path = CommitPath(version);
  std::error_code error;
  if (!fs::exists(path, error)) return NotContiguous(*this, version);
  ARROW_ASSIGN_OR_RAISE(auto text, checkpoint::ReadWholeFile(path));
  return ParseCommit(text, path);
}

arrow::Status DeltaLog::Replay(Snapshot* snapshot, int64_t version) const {
  FileSet files(std::move(snapshot->files));
  for (int64_t v = snapshot->version + 1; v <= version; ++v) {
    ARROW_ASSIGN_OR_RAISE(auto actions, ReadCommit(v));
    Apply(actions, snapshot, &files);
  }
  snapshot->files = std::move(files).Take();
  if (snapshot->metadata.id.empty() || snapshot->metadata.schema_string.empty()) {
    return SparkError("DELTA_STATE_RECOVER_ERROR",
                      "The metadata of the Delta table at " + table_path_ +
                          " could not be recovered while reconstructing version " +
                          std::to_string(version) + ": no commit up to it holds a metaData "
                          "action. The log is damaged.");
  }
  if (version != snapshot->version || snapshot->schema == nullptr) {
    auto schema = types::SchemaFromJson(snapshot->metadata.schema_string);
    if (!schema.ok()) {
      return SparkError("DELTA_LOG_FILE_CORRUPT",
                        "The schema of the Delta table at " + table_path_ + " (version " +
                            std::to_string(version) + ") cannot be read: " +
                            schema.status().message());
    }
    snapshot->schema = *schema;
  }
  snapshot->version = version;
  std::error_code error;
  const std::string commit = CommitPath(version);
  ARROW_ASSIGN_OR_RAISE(snapshot->timestamp_ms,
                        ModificationTimeMs(fs::exists(commit, error) ? commit
                                                                     : CheckpointPath(version)));
  return arrow::Status::OK();
}

arrow::Result<Snapshot> DeltaLog::Load(std::optional<int64_t> version) const {
  ARROW_ASSIGN_OR_RAISE(auto latest, LatestVersion());
  if (!latest) {
    return SparkError("DELTA_TABLE_NOT_FOUND",
                      "Delta table " + table_path_ +
                          " doesn't exist: the folder holds no _delta_log with commits.");
  }
  const int64_t target = version.value_or(*latest);
  if (target > *latest || target < 0) {
    return SparkError("DELTA_VERSION_NOT_FOUND",
                      "Cannot time travel Delta table to version " + std::to_string(target) +
                          ". Available versions: [0, " + std::to_string(*latest) + "].");
  }
  Snapshot snapshot;
  ARROW_ASSIGN_OR_RAISE(auto checkpoint_version, FindCheckpoint(*this, target));
  if (checkpoint_version) {
    ARROW_ASSIGN_OR_RAISE(auto actions, ReadCheckpoint(*this, *checkpoint_version));
    FileSet files({});
    Apply(actions, &snapshot, &files);
    snapshot.files = std::move(files).Take();
    snapshot.version = *checkpoint_version;
  }
  ARROW_RETURN_NOT_OK(Replay(&snapshot, target));
  return snapshot;
}

arrow::Result<Snapshot> DeltaLog::Update(const Snapshot& snapshot,
                                         std::optional<int64_t> version) const {
  int64_t target = 0;
  if (version) {
    target = *version;
  } else {
    ARROW_ASSIGN_OR_RAISE(auto latest, LatestVersion());
    target = latest.value_or(-1);
  }
  if (target < snapshot.version) return Load(target);
  Snapshot updated = snapshot;
  ARROW_RETURN_NOT_OK(Replay(&updated, target));
  return updated;
}

arrow::Result<std::vector<std::pair<int64_t, int64_t>>> DeltaLog::CommitTimes() const {
  ARROW_ASSIGN_OR_RAISE(auto versions, ListCommitVersions(LogFolder()));
  if (versions.empty()) {
    return SparkError("DELTA_TABLE_NOT_FOUND", "Delta table " + table_path_ + " doesn't exist.");
  }
  std::vector<std::pair<int64_t, int64_t>> times;
  times.reserve(versions.size());
  for (int64_t version : versions) {
    ARROW_ASSIGN_OR_RAISE(int64_t time, ModificationTimeMs(CommitPath(version)));
    if (!times.empty() && time <= times.back().second) time = times.back().second + 1;
    times.emplace_back(version, time);
  }
  return times;
}

arrow::Result<int64_t> DeltaLog::VersionAtOrBefore(int64_t timestamp_ms,
                                                   const std::string& shown) const {
  ARROW_ASSIGN_OR_RAISE(auto times, CommitTimes());
  if (timestamp_ms < times.front().second) {
    return SparkError("DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION",
                      "The provided timestamp (" + shown +
                          ") is before the earliest version available to this table (" +
                          std::to_string(times.front().first) +
                          "). Please use a timestamp after its first commit.");
  }
  if (timestamp_ms > times.back().second) {
    return SparkError("DELTA_TIMESTAMP_GREATER_THAN_COMMIT",
                      "The provided timestamp (" + shown +
                          ") is after the latest version available to this table (" +
                          std::to_string(times.back().first) +
                          "). Please use a timestamp before or at its last commit.");
  }
  int64_t found = times.front().first;
  for (const auto& [version, time] : times) {
    if (time <= timestamp_ms) found = version;
  }
  return found;
}

arrow::Result<int64_t> DeltaLog::VersionAtOrAfter(int64_t timestamp_ms,
                                                  const std::string& shown) const {
  ARROW_ASSIGN_OR_RAISE(auto times, CommitTimes());
  for (const auto& [version, time] : times) {
    if (time >= timestamp_ms) return version;
  }
  return SparkError("DELTA_TIMESTAMP_GREATER_THAN_COMMIT",
                    "The provided timestamp (" + shown +
                        ") is after the latest version available to this table (" +
                        std::to_string(times.back().first) +
                        "). Please use a timestamp before or at its last commit.");
}

arrow::Status DeltaLog::WriteCommit(int64_t version, const std::vector<Action>& actions) const {
  return checkpoint::WriteFileAtomically(CommitPath(version), CommitToJson(actions),
                                         /*overwrite=*/false);
}

}  // namespace sluice::delta
