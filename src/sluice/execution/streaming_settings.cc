#include "sluice/execution/streaming_settings.h"

#include "sluice/common/ascii.h"
#include "sluice/common/config_values.h"
#include "sluice/sources/typed_options.h"
#include "sluice/common/errors.h"

namespace sluice::execution {

namespace {

constexpr const char* kPrefix = "spark.sql.streaming.";

arrow::Result<int64_t> TimeSetting(const SessionConfig& config, const std::string& key,
                                   int64_t default_ms) {
  auto text = config.Get(key);
  if (!text) return default_ms;
  auto value = sources::ParseTimeString(*text, sources::TimeStringUnit::kMilliseconds);
  if (!value.ok()) {
    return SparkError("INVALID_CONF_VALUE.TIME_STRING",
                      "The value '" + *text + "' in the config \"" + key +
                          "\" is invalid. " + value.status().message());
  }
  return *value;
}

// Spark 4.0's OffsetSeqMetadata.relevantSQLConfs with their defaults, in the order Spark 4.0.1
// writes them into offsets/<N> (a hash map's order, reproduced so files compare equal).
struct PinnedKey {
  const char* key;
  const char* default_value;
};
constexpr PinnedKey kPinnedKeys[] = {
    {"spark.sql.streaming.stateStore.providerClass",
     "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"},
    {"spark.sql.streaming.stateStore.rocksdb.formatVersion", "5"},
    {"spark.sql.streaming.stateStore.encodingFormat", "unsaferow"},
    {"spark.sql.streaming.statefulOperator.useStrictDistribution", "true"},
    {"spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion", "2"},
    {"spark.sql.streaming.multipleWatermarkPolicy", "min"},
    {"spark.sql.streaming.aggregation.stateFormatVersion", "2"},
    {"spark.sql.shuffle.partitions", nullptr},
    {"spark.sql.streaming.join.stateFormatVersion", "2"},
    {"spark.sql.streaming.stateStore.compression.codec", "lz4"},
    {"spark.sql.optimizer.pruneFiltersCanPruneStreamingSubplan", "false"},
    // Sluice's own, after Spark's (Spark restores the keys it knows and ignores the others).
    {kStatePartitioningKey, "3"},
};

/// What a checkpoint that does not pin kStatePartitioningKey (written before it existed) ran
/// with.
constexpr const char* kUnpinnedStatePartitioning = "1";

}  // namespace

arrow::Result<StreamingSettings> StreamingSettings::FromConfig(const SessionConfig& config) {
  const std::string prefix = kPrefix;
  StreamingSettings settings;
  ARROW_ASSIGN_OR_RAISE(settings.min_batches_to_retain,
                        IntConfigValue(config, prefix + "minBatchesToRetain", 100, 1));
  ARROW_ASSIGN_OR_RAISE(settings.no_data_micro_batches,
                        BoolConfigValue(config, prefix + "noDataMicroBatches.enabled", true));
  ARROW_ASSIGN_OR_RAISE(settings.polling_delay_ms,
                        TimeSetting(config, prefix + "pollingDelay", 10));
  ARROW_ASSIGN_OR_RAISE(settings.no_data_progress_event_interval_ms,
                        TimeSetting(config, prefix + "noDataProgressEventInterval", 10000));
  ARROW_ASSIGN_OR_RAISE(settings.num_recent_progress_updates,
                        IntConfigValue(config, prefix + "numRecentProgressUpdates", 100, 0));
  ARROW_ASSIGN_OR_RAISE(settings.schema_inference,
                        BoolConfigValue(config, prefix + "schemaInference", false));
  ARROW_ASSIGN_OR_RAISE(int64_t sink_interval,
                        IntConfigValue(config, prefix + "fileSink.log.compactInterval", 10, 1));
  ARROW_ASSIGN_OR_RAISE(int64_t source_interval,
                        IntConfigValue(config, prefix + "fileSource.log.compactInterval", 10, 1));
  settings.file_sink_compact_interval = static_cast<int32_t>(sink_interval);
  settings.file_source_compact_interval = static_cast<int32_t>(source_interval);
  settings.checkpoint_root = config.Get(prefix + "checkpointLocation").value_or("");
  ARROW_ASSIGN_OR_RAISE(
      settings.force_delete_temp_checkpoint,
      BoolConfigValue(config, prefix + "forceDeleteTempCheckpointLocation", false));
  ARROW_ASSIGN_OR_RAISE(
      settings.check_stateful_correctness,
      BoolConfigValue(config, prefix + "statefulOperator.checkCorrectness.enabled", true));
  ARROW_ASSIGN_OR_RAISE(int64_t partitions,
                        IntConfigValue(config, "spark.sql.shuffle.partitions", 200, 1));
  settings.shuffle_partitions = static_cast<int32_t>(partitions);
  state::StateStoreConf& store = settings.state_store;
  store.provider_class =
      config.Get(prefix + "stateStore.providerClass").value_or(kPinnedKeys[0].default_value);
  ARROW_ASSIGN_OR_RAISE(store.min_deltas_for_snapshot,
                        IntConfigValue(config, prefix + "stateStore.minDeltasForSnapshot", 10, 1));
  ARROW_ASSIGN_OR_RAISE(store.maintenance_interval_ms,
                        TimeSetting(config, prefix + "stateStore.maintenanceInterval", 60'000));
  if (store.maintenance_interval_ms < 0) {
    return arrow::Status::Invalid(prefix, "stateStore.maintenanceInterval must not be negative: ",
                                  store.maintenance_interval_ms, " ms");
  }
  store.min_versions_to_retain = settings.min_batches_to_retain;
  const std::string rocksdb = prefix + "stateStore.rocksdb.";
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.bounded_memory_usage,
                        BoolConfigValue(config, rocksdb + "boundedMemoryUsage", false));
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.max_memory_usage_mb,
                        IntConfigValue(config, rocksdb + "maxMemoryUsageMB", 500, 1));
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.block_cache_size_mb,
                        IntConfigValue(config, rocksdb + "blockCacheSizeMB", 8, 0));
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.block_size_kb,
                        IntConfigValue(config, rocksdb + "blockSizeKB", 4, 1));
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.write_buffer_size_mb,
                        IntConfigValue(config, rocksdb + "writeBufferSizeMB", -1, -1));
  ARROW_ASSIGN_OR_RAISE(store.rocksdb.max_write_buffer_number,
                        IntConfigValue(config, rocksdb + "maxWriteBufferNumber", -1, -1));
  store.rocksdb.compression =
      AsciiLower(config.Get(rocksdb + "compression").value_or(store.rocksdb.compression));
  // RocksDB's working folders go where Spark's executors put them: under spark.local.dir (the
  // first of its comma-separated folders), else the system's temp folder.
  if (auto local = config.Get("spark.local.dir")) {
    store.rocksdb.local_dir = local->substr(0, local->find(','));
  }
  std::string policy = AsciiLower(config.Get(prefix + "multipleWatermarkPolicy").value_or("min"));
  if (policy != "min" && policy != "max") {
    return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                      "The value '" + policy + "' in the config \"" + prefix +
                          "multipleWatermarkPolicy\" is invalid. It must be one of 'min' or "
                          "'max'.");
  }
  settings.max_watermark_policy = policy == "max";
  ARROW_ASSIGN_OR_RAISE(int64_t partitioning, IntConfigValue(config, kStatePartitioningKey, 3, 1));
  if (partitioning > 3) {
    return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                      "The value '" + std::to_string(partitioning) + "' in the config \"" +
                          kStatePartitioningKey + "\" is invalid. It must be 1, 2 or 3.");
  }
  settings.state_partitioning_version = static_cast<int32_t>(partitioning);
  return settings;
}

checkpoint::PinnedConf PinnedConfOf(const SessionConfig& config) {
  checkpoint::PinnedConf pinned;
  for (const auto& entry : kPinnedKeys) {
    auto value = config.Get(entry.key);
    pinned.emplace_back(entry.key, value ? *value : std::string(entry.default_value));
  }
  return pinned;
}

arrow::Status RestorePinnedConf(const checkpoint::PinnedConf& pinned, SessionConfig* config) {
  bool pins_partitioning = false;
  for (const auto& [key, value] : pinned) {
    ARROW_RETURN_NOT_OK(config->Set(key, value));
    pins_partitioning |= key == kStatePartitioningKey;
  }
  if (!pins_partitioning) {
    ARROW_RETURN_NOT_OK(config->Set(kStatePartitioningKey, kUnpinnedStatePartitioning));
  }
  return arrow::Status::OK();
}

}  // namespace sluice::execution
