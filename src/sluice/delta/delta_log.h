// A Delta table's transaction log on the local file system: the names of its files, the state
// of the table at a version (replayed from the last checkpoint and the commits after it), and
// writing a commit so that two writers can never both take one version.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/delta/delta_actions.h"

namespace sluice::delta {

/// The state of a table at one version. Immutable once loaded.
struct Snapshot {
  int64_t version = -1;
  Protocol protocol;
  Metadata metadata;
  /// The table schema (metadata.schema_string read).
  std::shared_ptr<arrow::Schema> schema;
  /// The files of the table, in the order they were added.
  std::vector<AddFile> files;
  /// The last version each application committed (txn actions).
  std::map<std::string, int64_t> app_versions;
  /// When this version was committed, in milliseconds since the epoch: the commit file's
  /// modification time, as Delta's timestamp-based time travel uses it.
  int64_t timestamp_ms = 0;

  /// The version `app_id` last committed, if it ever did.
  std::optional<int64_t> AppVersion(const std::string& app_id) const;
};

/// The log of the table at a local folder. Cheap to make; every call reads the file system,
/// so it sees what other writers committed. Thread-compatible.
class DeltaLog {
 public:
  explicit DeltaLog(std::string table_path);

  const std::string& table_path() const { return table_path_; }
  /// <table>/_delta_log
  std::string LogFolder() const;
  /// <table>/_delta_log/<version as 20 digits>.json
  std::string CommitPath(int64_t version) const;
  /// <table>/_delta_log/<version as 20 digits>.checkpoint.parquet
  std::string CheckpointPath(int64_t version) const;

  /// The newest committed version, or nullopt when the folder holds no Delta table.
  arrow::Result<std::optional<int64_t>> LatestVersion() const;

  /// The table at `version` (the latest when nullopt). DELTA_TABLE_NOT_FOUND when there is no
  /// table; DELTA_VERSIONS_NOT_CONTIGUOUS or DELTA_LOG_FILE_NOT_FOUND naming the missing commit
  /// when the log has a gap; DELTA_LOG_FILE_CORRUPT naming a garbled file;
  /// DELTA_STATE_RECOVER_ERROR when the log holds no protocol or metadata.
  arrow::Result<Snapshot> Load(std::optional<int64_t> version = std::nullopt) const;

  /// `snapshot` brought forward to the latest version (or `version`) by replaying only the
  /// commits after it.
  arrow::Result<Snapshot> Update(const Snapshot& snapshot,
                                 std::optional<int64_t> version = std::nullopt) const;

  /// The actions of commit `version`.
  arrow::Result<std::vector<Action>> ReadCommit(int64_t version) const;

  /// The commit time of every version whose commit file is in the log, ascending: the files'
  /// modification times, made strictly increasing as Delta makes them (a commit never counts
  /// as older than the one before it).
  arrow::Result<std::vector<std::pair<int64_t, int64_t>>> CommitTimes() const;

  /// The newest version committed at or before `timestamp_ms` (time travel);
  /// DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION / DELTA_TIMESTAMP_GREATER_THAN_COMMIT when
  /// no version matches. `shown` is the timestamp as the user wrote it, for messages.
  arrow::Result<int64_t> VersionAtOrBefore(int64_t timestamp_ms, const std::string& shown) const;

  /// The oldest version committed at or after `timestamp_ms` (a stream's startingTimestamp);
  /// DELTA_TIMESTAMP_GREATER_THAN_COMMIT when every commit is older.
  arrow::Result<int64_t> VersionAtOrAfter(int64_t timestamp_ms, const std::string& shown) const;

  /// Writes commit `version` durably, only if no writer has taken that version: AlreadyExists
  /// (checkpoint::IsAlreadyExists) when one has, and nothing is changed.
  arrow::Status WriteCommit(int64_t version, const std::vector<Action>& actions) const;

 private:
  /// Applies the commits after `snapshot->version` up to `version` in place.
  arrow::Status Replay(Snapshot* snapshot, int64_t version) const;

  std::string table_path_;
};

/// The versions of the commit files (<20 digits>.json) in a log folder, ascending.
arrow::Result<std::vector<int64_t>> ListCommitVersions(const std::string& log_folder);

}  // namespace sluice::delta
