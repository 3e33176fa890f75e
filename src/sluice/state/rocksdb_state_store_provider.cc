#include "sluice/state/rocksdb_state_store_provider.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/utilities/checkpoint.h>

#include "sluice/common/errors.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/rocksdb_conversions.h"
#include "sluice/state/rocksdb_snapshot.h"
#include "sluice/state/rocksdb_state_store.h"
#include "sluice/state/state_file_format.h"

namespace sluice::state {

namespace fs = std::filesystem;

namespace {

/// The key filter's first layer holds at least this many keys (112 KiB).
constexpr int64_t kFirstFilterLayerKeys = 1 << 16;

}  // namespace

RocksDbStateStoreProvider::RocksDbStateStoreProvider(
    std::string folder, StateStoreId id, StateStoreConf conf,
    std::shared_ptr<RocksDbSharedResources> shared, rocksdb::Options options)
    : folder_(std::move(folder)),
      id_(std::move(id)),
      conf_(std::move(conf)),
      maintenance_(conf_.maintenance_interval_ms),
      shared_(std::move(shared)),
      options_(std::make_unique<rocksdb::Options>(std::move(options))),
      key_filter_(kFirstFilterLayerKeys),
      max_pending_bytes_(shared_->MaxWriteBufferBytes(conf_.rocksdb)) {
  fs::path root = conf_.rocksdb.local_dir.empty() ? fs::temp_directory_path()
                                                  : fs::path(conf_.rocksdb.local_dir);
  local_folder_ = (root / ("sluice-rocksdb-" + formats::RandomUuid())).string();
}

RocksDbStateStoreProvider::~RocksDbStateStoreProvider() {
  db_.reset();
  shared_->ChargeKeyFilters(-charged_filter_bytes_);
  std::error_code error;
  fs::remove_all(local_folder_, error);
}

arrow::Result<std::unique_ptr<RocksDbStateStoreProvider>> RocksDbStateStoreProvider::Make(
    std::string folder, StateStoreId id, StateStoreConf conf,
    std::shared_ptr<RocksDbSharedResources> shared) {
  if (conf.min_deltas_for_snapshot < 1) {
    return arrow::Status::Invalid(
        "spark.sql.streaming.stateStore.minDeltasForSnapshot must be at least 1: ",
        conf.min_deltas_for_snapshot);
  }
  if (conf.min_versions_to_retain < 1) {
    return arrow::Status::Invalid("spark.sql.streaming.minBatchesToRetain must be at least 1: ",
                                  conf.min_versions_to_retain);
  }
  if (conf.maintenance_interval_ms < 0) {
    return arrow::Status::Invalid(
        "spark.sql.streaming.stateStore.maintenanceInterval must not be negative: ",
        conf.maintenance_interval_ms, " ms");
  }
  if (shared == nullptr) {
    return arrow::Status::Invalid("The RocksDB state store provider of ", id.ToString(),
                                  " needs the query's shared RocksDB resources");
  }
  ARROW_ASSIGN_OR_RAISE(rocksdb::Options options, MakeDatabaseOptions(conf.rocksdb, *shared));
  return std::unique_ptr<RocksDbStateStoreProvider>(new RocksDbStateStoreProvider(
      std::move(folder), std::move(id), std::move(conf), std::move(shared),
      std::move(options)));
}

std::string RocksDbStateStoreProvider::Describe() const {
  return "RocksDBStateStoreProvider[" + id_.ToString() + ", dir=" + folder_ + "]";
}

std::string RocksDbStateStoreProvider::NextIngestPath() {
  return local_folder_ + "/ingest-" + std::to_string(next_ingest_++) + ".sst";
}

std::string RocksDbStateStoreProvider::ChangelogPath(int64_t version) const {
  return folder_ + "/" + StateFileName(version, StateFileKind::kChangelog);
}

arrow::Result<std::unique_ptr<StateStore>> RocksDbStateStoreProvider::GetStore(
    int64_t version) {
  ARROW_RETURN_NOT_OK(CheckVersionToLoad(version));
  if (store_open_) {
    return arrow::Status::Invalid("A store of ", Describe(),
                                  " is still open; commit or abort it first");
  }
  ARROW_RETURN_NOT_OK(Load(version));
  store_open_ = true;
  return OpenRocksDbStateStore(this, version);
}

arrow::Status RocksDbStateStoreProvider::Load(int64_t version) {
  if (db_ && version == loaded_version_) return arrow::Status::OK();
  ARROW_ASSIGN_OR_RAISE(StateFolderListing listing, ListStateFolder(folder_));
  int64_t base = listing.BaseSnapshot(version);
  DropDatabase();
  std::string db_folder = local_folder_ + "/db";
  std::error_code error;
  fs::remove_all(db_folder, error);
  fs::create_directories(db_folder, error);
  if (error) {
    return arrow::Status::IOError("Cannot create folder ", db_folder, ": ", error.message());
  }
  arrow::Status status = arrow::Status::OK();
  num_keys_ = 0;
  if (base > 0) {
    auto metadata = RestoreSnapshot(folder_, base, db_folder, Describe());
    status = metadata.status();
    if (status.ok()) num_keys_ = metadata->num_keys;
  }
  if (status.ok()) status = OpenDatabase();
  for (int64_t changelog = base + 1; status.ok() && changelog <= version; ++changelog) {
    status = ReadChangelog(ChangelogPath(changelog), Describe(), changelog,
                           [&](std::string_view key, std::optional<std::string_view> value) {
                             return Replay(key, value);
                           });
  }
  if (status.ok()) status = RebuildKeyFilter();
  if (!status.ok()) {
    DropDatabase();
    return status;
  }
  loaded_version_ = version;
  last_snapshot_version_ = base;
  return arrow::Status::OK();
}

arrow::Status RocksDbStateStoreProvider::OpenDatabase() {
  rocksdb::DB* db = nullptr;
  rocksdb::Status status = rocksdb::DB::Open(*options_, local_folder_ + "/db", &db);
  if (!status.ok()) {
    return SparkError("CANNOT_LOAD_STATE_STORE",
                      "An error occurred during loading state. Cannot open the RocksDB "
                      "database of " +
                          Describe() + " in " + local_folder_ + "/db: " + status.ToString());
  }
  db_.reset(db);
  return arrow::Status::OK();
}

void RocksDbStateStoreProvider::DropDatabase() {
  db_.reset();
  loaded_version_ = -1;
  key_filter_ = KeyFilter(kFirstFilterLayerKeys);
  ChargeKeyFilter();
}

KeyFilter RocksDbStateStoreProvider::KeyFilterFor(int64_t num_keys) {
  return KeyFilter(std::max(kFirstFilterLayerKeys, 2 * num_keys));
}

bool RocksDbStateStoreProvider::KeyFilterCrowded(int64_t num_keys) const {
  return key_filter_.keys() > 2 * num_keys + kFirstFilterLayerKeys;
}

void RocksDbStateStoreProvider::ReplaceKeyFilter(KeyFilter filter) {
  key_filter_ = std::move(filter);
  ChargeKeyFilter();
}

arrow::Status RocksDbStateStoreProvider::RebuildKeyFilter() {
  key_filter_ = KeyFilterFor(num_keys_);
  rocksdb::ReadOptions scan;
  scan.fill_cache = false;  // one pass over everything: keep the cache for the lookups
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(scan));
  std::vector<uint64_t> hashes;
  constexpr size_t kBatch = 4096;
  hashes.reserve(kBatch);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    hashes.push_back(KeyFilter::Hash(ToView(it->key())));
    if (hashes.size() < kBatch) continue;
    key_filter_.AddNewMany(hashes);
    hashes.clear();
  }
  key_filter_.AddNewMany(hashes);
  ChargeKeyFilter();
  return FromRocksDb(it->status(), "Cannot read the keys of " + Describe());
}

void RocksDbStateStoreProvider::ChargeKeyFilter() {
  if (key_filter_.memory_bytes() == charged_filter_bytes_) return;
  shared_->ChargeKeyFilters(key_filter_.memory_bytes() - charged_filter_bytes_);
  charged_filter_bytes_ = key_filter_.memory_bytes();
}

arrow::Status RocksDbStateStoreProvider::Replay(std::string_view key,
                                                std::optional<std::string_view> value) {
  rocksdb::WriteOptions write_options;
  write_options.disableWAL = true;
  rocksdb::PinnableSlice current;
  rocksdb::Status status =
      db_->Get(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), ToSlice(key), &current);
  if (!status.ok() && !status.IsNotFound()) {
    return FromRocksDb(status, "Cannot read from " + Describe());
  }
  bool existed = status.ok();
  if (value) {
    status = db_->Put(write_options, ToSlice(key), ToSlice(*value));
    if (!existed) ++num_keys_;
  } else {
    status = db_->Delete(write_options, ToSlice(key));
    if (existed) --num_keys_;
  }
  return FromRocksDb(status, "Cannot write to " + Describe());
}

arrow::Status RocksDbStateStoreProvider::FinishCommit(int64_t version, int64_t num_keys,
                                                      bool scanned, int64_t* bytes_written) {
  // From here on the database holds `version`; a failure below leaves the changelog in place
  // and the store drops the database, so the next load rebuilds `version` from the files.
  loaded_version_ = version;
  num_keys_ = num_keys;
  if (version - last_snapshot_version_ >= conf_.min_deltas_for_snapshot) {
    std::string local_checkpoint = local_folder_ + "/checkpoint";
    std::error_code error;
    fs::remove_all(local_checkpoint, error);
    rocksdb::Checkpoint* checkpoint = nullptr;
    ARROW_RETURN_NOT_OK(FromRocksDb(rocksdb::Checkpoint::Create(db_.get(), &checkpoint),
                                    "Cannot checkpoint " + Describe()));
    std::unique_ptr<rocksdb::Checkpoint> owned(checkpoint);
    // Writes skip the write-ahead log, so the checkpoint must flush the memtables: a size of
    // 0 makes it always do so.
    ARROW_RETURN_NOT_OK(
        FromRocksDb(owned->CreateCheckpoint(local_checkpoint, /*log_size_for_flush=*/0),
                    "Cannot checkpoint " + Describe() + " into " + local_checkpoint));
    std::string previous = last_snapshot_version_ > 0
                               ? SnapshotFolderPath(folder_, last_snapshot_version_)
                               : std::string();
    auto written = WriteSnapshot(local_checkpoint, folder_, version, num_keys, previous);
    fs::remove_all(local_checkpoint, error);
    ARROW_RETURN_NOT_OK(written.status());
    *bytes_written = *written;
    last_snapshot_version_ = version;
  }
  // Removed keys stay in the filter, where a lookup of them falls through to the database:
  // once such keys are most of it, it is built anew (a scan of the keys held, after at least
  // as many keys were added). A store that scanned every key (ForEach, as an operator
  // evicting by the watermark does each batch) leaves that to the next version's scan.
  if (KeyFilterCrowded(num_keys) && !scanned) ARROW_RETURN_NOT_OK(RebuildKeyFilter());
  return maintenance_.DueNow() ? Cleanup(version) : arrow::Status::OK();
}

arrow::Status RocksDbStateStoreProvider::Cleanup(int64_t newest_version) {
  ARROW_ASSIGN_OR_RAISE(StateFolderListing listing, ListStateFolder(folder_));
  int64_t oldest_retained =
      std::max<int64_t>(0, newest_version - conf_.min_versions_to_retain + 1);
  // Loading any retained version reads a snapshot at or above this one, then later changelogs.
  int64_t base = listing.BaseSnapshot(oldest_retained);
  std::vector<fs::path> obsolete;
  for (int64_t version : listing.snapshots) {
    if (version >= base) continue;
    // Renamed away first, so that a crash halfway through the deletion never leaves a
    // partial snapshot under a name a load trusts.
    fs::path snapshot = SnapshotFolderPath(folder_, version);
    fs::path hidden = folder_ + "/." + snapshot.filename().string() + "." +
                      formats::RandomUuid() + ".tmp";
    std::error_code error;
    fs::rename(snapshot, hidden, error);
    if (error) {
      return arrow::Status::IOError("Cannot delete ", snapshot.string(), ": ", error.message());
    }
    obsolete.push_back(hidden);
  }
  for (int64_t version : listing.changelogs) {
    if (version <= base) obsolete.push_back(ChangelogPath(version));
  }
  // Commits are synchronous and one store is open at a time, so no write is under way: every
  // temp entry is the remains of a process killed mid-write.
  obsolete.insert(obsolete.end(), listing.temp_entries.begin(), listing.temp_entries.end());
  for (const fs::path& path : obsolete) {
    std::error_code error;
    fs::remove_all(path, error);
    if (error) {
      return arrow::Status::IOError("Cannot delete ", path.string(), ": ", error.message());
    }
  }
  return arrow::Status::OK();
}

int64_t RocksDbStateStoreProvider::MemoryUsedBytes() const {
  uint64_t memtables = 0, table_readers = 0, block_cache = 0;
  db_->GetIntProperty(rocksdb::DB::Properties::kCurSizeAllMemTables, &memtables);
  db_->GetIntProperty(rocksdb::DB::Properties::kEstimateTableReadersMem, &table_readers);
  // A shared cache serves every store of the query: no share of it is this store's own.
  if (!shared_->bounded()) {
    db_->GetIntProperty(rocksdb::DB::Properties::kBlockCacheUsage, &block_cache);
  }
  return static_cast<int64_t>(memtables + table_readers + block_cache) +
         key_filter_.memory_bytes();
}

}  // namespace sluice::state
