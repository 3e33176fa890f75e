#include "sluice/state/rocksdb_shared_resources.h"

#include <map>
#include <string>

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_buffer_manager.h>

#include "sluice/common/errors.h"

namespace sluice::state {

namespace {

constexpr const char* kConfPrefix = "spark.sql.streaming.stateStore.rocksdb.";
constexpr int64_t kMebibyte = 1024 * 1024;
/// Bits per key of the bloom filters: about 0.1% false positives, so looking up a key the
/// store does not hold (most lookups of a growing aggregation) almost never reads a data
/// block. Spark's 10 bits give about 1% per sorted run probed; at 50M keys the 16 bits made
/// puts 6-12% cheaper and peak RSS 110 MB lower (fewer blocks read into the cache), for 37 MB
/// more of filters. Any RocksDB reads the filters whatever their size.
constexpr double kBloomBitsPerKey = 16;
/// The table format Spark writes (rocksdb.formatVersion).
constexpr uint32_t kTableFormatVersion = 5;
/// Entries between restart points of a data block (RocksDB's default is 16). A lookup binary
/// searches a block's restart points, then parses entry after entry from the one it found,
/// each key rebuilt from the one before: with 8, half as many. Reading a fifth of 10M keys
/// in key order from the block cache (rocksdb_read_cost_bench) took 650-850 ns a key against
/// 760-1030, and the batches of held keys of rocksdb_aggregation_bench (then run to batch
/// 11) ran 1-9% faster in each of three pairs of runs taking turns, the store's memory the
/// same (400 MB).
constexpr int kBlockRestartInterval = 8;

arrow::Status InvalidSetting(const std::string& name, const std::string& value,
                             const std::string& why) {
  return SparkError("INVALID_CONF_VALUE", "The value '" + value + "' in the config \"" +
                                              kConfPrefix + name + "\" is invalid. " + why);
}

}  // namespace

RocksDbSharedResources::~RocksDbSharedResources() {
  // Every store and provider releases its charges when it closes; these are what one never
  // closed left.
  for (Charge* charge : {&write_buffers_, &key_filters_}) {
    for (void* entry : charge->entries) {
      block_cache_->Release(static_cast<rocksdb::Cache::Handle*>(entry),
                            /*erase_if_last_ref=*/true);
    }
  }
}

arrow::Result<std::shared_ptr<RocksDbSharedResources>> RocksDbSharedResources::Make(
    const RocksDbStateStoreConf& conf) {
  std::shared_ptr<RocksDbSharedResources> resources(new RocksDbSharedResources());
  if (conf.block_cache_size_mb < 0) {
    return InvalidSetting("blockCacheSizeMB", std::to_string(conf.block_cache_size_mb),
                          "It cannot be negative.");
  }
  if (conf.block_size_kb <= 0) {
    return InvalidSetting("blockSizeKB", std::to_string(conf.block_size_kb),
                          "It must be positive.");
  }
  if (!conf.bounded_memory_usage) return resources;
  if (conf.max_memory_usage_mb <= 0) {
    return InvalidSetting("maxMemoryUsageMB", std::to_string(conf.max_memory_usage_mb),
                          "Total memory usage must be a positive integer.");
  }
  if (conf.write_buffer_cache_ratio <= 0 || conf.high_priority_pool_ratio < 0 ||
      conf.write_buffer_cache_ratio + conf.high_priority_pool_ratio >= 1.0) {
    return InvalidSetting("writeBufferCacheRatio",
                          std::to_string(conf.write_buffer_cache_ratio),
                          "Sum of writeBufferCacheRatio and highPriorityPoolRatio should be "
                          "less than 1.0 (highPriorityPoolRatio is " +
                              std::to_string(conf.high_priority_pool_ratio) + ").");
  }
  size_t capacity = static_cast<size_t>(conf.max_memory_usage_mb * kMebibyte);
  // The limit is not strict, as Spark's: a strict one fails reads and writes when the cache
  // is full of pinned blocks, where a slight overshoot is the lesser harm.
  resources->block_cache_ = rocksdb::NewLRUCache(capacity, /*num_shard_bits=*/-1,
                                                 /*strict_capacity_limit=*/false,
                                                 conf.high_priority_pool_ratio);
  resources->write_buffer_manager_ = std::make_shared<rocksdb::WriteBufferManager>(
      static_cast<size_t>(static_cast<double>(capacity) * conf.write_buffer_cache_ratio),
      resources->block_cache_);
  return resources;
}

int64_t RocksDbSharedResources::usage_bytes() const {
  return block_cache_ ? static_cast<int64_t>(block_cache_->GetUsage()) : 0;
}

void RocksDbSharedResources::ChargeWriteBuffers(int64_t delta) {
  if (!bounded()) return;
  std::lock_guard<std::mutex> lock(charges_mutex_);
  Add(write_buffers_, delta);
}

void RocksDbSharedResources::ChargeKeyFilters(int64_t delta) {
  if (!bounded()) return;
  std::lock_guard<std::mutex> lock(charges_mutex_);
  Add(key_filters_, delta);
}

void RocksDbSharedResources::Add(Charge& charge, int64_t delta) {
  charge.bytes += delta;
  const auto wanted = static_cast<size_t>((charge.bytes + kMebibyte - 1) / kMebibyte);
  while (charge.entries.size() < wanted) {
    // A key of its own per entry, and no value: the entry only holds its charge.
    const uint64_t id = next_charge_entry_id_++;
    const std::string key = "sluice-charge-" + std::to_string(id);
    rocksdb::Cache::Handle* handle = nullptr;
    rocksdb::Status inserted = block_cache_->Insert(
        key, /*value=*/nullptr, kMebibyte, [](const rocksdb::Slice&, void*) {}, &handle);
    // The cache has no strict capacity limit, so an insert does not fail; were it to, the
    // bytes would go uncharged rather than fail the store.
    if (!inserted.ok()) break;
    charge.entries.push_back(handle);
  }
  while (charge.entries.size() > wanted) {
    block_cache_->Release(static_cast<rocksdb::Cache::Handle*>(charge.entries.back()),
                          /*erase_if_last_ref=*/true);
    charge.entries.pop_back();
  }
}

int64_t RocksDbSharedResources::MaxWriteBufferBytes(const RocksDbStateStoreConf& conf) const {
  if (bounded()) return static_cast<int64_t>(write_buffer_manager_->buffer_size());
  constexpr int64_t kRocksDbWriteBufferMb = 64;
  const int64_t mb = conf.write_buffer_size_mb > 0 ? conf.write_buffer_size_mb
                                                   : kRocksDbWriteBufferMb;
  return mb * kMebibyte;
}

bool RocksDbSharedResources::WriteBuffersOverBudget() const {
  if (!bounded()) return false;
  std::lock_guard<std::mutex> lock(charges_mutex_);
  return write_buffers_.bytes > static_cast<int64_t>(write_buffer_manager_->buffer_size());
}

arrow::Result<rocksdb::Options> MakeDatabaseOptions(const RocksDbStateStoreConf& conf,
                                                    const RocksDbSharedResources& shared) {
  static const std::map<std::string, rocksdb::CompressionType> kCodecs = {
      {"none", rocksdb::kNoCompression},     {"snappy", rocksdb::kSnappyCompression},
      {"zlib", rocksdb::kZlibCompression},   {"bzip2", rocksdb::kBZip2Compression},
      {"lz4", rocksdb::kLZ4Compression},     {"lz4hc", rocksdb::kLZ4HCCompression},
      {"zstd", rocksdb::kZSTD}};
  auto codec = kCodecs.find(conf.compression);
  if (codec == kCodecs.end()) {
    return InvalidSetting("compression", conf.compression,
                          "Use one of none, snappy, zlib, bzip2, lz4, lz4hc, zstd.");
  }

  rocksdb::BlockBasedTableOptions table;
  table.block_size = static_cast<size_t>(conf.block_size_kb * 1024);
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(kBloomBitsPerKey));
  table.format_version = kTableFormatVersion;
  table.block_restart_interval = kBlockRestartInterval;
  if (shared.bounded()) {
    table.block_cache = shared.block_cache();
    // Each table file's whole filter and index live in its table reader, charged to the
    // shared cache: a lookup of a key the store does not hold (most keys of a growing
    // aggregation) then costs one filter probe per table file, with no index search for a
    // filter partition and no cache lookup behind a shard's mutex, while the memory still
    // counts against the cap (about 10 bits per key for the filters).
    table.cache_index_and_filter_blocks = false;
    table.cache_usage_options.options_overrides.insert(
        {rocksdb::CacheEntryRole::kBlockBasedTableReader,
         {/*charged=*/rocksdb::CacheEntryRoleOptions::Decision::kEnabled}});
  } else {
    table.block_cache =
        rocksdb::NewLRUCache(static_cast<size_t>(conf.block_cache_size_mb * kMebibyte));
  }

  rocksdb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = false;
  options.compression = codec->second;
  // Universal compaction rewrites each entry a few times instead of once per level: with
  // keys arriving in no order every level's files overlap every new one, and leveled
  // compaction spent a third of the CPU time of a store growing to 50M keys. The extra sorted
  // runs it keeps cost lookups little, each file's filter being in memory.
  options.compaction_style = rocksdb::kCompactionStyleUniversal;
  // Lookups of keys the store never held stop at its own key filter (KeyFilter), so more
  // sorted runs cost only the lookups of held keys: merging 16 runs at a time instead of
  // RocksDB's 4 rewrites each entry fewer times. At 50M keys it cut the CPU time of a store
  // taking only new keys by a fifth, and that of one updating half its keys too.
  options.level0_file_num_compaction_trigger = 16;
  options.memtable_whole_key_filtering = true;
  options.memtable_prefix_bloom_size_ratio = 0.1;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  if (conf.write_buffer_size_mb > 0) {
    options.write_buffer_size = static_cast<size_t>(conf.write_buffer_size_mb * kMebibyte);
  }
  if (conf.max_write_buffer_number > 0) {
    options.max_write_buffer_number = static_cast<int>(conf.max_write_buffer_number);
  }
  if (shared.bounded()) options.write_buffer_manager = shared.write_buffer_manager();
  // The database lives only as long as its provider and is rebuilt from the checkpoint after
  // a crash: flushing at shutdown and periodic statistics dumps would be wasted work.
  options.avoid_flush_during_shutdown = true;
  options.stats_dump_period_sec = 0;
  options.stats_persist_period_sec = 0;
  options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  options.keep_log_file_num = 2;
  return options;
}

}  // namespace sluice::state
