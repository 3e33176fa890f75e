// The spark.sql.streaming.* settings the micro-batch engine reads, parsed once per query start
// (the spec, section 9).
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/checkpoint/offset_seq.h"
#include "sluice/common/session_config.h"
#include "sluice/state/state_store.h"

namespace sluice::execution {

/// How a checkpoint spreads state keys over store partitions (physical::StatePartitioning):
/// 2, Spark's hash partitioning, for new checkpoints; a checkpoint that does not pin it was
/// written with 1.
inline constexpr const char* kStatePartitioningKey =
    "sluice.sql.streaming.statePartitioningVersion";

/// Typed streaming settings with Spark's defaults. A value.
struct StreamingSettings {
  /// spark.sql.streaming.minBatchesToRetain
  int64_t min_batches_to_retain = 100;
  /// spark.sql.streaming.noDataMicroBatches.enabled
  bool no_data_micro_batches = true;
  /// spark.sql.streaming.pollingDelay: the default trigger's wait when there was no data.
  int64_t polling_delay_ms = 10;
  /// spark.sql.streaming.noDataProgressEventInterval: the idle event's throttle.
  int64_t no_data_progress_event_interval_ms = 10000;
  /// spark.sql.streaming.numRecentProgressUpdates
  int64_t num_recent_progress_updates = 100;
  /// spark.sql.streaming.schemaInference
  bool schema_inference = false;
  /// spark.sql.streaming.fileSink.log.compactInterval
  int32_t file_sink_compact_interval = 10;
  /// spark.sql.streaming.fileSource.log.compactInterval
  int32_t file_source_compact_interval = 10;
  /// spark.sql.streaming.multipleWatermarkPolicy=max (pinned by the checkpoint); min by
  /// default.
  bool max_watermark_policy = false;
  /// spark.sql.streaming.statefulOperator.checkCorrectness.enabled: refuse a stateful
  /// operator after an aggregation in update and complete modes.
  bool check_stateful_correctness = true;
  /// spark.sql.shuffle.partitions (pinned by the checkpoint): the number of state stores of
  /// each stateful operator.
  int32_t shuffle_partitions = 200;
  /// spark.sql.streaming.stateStore.*: the provider class (pinned by the checkpoint),
  /// minDeltasForSnapshot, maintenanceInterval, the RocksDB provider's settings; and
  /// minBatchesToRetain.
  state::StateStoreConf state_store;
  /// kStatePartitioningKey (pinned by the checkpoint).
  int32_t state_partitioning_version = 3;
  /// spark.sql.streaming.checkpointLocation: the parent of per-query checkpoints; empty: none.
  std::string checkpoint_root;
  /// spark.sql.streaming.forceDeleteTempCheckpointLocation: a temporary checkpoint (of a sink
  /// that needs none, given none) is deleted when its query stops even after a failure; by
  /// default it is then kept, to look into, until the process exits.
  bool force_delete_temp_checkpoint = false;

  /// Reads the settings; an invalid value fails naming its key.
  static arrow::Result<StreamingSettings> FromConfig(const SessionConfig& config);
};

/// The settings a checkpoint pins on its first batch (Spark's OffsetSeqMetadata.relevantSQLConfs),
/// with the session's values, in the order Spark writes them.
checkpoint::PinnedConf PinnedConfOf(const SessionConfig& config);

/// Applies pinned settings read from a checkpoint over `config` (a restarted query keeps the
/// values its checkpoint was started with); a setting added later gets the value that
/// checkpoints written before it ran with.
arrow::Status RestorePinnedConf(const checkpoint::PinnedConf& pinned, SessionConfig* config);

}  // namespace sluice::execution
