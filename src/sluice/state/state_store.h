// The versioned key-value store every stateful operator keeps its state in, in the shape of
// Spark's StateStore: one store per (operator, partition, store name), one version per batch
// (version = batch id + 1, version 0 is the empty store before the first batch).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/checkpoint/checkpoint_paths.h"

namespace sluice::state {

/// Which store: operator `operator_id`, shuffle partition `partition_id`, and `store_name` for
/// operators that keep several stores (Spark's "default" is the unnamed one).
struct StateStoreId {
  static constexpr const char* kDefaultStoreName = "default";

  int64_t operator_id = 0;
  int32_t partition_id = 0;
  std::string store_name = kDefaultStoreName;

  /// "StateStoreId[operatorId=0, partitionId=3, name=default]", for error messages.
  std::string ToString() const;
};

/// The folder of `id` inside a checkpoint: state/<operator>/<partition>, with /<store name>
/// appended unless the name is the default one (Spark's layout).
std::string StateStoreFolder(const checkpoint::CheckpointPaths& paths, const StateStoreId& id);

/// The settings of the RocksDB provider (spark.sql.streaming.stateStore.rocksdb.*), with
/// Spark's defaults.
struct RocksDbStateStoreConf {
  /// Where each provider keeps its live database, one folder per provider, removed when the
  /// provider is destroyed; empty means the system temp folder. Not a Spark setting: Spark
  /// uses the executor's local folders.
  std::string local_dir;
  /// rocksdb.boundedMemoryUsage: every provider of a query shares one block cache and one
  /// write buffer manager capped at max_memory_usage_mb.
  bool bounded_memory_usage = false;
  /// rocksdb.maxMemoryUsageMB: the shared cap, in MiB, when bounded_memory_usage.
  int64_t max_memory_usage_mb = 500;
  /// rocksdb.writeBufferCacheRatio: the share of the cap that memtables may use.
  double write_buffer_cache_ratio = 0.5;
  /// rocksdb.highPriorityPoolRatio: the share of the cap kept for index and filter blocks.
  double high_priority_pool_ratio = 0.1;
  /// rocksdb.blockCacheSizeMB: each provider's own block cache, when not bounded.
  int64_t block_cache_size_mb = 8;
  /// rocksdb.blockSizeKB: the size of a data block of the table files.
  int64_t block_size_kb = 4;
  /// rocksdb.writeBufferSizeMB: the size of one memtable; -1 keeps RocksDB's (64 MiB).
  int64_t write_buffer_size_mb = -1;
  /// rocksdb.maxWriteBufferNumber: memtables per database; -1 keeps RocksDB's (2).
  int64_t max_write_buffer_number = -1;
  /// rocksdb.compression: none, snappy, zlib, bzip2, lz4, lz4hc or zstd.
  std::string compression = "lz4";
};

/// The settings of state stores, parsed once from spark.sql.streaming.* by the caller.
struct StateStoreConf {
  /// spark.sql.streaming.stateStore.minDeltasForSnapshot: a snapshot of all entries is written
  /// once this many deltas have been written since the last one.
  int64_t min_deltas_for_snapshot = 10;
  /// spark.sql.streaming.stateStore.maintenanceInterval, in milliseconds: how often a provider
  /// does its maintenance (the in-memory provider's snapshot, and the deletion of files no
  /// retained version needs); 0 does it at every commit. See maintenance_schedule.h.
  int64_t maintenance_interval_ms = 60'000;
  /// spark.sql.streaming.minBatchesToRetain: the newest this many versions stay loadable;
  /// files needed only by older versions are deleted.
  int64_t min_versions_to_retain = 100;
  /// spark.sql.streaming.stateStore.providerClass: which provider keeps the state, by Spark's
  /// class name (see state_store_provider_factory.h).
  std::string provider_class =
      "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
  /// The RocksDB provider's settings.
  RocksDbStateStoreConf rocksdb;
};

/// OK when `version` can be asked of a provider (GetStore); Spark's
/// CANNOT_LOAD_STATE_STORE.UNEXPECTED_VERSION for a negative one. Shared by every provider.
arrow::Status CheckVersionToLoad(int64_t version);

/// What a store reports for the progress's stateOperators, after Commit (or so far, before).
struct StateStoreMetrics {
  /// Keys in the store (numTotalStateRows).
  int64_t num_keys = 0;
  /// Bytes the provider holds in memory for the store (memoryUsedBytes).
  int64_t memory_used_bytes = 0;
  /// Puts in this version (numRowsUpdated; a key put twice counts twice, as in Spark).
  int64_t num_updated_rows = 0;
  /// Removes of an existing key in this version (numRowsRemoved).
  int64_t num_removed_rows = 0;
  /// Time spent in Commit writing files (commitTimeMs).
  int64_t commit_time_ms = 0;
  /// Bytes of the files written by Commit (delta, and snapshot if one was due).
  int64_t checkpoint_bytes_written = 0;
  /// The provider's own figures, by Spark's names (customMetrics of the progress; summed
  /// over the partitions of an operator).
  std::map<std::string, int64_t> custom_metrics;
};

/// One version of one store, opened for update by one task. Keys and values are opaque byte
/// strings. Not thread-safe: one thread uses a store at a time. Views returned by Get stay
/// valid until the next Get, Put, Remove, Commit or Abort; views passed to ForEach's `visit`
/// only during that call (a store larger than memory cannot keep more), so copy what must
/// outlive it.
/// Destroying a store that was neither committed nor aborted aborts it.
class StateStore {
 public:
  virtual ~StateStore() = default;

  /// The version this store was loaded at; Commit produces version() + 1.
  virtual int64_t version() const = 0;

  /// The value of `key`, or nullopt when absent.
  virtual std::optional<std::string_view> Get(std::string_view key) const = 0;

  /// Get of every key of `keys`: calls `found(i, value)` for each keys[i] present, in order
  /// of i, with views valid during the call. Providers look the keys up together (prefetching,
  /// RocksDB's MultiGet), which is much faster than one Get after another; the default does
  /// just that.
  virtual void GetMany(std::span<const std::string_view> keys,
                       const std::function<void(size_t i, std::string_view value)>& found) const;

  /// Sets the value of `key`, inserting it if absent.
  virtual arrow::Status Put(std::string_view key, std::string_view value) = 0;

  /// Put of keys[i] -> values[i] for every i, in order; stops at the first error. Like
  /// GetMany, faster than one Put after another; the default does just that.
  virtual arrow::Status PutMany(std::span<const std::string_view> keys,
                                std::span<const std::string_view> values);

  /// Removes `key`; removing an absent key does nothing.
  virtual arrow::Status Remove(std::string_view key) = 0;

  /// Remove of every key of `keys`, in order; stops at the first error. Like GetMany, faster
  /// than one Remove after another; the default does just that.
  virtual arrow::Status RemoveMany(std::span<const std::string_view> keys);

  /// RemoveMany of keys the store is known to hold: each was shown by ForEach or found by a
  /// lookup of this version, and none was removed since (the keys an operator evicts after a
  /// scan). A store may then skip finding out whether each is there; the default does not.
  /// A key it does not hold would leave num_keys wrong.
  virtual arrow::Status RemoveHeld(std::span<const std::string_view> keys);

  /// RemoveHeld that first calls `taken(i, value)` with the value of each keys[i] removed, in
  /// order of i, with views valid during the call: a row moved elsewhere is found once, not
  /// read by a lookup and then removed by another. The default does just that.
  virtual arrow::Status TakeHeld(
      std::span<const std::string_view> keys,
      const std::function<void(size_t i, std::string_view value)>& taken);

  /// Calls `visit` once for every entry, in no particular order. `visit` must not modify the
  /// store.
  virtual void ForEach(
      const std::function<void(std::string_view key, std::string_view value)>& visit) const = 0;

  /// Whether GetMany may run on several threads at once while nothing changes the store: its
  /// lookups keep nothing of their own (the in-memory store's; RocksDB's keep what they
  /// pinned and found for the puts that follow). The default: no.
  virtual bool ReadsConcurrently() const { return false; }

  /// ForEach split in `parts` for a scan on several threads: calls `visit` for the entries of
  /// part `part`. The parts together visit every entry once, and several may be walked at
  /// once (nothing else using the store meanwhile). The default walks every entry in part 0.
  virtual void ForEachOfPart(
      int part, int parts,
      const std::function<void(std::string_view key, std::string_view value)>& visit) const;

  /// Makes the changes durable as version() + 1 and returns that version. After Commit the
  /// store accepts no more changes.
  virtual arrow::Result<int64_t> Commit() = 0;

  /// Drops the changes made since the store was opened; the provider is left at version().
  virtual void Abort() = 0;

  /// True once Commit succeeded.
  virtual bool committed() const = 0;

  /// Metrics of this version so far (final after Commit).
  virtual StateStoreMetrics metrics() const = 0;
};

/// Owns the state of one store id across versions: loads any retained version from the
/// checkpoint, writes its files, and deletes files no longer needed. One provider per store id
/// and process; at most one store of a provider is open at a time.
class StateStoreProvider {
 public:
  virtual ~StateStoreProvider() = default;

  /// The store at `version` (0 = empty) opened for update. Fails, naming the file, when a file
  /// that version needs is missing or corrupt. The provider must outlive the store.
  virtual arrow::Result<std::unique_ptr<StateStore>> GetStore(int64_t version) = 0;

  /// The folder holding this store's files.
  virtual const std::string& folder() const = 0;
};

}  // namespace sluice::state
