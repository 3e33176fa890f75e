// What the RocksDB state store providers of one query share, and how each configures its
// database (Spark's RocksDBMemoryManager and RocksDB options, without the process-wide
// singleton: the query makes one RocksDbSharedResources and hands it to every provider).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <arrow/result.h>

#include "sluice/state/state_store.h"

namespace rocksdb {
class Cache;
class WriteBufferManager;
struct Options;
}  // namespace rocksdb

namespace sluice::state {

/// The block cache and write buffer manager of a query's RocksDB providers. With
/// bounded_memory_usage, one LRU cache of max_memory_usage_mb holds the data blocks of every
/// provider, and the memtables and the stores' write buffers (up to write_buffer_cache_ratio
/// of it) and table readers (each table file's index and filter) of every provider are charged
/// to it, so the query's RocksDB memory stays near the cap however many partitions it has.
/// Without, it holds nothing and each provider has its own cache of block_cache_size_mb and
/// RocksDB's own memtable limits. Thread-safe: providers running in different threads share
/// it.
class RocksDbSharedResources {
 public:
  /// Validates the memory settings of `conf` and makes the shared cache if they bound memory.
  static arrow::Result<std::shared_ptr<RocksDbSharedResources>> Make(
      const RocksDbStateStoreConf& conf);
  ~RocksDbSharedResources();

  /// True when every provider shares one capped cache.
  bool bounded() const { return block_cache_ != nullptr; }
  /// The shared cache, or nullptr when memory is not bounded.
  const std::shared_ptr<rocksdb::Cache>& block_cache() const { return block_cache_; }
  /// The shared write buffer manager, or nullptr when memory is not bounded.
  const std::shared_ptr<rocksdb::WriteBufferManager>& write_buffer_manager() const {
    return write_buffer_manager_;
  }
  /// Bytes held by the shared cache, memtables charged to it included (0 when not bounded).
  int64_t usage_bytes() const;

  /// Adds `delta` bytes (negative to release them) to the stores' write buffers: the changes
  /// they hold before applying them to their databases, in place of memtables. With bounded
  /// memory they are charged to the shared cache as memtables are (pinned entries of 1 MiB
  /// that hold nothing but their charge), so that the cache keeps that much less; without,
  /// nothing is counted.
  void ChargeWriteBuffers(int64_t delta);
  /// Adds `delta` bytes (negative to release them) to the stores' key filters (KeyFilter),
  /// charged to the shared cache as the write buffers are, but outside their budget.
  void ChargeKeyFilters(int64_t delta);
  /// The most bytes of keys and values one store's write buffer holds before it is applied:
  /// with bounded memory, the budget all stores' buffers share (each is also applied once
  /// all of them together pass it); else conf.write_buffer_size_mb, the size of the memtable
  /// the buffer stands in for (RocksDB's 64 MiB when unset). Fewer, larger table files mean
  /// fewer sorted runs for compaction to merge: with one store under a 512 MiB bound, 256 MiB
  /// buffers instead of 64 MiB took a batch of 10M new keys from 744K to 1.1M events per
  /// CPU-second.
  int64_t MaxWriteBufferBytes(const RocksDbStateStoreConf& conf) const;
  /// Whether the stores' write buffers together pass their budget, the write buffer manager's
  /// (write_buffer_cache_ratio of the cap): a store then applies its buffer. Never without
  /// bounded memory.
  bool WriteBuffersOverBudget() const;

 private:
  RocksDbSharedResources() = default;

  /// Bytes held outside RocksDB and the cache entries charging them to block_cache_.
  struct Charge {
    int64_t bytes = 0;
    std::vector<void*> entries;  // rocksdb::Cache::Handle*
  };
  /// Adds `delta` bytes to `charge`, inserting or releasing its entries to match.
  void Add(Charge& charge, int64_t delta);

  std::shared_ptr<rocksdb::Cache> block_cache_;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffer_manager_;
  mutable std::mutex charges_mutex_;
  uint64_t next_charge_entry_id_ = 0;
  Charge write_buffers_;
  Charge key_filters_;
};

/// The options of one provider's database after `conf`, sharing `shared`'s cache when memory
/// is bounded. Writes to the database skip RocksDB's write-ahead log (the checkpoint's
/// changelogs make versions durable), so the options let shutdown skip flushing too.
/// Fails, naming the setting, on an unknown compression codec.
arrow::Result<rocksdb::Options> MakeDatabaseOptions(const RocksDbStateStoreConf& conf,
                                                    const RocksDbSharedResources& shared);

}  // namespace sluice::state
