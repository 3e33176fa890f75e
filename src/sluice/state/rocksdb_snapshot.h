// Moving whole-database snapshots of the RocksDB provider between its local database folder
// and the checkpoint (layout in rocksdb_checkpoint_format.h).
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/state/rocksdb_checkpoint_format.h"

namespace sluice::state {

/// "<folder>/<version>.snapshot".
std::string SnapshotFolderPath(const std::string& folder, int64_t version);

/// Publishes the local RocksDB checkpoint `local_checkpoint` of state version `version`, which
/// holds `num_keys` keys, as <folder>/<version>.snapshot: built in a hidden temp folder,
/// fsynced, then renamed into place (atomically replacing a snapshot of the same version that
/// a re-run batch wrote before), and the folder fsynced. Table files that
/// `previous_snapshot` (a snapshot folder of the same database, or empty) holds with the same
/// name and size are hard links to it; the others are hard links to the local checkpoint's
/// when both folders are on one file system, copies otherwise. Returns the bytes the snapshot
/// added to the checkpoint (files not shared with `previous_snapshot`).
arrow::Result<int64_t> WriteSnapshot(const std::string& local_checkpoint,
                                     const std::string& folder, int64_t version,
                                     int64_t num_keys, const std::string& previous_snapshot);

/// Fills the empty folder `db_folder` with the database of <folder>/<version>.snapshot,
/// checking its metadata and that every file it lists is there with its size; errors name
/// the file, with `store` describing the store, and carry CANNOT_LOAD_STATE_STORE. Table files
/// are hard-linked when possible (they are never modified), the others copied.
arrow::Result<RocksDbSnapshotMetadata> RestoreSnapshot(const std::string& folder,
                                                       int64_t version,
                                                       const std::string& db_folder,
                                                       const std::string& store);

}  // namespace sluice::state
