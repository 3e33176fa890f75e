#include "sluice/state/memory_state_store_provider.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

#include <arrow/util/logging.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/state_file_format.h"

namespace sluice::state {

namespace fs = std::filesystem;

namespace {
// Below one change per this many slots of the index, a commit looks the changed keys up to
// clear their marks instead of walking every slot. A lookup of a large table misses the cache
// twice (the key's record, to hash it, and its slot), some fifty times the cost of a slot
// walked in order: q20's join state (920K changes of 16M slots a batch) spent 1.2% of the
// query's samples looking its changes up, 0.6% walking.
constexpr size_t kSlotsPerChangeForAWalk = 32;
// Garbage the undo log does not point at that an open store lets gather before reclaiming it,
// at least.
constexpr int64_t kMinUnreferencedGarbageBytes = 1 << 20;
}  // namespace

/// One version of a MemoryStateStoreProvider's store, changed in place in the provider's
/// table. Every put, and every remove of a present key, is appended to the version's delta
/// file as it happens (a temp file until Commit), as Spark's HDFSBackedStateStore writes its
/// delta: a key put twice appears twice, and the change feed lists both. A put marks the key's
/// entry; the first change of each entry in this version (the first put or remove of a key,
/// and the put that inserts it again after a remove) appends the value it had to the undo log.
/// Undoing the log newest first restores the version on Abort. The table holds its garbage
/// while the store is open, so the log points at the keys and at the removed and replaced
/// values where the table keeps them, and copies only values about to be overwritten in
/// place. Garbage the log does not point at (the values between a key's first and last change
/// in a version) is bounded as compaction bounds it: once it outweighs the live records and
/// the log, the log copies what it points at and the table reclaims its garbage.
class MemoryStateStore final : public StateStore {
 public:
  MemoryStateStore(MemoryStateStoreProvider* provider, int64_t version)
      : provider_(provider), version_(version), undo_(provider->undo_) {
    provider_->table_.HoldGarbage();
    garbage_when_held_ = provider_->table_.garbage_bytes();
  }

  ~MemoryStateStore() override {
    if (open_) Abort();
  }

  int64_t version() const override { return version_; }

  std::optional<std::string_view> Get(std::string_view key) const override {
    return provider_->table_.Find(key);
  }

  void GetMany(std::span<const std::string_view> keys,
               const std::function<void(size_t, std::string_view)>& found) const override {
    const ArenaHashTable& table = provider_->table_;
    table.Pipelined(
        keys.size(), [&](size_t i) { return keys[i]; },
        [&](size_t i, uint64_t hash) {
          if (auto value = table.FindHashed(keys[i], hash)) found(i, *value);
        });
  }

  arrow::Status Put(std::string_view key, std::string_view value) override {
    ARROW_RETURN_NOT_OK(CheckOpen("Put"));
    PutHashed(key, ArenaHashTable::Hash(key), value);
    return log_status_;
  }

  arrow::Status PutMany(std::span<const std::string_view> keys,
                        std::span<const std::string_view> values) override {
    ARROW_RETURN_NOT_OK(CheckOpen("Put"));
    provider_->table_.Pipelined(
        keys.size(), [&](size_t i) { return keys[i]; },
        [&](size_t i, uint64_t hash) { PutHashed(keys[i], hash, values[i]); });
    return log_status_;
  }

  arrow::Status Remove(std::string_view key) override {
    ARROW_RETURN_NOT_OK(CheckOpen("Remove"));
    RemoveHashed(key, ArenaHashTable::Hash(key), [](std::string_view) {});
    return log_status_;
  }

  arrow::Status RemoveMany(std::span<const std::string_view> keys) override {
    ARROW_RETURN_NOT_OK(CheckOpen("Remove"));
    provider_->table_.Pipelined(
        keys.size(), [&](size_t i) { return keys[i]; },
        [&](size_t i, uint64_t hash) { RemoveHashed(keys[i], hash, [](std::string_view) {}); });
    return log_status_;
  }

  arrow::Status TakeHeld(
      std::span<const std::string_view> keys,
      const std::function<void(size_t, std::string_view)>& taken) override {
    ARROW_RETURN_NOT_OK(CheckOpen("Remove"));
    provider_->table_.Pipelined(
        keys.size(), [&](size_t i) { return keys[i]; },
        [&](size_t i, uint64_t hash) {
          RemoveHashed(keys[i], hash, [&](std::string_view value) { taken(i, value); });
        });
    return log_status_;
  }

  void ForEach(const std::function<void(std::string_view, std::string_view)>& visit)
      const override {
    provider_->table_.ForEach(visit);
  }

  bool ReadsConcurrently() const override { return true; }

  void ForEachOfPart(int part, int parts,
                     const std::function<void(std::string_view, std::string_view)>& visit)
      const override {
    provider_->table_.ForEachOfPart(static_cast<size_t>(part), static_cast<size_t>(parts),
                                    visit);
  }

  arrow::Result<int64_t> Commit() override {
    ARROW_RETURN_NOT_OK(CheckOpen("Commit"));
    auto start = std::chrono::steady_clock::now();
    int64_t bytes_written = 0;
    // A version without changes still has its (empty) delta.
    arrow::Status status = log_status_.ok() ? OpenDelta() : log_status_;
    if (status.ok()) status = provider_->CommitVersion(version_ + 1, *delta_, &bytes_written);
    if (!status.ok()) {
      commit_failed_ = true;
      return status;
    }
    metrics_.commit_time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
    metrics_.checkpoint_bytes_written = bytes_written;
    undo_.Clear();
    Close();
    committed_ = true;
    return version_ + 1;
  }

  void Abort() override {
    if (!open_) return;
    if (commit_failed_) {
      // Some files of the next version may be on disk; reloading from the folder is the one
      // way to be sure the memory matches what the next open expects.
      provider_->table_.Clear();
      provider_->loaded_version_ = -1;
      undo_.Clear();
      Close();
      return;
    }
    // Newest first: a key appears again only after its entry was removed and inserted anew,
    // and its first record holds what it had when the store opened.
    ArenaHashTable& table = provider_->table_;
    for (size_t i = undo_.size(); i-- > 0;) {
      if (auto previous = undo_.previous(i)) {
        table.Upsert(undo_.key(i), *previous);
      } else {
        table.Erase(undo_.key(i));
      }
    }
    table.UnmarkAll();
    undo_.Clear();
    Close();
  }

  bool committed() const override { return committed_; }

  StateStoreMetrics metrics() const override {
    StateStoreMetrics metrics = metrics_;
    metrics.num_keys = provider_->table_.size();
    metrics.memory_used_bytes =
        provider_->table_.memory_used_bytes() + undo_.memory_used_bytes();
    // Spark's HDFSBackedStateStoreProvider figures: loads served by the version in memory
    // and loads that read files (both counted over the provider's life), and the size of
    // the entries of the current version.
    metrics.custom_metrics["loadedMapCacheHitCount"] = provider_->cache_hits_;
    metrics.custom_metrics["loadedMapCacheMissCount"] = provider_->cache_misses_;
    metrics.custom_metrics["stateOnCurrentVersionSizeBytes"] = provider_->table_.record_bytes();
    return metrics;
  }

 private:
  arrow::Status CheckOpen(const char* operation) const {
    if (open_) return arrow::Status::OK();
    return arrow::Status::Invalid(operation, " on ", provider_->Describe(), " version ",
                                  version_, " after it was ",
                                  committed_ ? "committed" : "aborted");
  }

  /// One probe: the first change of the entry in this version logs the value it had.
  void PutHashed(std::string_view key, uint64_t hash, std::string_view value) {
    std::optional<std::string_view> logged;
    bool first_change = false;
    const std::string_view kept_key = provider_->table_.MarkingUpsertHashed(
        key, hash, value, [&](std::optional<std::string_view> previous) {
          first_change = true;
          if (previous && previous->size() == value.size()) {
            logged = undo_.Copy(*previous);  // about to be overwritten in place
          } else if (previous) {
            // A value of another length goes to a new record; the old one stays as garbage.
            logged = previous;
            referenced_garbage_ += ArenaHashTable::RecordBytes(key, *previous);
          }
        });
    if (first_change) undo_.AppendKept(kept_key, logged);
    if (OpenDelta().ok()) log_status_ = delta_->Put(key, value);
    ++metrics_.num_updated_rows;
    BoundUnreferencedGarbage();
  }

  /// One probe: `taken` sees the value removed while the table still holds it.
  template <typename Taken>
  void RemoveHashed(std::string_view key, uint64_t hash, Taken&& taken) {
    const bool removed = provider_->table_.EraseHashed(
        key, hash, [&](const ArenaHashTable::Entry& entry) {
          taken(entry.value);
          // A marked entry changed earlier in this version, which the log already holds.
          if (!entry.marked) {
            undo_.AppendKept(entry.key, entry.value);
            referenced_garbage_ += ArenaHashTable::RecordBytes(entry.key, entry.value);
          }
        });
    if (!removed) return;
    if (OpenDelta().ok()) log_status_ = delta_->Remove(key);
    ++metrics_.num_removed_rows;
    BoundUnreferencedGarbage();
  }

  /// Reclaims the table's garbage once what the undo log does not point at outweighs the
  /// live records and the log, so that each reclaim costs no more than the garbage it frees.
  void BoundUnreferencedGarbage() {
    ArenaHashTable& table = provider_->table_;
    const int64_t unreferenced = table.garbage_bytes() - garbage_when_held_ - referenced_garbage_;
    if (unreferenced < std::max({table.record_bytes(), undo_.bytes(),
                                 kMinUnreferencedGarbageBytes})) {
      return;
    }
    undo_.CopyAll();
    referenced_garbage_ = 0;
    table.ReleaseGarbage();
    table.HoldGarbage();
    garbage_when_held_ = table.garbage_bytes();
  }

  /// Opens the delta file at the first change; its error stays in log_status_, which every
  /// later change and Commit return.
  arrow::Status OpenDelta() {
    if (delta_ != nullptr || !log_status_.ok()) return log_status_;
    auto writer = ChangelogWriter::Open(provider_->PathOf(version_ + 1, StateFileKind::kDelta),
                                        StateFileKind::kDelta, version_ + 1);
    if (writer.ok()) {
      delta_ = writer.MoveValueUnsafe();
    } else {
      log_status_ = writer.status();
    }
    return log_status_;
  }

  void Close() {
    provider_->table_.ReleaseGarbage();
    delta_.reset();  // deletes its temp file unless committed
    open_ = false;
    provider_->store_open_ = false;
  }

  MemoryStateStoreProvider* provider_;
  int64_t version_;
  // The provider's undo log, empty when the store opens.
  UndoLog& undo_;
  // The table's garbage when it began holding it, and how much of what it gathered since the
  // undo log points at.
  int64_t garbage_when_held_ = 0;
  int64_t referenced_garbage_ = 0;
  // The delta file of version_ + 1, every change in the order it was made, and the first
  // error writing it.
  std::unique_ptr<ChangelogWriter> delta_;
  arrow::Status log_status_;
  StateStoreMetrics metrics_;
  bool open_ = true;
  bool committed_ = false;
  bool commit_failed_ = false;
};

MemoryStateStoreProvider::MemoryStateStoreProvider(std::string folder, StateStoreId id,
                                                   StateStoreConf conf)
    : folder_(std::move(folder)),
      id_(std::move(id)),
      conf_(conf),
      maintenance_(conf.maintenance_interval_ms) {}

arrow::Result<std::unique_ptr<MemoryStateStoreProvider>> MemoryStateStoreProvider::Make(
    std::string folder, StateStoreId id, StateStoreConf conf) {
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
  return std::unique_ptr<MemoryStateStoreProvider>(
      new MemoryStateStoreProvider(std::move(folder), std::move(id), conf));
}

std::string MemoryStateStoreProvider::Describe() const {
  return "MemoryStateStoreProvider[" + id_.ToString() + ", dir=" + folder_ + "]";
}

std::string MemoryStateStoreProvider::PathOf(int64_t version, StateFileKind kind) const {
  return folder_ + "/" + StateFileName(version, kind);
}

arrow::Result<std::unique_ptr<StateStore>> MemoryStateStoreProvider::GetStore(
    int64_t version) {
  ARROW_RETURN_NOT_OK(CheckVersionToLoad(version));
  if (store_open_) {
    return arrow::Status::Invalid("A store of ", Describe(),
                                  " is still open; commit or abort it first");
  }
  ARROW_RETURN_NOT_OK(Load(version));
  store_open_ = true;
  return std::make_unique<MemoryStateStore>(this, version);
}

arrow::Status MemoryStateStoreProvider::Load(int64_t version) {
  if (version == loaded_version_) {
    if (version > 0) ++cache_hits_;
    return arrow::Status::OK();
  }
  if (version > 0) ++cache_misses_;
  WaitForSnapshot();  // the folder must show every file this provider wrote
  ARROW_ASSIGN_OR_RAISE(StateFolderListing listing, ListStateFolder(folder_));
  int64_t base = listing.BaseSnapshot(version);
  for (int64_t delta = base + 1; delta <= version; ++delta) {
    if (!listing.deltas.count(delta)) {
      std::string path = PathOf(delta, StateFileKind::kDelta);
      return SparkError("CANNOT_LOAD_STATE_STORE.CANNOT_READ_DELTA_FILE_NOT_EXISTS",
                        "An error occurred during loading state. Error reading delta file " +
                            path + " of " + Describe() + ": " + path + " does not exist.");
    }
  }
  table_.Clear();
  loaded_version_ = -1;
  arrow::Status status = arrow::Status::OK();
  if (base > 0) status = ReadFileInto(base, StateFileKind::kSnapshot);
  for (int64_t delta = base + 1; status.ok() && delta <= version; ++delta) {
    status = ReadFileInto(delta, StateFileKind::kDelta);
  }
  if (!status.ok()) {
    table_.Clear();
    return status;
  }
  loaded_version_ = version;
  last_snapshot_version_ = base;
  return arrow::Status::OK();
}

arrow::Status MemoryStateStoreProvider::ReadFileInto(int64_t version, StateFileKind kind) {
  std::string path = PathOf(version, kind);
  ARROW_ASSIGN_OR_RAISE(std::string contents, checkpoint::ReadWholeFile(path));
  return ReadStateFile(contents, path, Describe(), kind, version,
                       [&](std::string_view key, std::optional<std::string_view> value) {
                         if (value) {
                           table_.Upsert(key, *value);
                         } else {
                           table_.Erase(key);
                         }
                       });
}

arrow::Status MemoryStateStoreProvider::CommitVersion(int64_t version, ChangelogWriter& delta,
                                                      int64_t* bytes_written) {
  // One snapshot in flight at a time; the previous one had a whole batch to finish.
  WaitForSnapshot();
  // The next version starts with no entry marked. Every changed key is in the undo log.
  if (undo_.size() * kSlotsPerChangeForAWalk >= table_.slot_count()) {
    // Changes to a good share of the entries: one walk over the index, without a lookup per
    // change.
    table_.UnmarkAll();
  } else {
    table_.Pipelined(
        undo_.size(), [&](size_t i) { return undo_.key(i); },
        [&](size_t i, uint64_t hash) { table_.UnmarkHashed(undo_.key(i), hash); });
  }
  // The rename replaces a delta of this version written before: a batch re-run after a crash
  // writes the same version again.
  auto committed = delta.Commit();
  if (!committed.ok()) {
    return ExternalError("CANNOT_WRITE_STATE_STORE.CANNOT_COMMIT",
                         "Error writing state store files for provider " + Describe() +
                             ". Cannot perform commit during state checkpoint. " +
                             committed.status().message());
  }
  *bytes_written += *committed;
  loaded_version_ = version;
  if (!maintenance_.DueNow()) return arrow::Status::OK();
  if (version - last_snapshot_version_ >= conf_.min_deltas_for_snapshot) {
    StateFileWriter snapshot(StateFileKind::kSnapshot, version);
    // Records in the file have the layout of records in the arena; reserving their exact size
    // spares the doubling growth that would briefly hold twice the snapshot in memory.
    snapshot.Reserve(static_cast<size_t>(table_.record_bytes()) + kStateFileTrailerSize);
    table_.ForEach([&](std::string_view key, std::string_view value) {
      snapshot.Put(key, value);
    });
    std::string contents = snapshot.Finish();
    *bytes_written += static_cast<int64_t>(contents.size());
    snapshot_before_pending_ = last_snapshot_version_;
    last_snapshot_version_ = version;
    // The slow part, writing and syncing the file, runs while the next batches do.
    pending_snapshot_ = std::async(
        std::launch::async,
        [path = PathOf(version, StateFileKind::kSnapshot), contents = std::move(contents)] {
          return checkpoint::WriteFileAtomically(path, contents, /*overwrite=*/true);
        });
  }
  return Cleanup(version);
}

void MemoryStateStoreProvider::WaitForSnapshot() {
  if (!pending_snapshot_.valid()) return;
  arrow::Status status = pending_snapshot_.get();
  if (!status.ok()) {
    // The deltas still make every version loadable; the next maintenance tries again.
    ARROW_LOG(WARNING) << "Could not write the snapshot of version " << last_snapshot_version_
                       << " of " << Describe() << ": " << status.ToString();
    last_snapshot_version_ = snapshot_before_pending_;
  }
}

arrow::Status MemoryStateStoreProvider::Cleanup(int64_t newest_version) {
  ARROW_ASSIGN_OR_RAISE(StateFolderListing listing, ListStateFolder(folder_));
  int64_t oldest_retained = std::max<int64_t>(0, newest_version - conf_.min_versions_to_retain + 1);
  // Loading any retained version reads a snapshot at or above this one, then later deltas.
  int64_t base = listing.BaseSnapshot(oldest_retained);
  std::vector<fs::path> obsolete;
  for (int64_t version : listing.snapshots) {
    if (version < base) obsolete.push_back(PathOf(version, StateFileKind::kSnapshot));
  }
  for (int64_t version : listing.deltas) {
    if (version <= base) obsolete.push_back(PathOf(version, StateFileKind::kDelta));
  }
  // Besides a snapshot being written in the background, every temp file is the remains of a
  // process killed mid-write; they are deleted once no write is under way.
  if (!pending_snapshot_.valid()) {
    obsolete.insert(obsolete.end(), listing.temp_entries.begin(), listing.temp_entries.end());
  }
  for (const fs::path& path : obsolete) {
    std::error_code error;
    fs::remove(path, error);
    if (error) {
      return arrow::Status::IOError("Cannot delete ", path.string(), ": ", error.message());
    }
  }
  return arrow::Status::OK();
}

}  // namespace sluice::state
