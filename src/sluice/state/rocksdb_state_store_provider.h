// The state store provider for state larger than memory: the live state in a local RocksDB
// database, each version made durable as a changelog of the keys it changed, with a periodic
// snapshot of the whole database (Spark's RocksDBStateStoreProvider with changelog
// checkpointing; files in rocksdb_checkpoint_format.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/state/key_filter.h"
#include "sluice/state/maintenance_schedule.h"
#include "sluice/state/rocksdb_shared_resources.h"
#include "sluice/state/state_store.h"

namespace rocksdb {
class DB;
struct Options;
}  // namespace rocksdb

namespace sluice::state {

/// Keeps the newest loaded version of one store in a RocksDB database in a folder of its own
/// under conf.rocksdb.local_dir (the system temp folder by default), removed when the provider
/// is destroyed. A store opened at the loaded version starts at once; any other retained
/// version is rebuilt from the checkpoint folder (the newest snapshot at or below it, then the
/// changelogs after it).
///
/// A filter of every key the database holds (KeyFilter), kept beside it and rebuilt by a scan
/// of the database when a version is loaded or when removed keys make up most of it (by the
/// next ForEach, which scans them all anyway, or else at commit), answers the lookups of keys
/// the store never held without asking RocksDB.
///
/// A store buffers its changes (see RocksDbSharedResources::MaxWriteBufferBytes) and applies
/// them in key order, to the version's changelog and then to the database as one sorted table
/// file it ingests (no memtable, no write-ahead log), when the buffer fills and at Commit:
/// memory does not grow with the number of changes. GetMany reads the keys in the database's
/// key order (by MultiGet, or by walking the database when they are many) and remembers which
/// exist, so that the puts that follow (applies of the buffer amid them
/// included) count new keys without a second lookup. Commit of version v completes
/// <v>.changelog; when min_deltas_for_snapshot versions have been committed since the last
/// snapshot it also writes <v>.snapshot, synchronously; when maintenance is due (see
/// MaintenanceSchedule) it then deletes the files no version among the newest
/// min_versions_to_retain needs. Abort reads the changelog back and restores
/// each key it names from a RocksDB snapshot taken when the store opened; a failed commit or
/// rollback instead drops the database, to be rebuilt from the checkpoint by the next
/// GetStore.
///
/// Memory: RocksDB's block cache, memtables and table readers, bounded per query through
/// `shared` (see RocksDbSharedResources), which the key filter is charged to too (about 2 to
/// 4 bytes per key); a store's write buffer (within the bound too, when there is one); what
/// GetMany
/// remembers of the keys of its latest call; the changelog's 1 MiB buffer; a table file being
/// written. Not thread-safe; one store open at a time.
class RocksDbStateStoreProvider final : public StateStoreProvider {
 public:
  /// A provider for the store `id` whose checkpoint files live in `folder` (see
  /// StateStoreFolder), sharing `shared` with the query's other RocksDB providers. Does no
  /// I/O; the local database is made by the first GetStore, the folder by the first commit.
  static arrow::Result<std::unique_ptr<RocksDbStateStoreProvider>> Make(
      std::string folder, StateStoreId id, StateStoreConf conf,
      std::shared_ptr<RocksDbSharedResources> shared);
  ~RocksDbStateStoreProvider() override;

  arrow::Result<std::unique_ptr<StateStore>> GetStore(int64_t version) override;
  const std::string& folder() const override { return folder_; }

  /// The version the database holds, or -1 when none is loaded.
  int64_t loaded_version() const { return loaded_version_; }
  /// The local folder of this provider's database.
  const std::string& local_folder() const { return local_folder_; }
  /// The filter of the keys the loaded database holds.
  const KeyFilter& key_filter() const { return key_filter_; }

 private:
  friend class RocksDbStateStore;

  RocksDbStateStoreProvider(std::string folder, StateStoreId id, StateStoreConf conf,
                            std::shared_ptr<RocksDbSharedResources> shared,
                            rocksdb::Options options);

  /// Makes `version` the one in the database, rebuilding it unless it already is.
  arrow::Status Load(int64_t version);
  arrow::Status OpenDatabase();
  /// Closes the database and forgets what it held: the next GetStore rebuilds it.
  void DropDatabase();
  /// Applies one change while loading, keeping num_keys_ exact.
  arrow::Status Replay(std::string_view key, std::optional<std::string_view> value);
  /// After the changelog of `version` is in place: the snapshot if one is due (Spark's
  /// RocksDB provider takes it at commit too), the new number of keys, and the cleanup when
  /// maintenance is due, and the key filter made anew if crowded, unless the version
  /// `scanned` every key. `bytes_written` receives the snapshot's bytes.
  arrow::Status FinishCommit(int64_t version, int64_t num_keys, bool scanned,
                             int64_t* bytes_written);
  arrow::Status Cleanup(int64_t newest_version);
  /// Makes the key filter anew from the keys of the database.
  arrow::Status RebuildKeyFilter();
  /// Whether removed keys make up most of the key filter, for a store of `num_keys` keys.
  bool KeyFilterCrowded(int64_t num_keys) const;
  /// An empty key filter for a store of `num_keys` keys: sized for twice as many, so that
  /// the store can grow as much before the filter needs a second layer.
  static KeyFilter KeyFilterFor(int64_t num_keys);
  /// Replaces the key filter with `filter`, made anew from every key the database holds.
  void ReplaceKeyFilter(KeyFilter filter);
  /// Charges the key filter's memory to the shared budget, as it stands now.
  void ChargeKeyFilter();
  /// Bytes of memory this database holds on its own (memtables, table readers, and its
  /// block cache when not shared).
  int64_t MemoryUsedBytes() const;
  std::string ChangelogPath(int64_t version) const;
  /// A fresh path in the local folder for a table file a store writes and then ingests.
  std::string NextIngestPath();
  /// "RocksDBStateStoreProvider[StateStoreId[...], dir=<folder>]", for error messages.
  std::string Describe() const;

  std::string folder_;
  StateStoreId id_;
  StateStoreConf conf_;
  MaintenanceSchedule maintenance_;
  std::shared_ptr<RocksDbSharedResources> shared_;
  std::unique_ptr<rocksdb::Options> options_;
  std::string local_folder_;
  int64_t next_ingest_ = 0;
  std::unique_ptr<rocksdb::DB> db_;
  int64_t loaded_version_ = -1;
  /// Keys in the database at loaded_version_.
  int64_t num_keys_ = 0;
  /// The newest snapshot of this database's lineage at or below loaded_version_ (0 when
  /// none): the next snapshot is due min_deltas_for_snapshot versions after it, and it shares
  /// its table files with it.
  int64_t last_snapshot_version_ = 0;
  bool store_open_ = false;
  /// Every key the database holds or the open store put, and keys removed since the filter
  /// was built. Valid while the database is loaded.
  KeyFilter key_filter_;
  /// The bytes of key_filter_ charged to the shared budget.
  int64_t charged_filter_bytes_ = 0;
  /// The most bytes of changes a store buffers before applying them.
  int64_t max_pending_bytes_;
};

}  // namespace sluice::state
