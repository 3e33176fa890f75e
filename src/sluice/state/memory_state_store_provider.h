// The default state store provider: every entry in memory, each version made durable as a
// delta file of the keys it changed, with a periodic snapshot of all entries (the scheme of
// Spark's HDFSBackedStateStoreProvider, with compact storage).
#pragma once

#include <cstdint>
#include <future>
#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/state/arena_hash_table.h"
#include "sluice/state/maintenance_schedule.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store.h"
#include "sluice/state/undo_log.h"

namespace sluice::state {

/// Keeps the newest loaded version of one store in an ArenaHashTable. A store opened at the
/// loaded version starts at once; any other retained version is read from the folder (the
/// newest snapshot at or below it, then the deltas after it). Commit of version v writes
/// <v>.delta, every change of the version in order (written as the changes happen). When
/// maintenance is due (see MaintenanceSchedule) Commit then does it, as Spark's maintenance
/// task does: when min_deltas_for_snapshot deltas have been written since the last snapshot,
/// it takes a snapshot of all entries: it copies them into the snapshot's bytes (so the
/// snapshot never races a later version's changes), and a background thread writes and syncs
/// <v>.snapshot while the next batches run. The deltas keep every version loadable until it
/// is on disk; a failed snapshot is logged and retried at the next maintenance. At most one
/// snapshot is in flight: the next Commit waits for it. Maintenance then deletes the files no
/// version among the newest min_versions_to_retain needs, and hidden temp files left by
/// interrupted writes. Every file is written with WriteFileAtomically.
/// Not thread-safe; one store open at a time.
class MemoryStateStoreProvider final : public StateStoreProvider {
 public:
  /// A provider for the store `id` whose files live in `folder` (see StateStoreFolder). Does
  /// no I/O; the folder is created by the first commit.
  static arrow::Result<std::unique_ptr<MemoryStateStoreProvider>> Make(std::string folder,
                                                                       StateStoreId id,
                                                                       StateStoreConf conf);

  ~MemoryStateStoreProvider() override { WaitForSnapshot(); }

  arrow::Result<std::unique_ptr<StateStore>> GetStore(int64_t version) override;

  /// Returns once the snapshot being written in the background, if any, is on disk or has
  /// failed (then it is logged, and the next maintenance takes another).
  void WaitForSnapshot();
  const std::string& folder() const override { return folder_; }

  /// The version held in memory, or -1 when none is.
  int64_t loaded_version() const { return loaded_version_; }

 private:
  friend class MemoryStateStore;

  MemoryStateStoreProvider(std::string folder, StateStoreId id, StateStoreConf conf);

  /// Makes `version` the one held in memory, reading files unless it already is.
  arrow::Status Load(int64_t version);
  arrow::Status ReadFileInto(int64_t version, StateFileKind kind);
  /// Completes the files of version `version` (the loaded one + 1): `delta`, its delta file
  /// written as the changes happened; clears the marks of the entries the version changed
  /// (the keys of undo_); then does the maintenance if it is due (a snapshot if one is due,
  /// and the cleanup). `bytes_written` receives the files' total size.
  arrow::Status CommitVersion(int64_t version, ChangelogWriter& delta, int64_t* bytes_written);
  arrow::Status Cleanup(int64_t newest_version);
  std::string PathOf(int64_t version, StateFileKind kind) const;
  /// "MemoryStateStoreProvider[StateStoreId[...], dir=<folder>]", for error messages.
  std::string Describe() const;

  std::string folder_;
  StateStoreId id_;
  StateStoreConf conf_;
  MaintenanceSchedule maintenance_;
  /// The entries; the open store marks those it changed.
  ArenaHashTable table_;
  /// The undo log of the open store: the keys it changed, each with the value it had before
  /// (see MemoryStateStore).
  UndoLog undo_;
  int64_t loaded_version_ = -1;
  /// The newest version with a snapshot at or below loaded_version_ (0 when none).
  int64_t last_snapshot_version_ = 0;
  /// The snapshot being written in the background, and the last snapshot before it (which
  /// becomes the last one again if the write fails).
  std::future<arrow::Status> pending_snapshot_;
  int64_t snapshot_before_pending_ = 0;
  bool store_open_ = false;
  /// Loads of a version > 0 served from memory, and read from files.
  int64_t cache_hits_ = 0;
  int64_t cache_misses_ = 0;
};

}  // namespace sluice::state
