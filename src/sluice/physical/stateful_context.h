// What stateful operators (streaming aggregation, deduplication) get from the micro-batch that
// runs them, and what they report back for the progress's stateOperators.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "sluice/physical/operator_carry_over.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/plan/output_mode.h"
#include "sluice/state/state_provider_cache.h"

namespace sluice::plan {
class LogicalPlan;
}  // namespace sluice::plan

namespace sluice::physical {

/// One stateful operator's figures for a batch (Spark's StateOperatorProgress).
struct StateOperatorProgress {
  std::string operator_name;
  int64_t num_rows_total = 0;
  int64_t num_rows_updated = 0;
  int64_t all_updates_time_ms = 0;
  int64_t num_rows_removed = 0;
  int64_t all_removals_time_ms = 0;
  int64_t commit_time_ms = 0;
  int64_t memory_used_bytes = 0;
  int64_t num_rows_dropped_by_watermark = 0;
  int64_t num_shuffle_partitions = 0;
  int64_t num_state_store_instances = 0;
  /// Provider-specific figures, by name (sorted, as Spark prints its java map).
  std::map<std::string, int64_t> custom_metrics;
};

/// Milliseconds of a steady clock, for the operators' time metrics (the query clock may be
/// manual).
inline int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The micro-batch's view of its stateful operators. Made by the executor for each batch;
/// outlives the operators' streams.
struct StatefulContext {
  /// The batch being run: stores are opened at version batch_id and committed as batch_id + 1.
  int64_t batch_id = 0;
  plan::OutputMode output_mode = plan::OutputMode::kAppend;
  /// The query's pinned spark.sql.shuffle.partitions: every operator's state is split into
  /// this many stores by the hash of the key.
  int32_t num_partitions = 1;
  /// How keys are spread over those stores (pinned by the checkpoint).
  StatePartitioning partitioning = StatePartitioning::kSparkKeyOrder;
  /// Input rows whose event time is at or below this watermark are late and dropped.
  int64_t late_events_watermark_ms = 0;
  /// State whose event time is at or below this watermark is final: emitted (append) and
  /// removed.
  int64_t eviction_watermark_ms = 0;
  /// Whether the query has an event-time watermark at all.
  bool has_watermark = false;
  /// The batch's processing time (its logged batchTimestampMs), for processing-time timeouts.
  int64_t batch_timestamp_ms = 0;
  state::StateProviderCache* providers = nullptr;
  /// The id of each stateful plan node (its folder under state/).
  const std::map<const plan::LogicalPlan*, int64_t>* operator_ids = nullptr;

  /// Operators report here when their batch is done, keyed by operator id.
  void Report(int64_t operator_id, StateOperatorProgress progress) const {
    std::lock_guard<std::mutex> lock(*report_mutex);
    (*reports)[operator_id] = std::move(progress);
  }
  std::map<int64_t, StateOperatorProgress>* reports = nullptr;
  std::mutex* report_mutex = nullptr;

  /// The operator's T from its last batch: made on first use, and afresh each batch when the
  /// executor keeps none (OperatorCarryOver).
  template <typename T>
  std::shared_ptr<T> CarriedOver(int64_t operator_id) const {
    return carry_over != nullptr ? carry_over->Of<T>(operator_id) : std::make_shared<T>();
  }
  /// Kept by the executor from batch to batch.
  OperatorCarryOver* carry_over = nullptr;
};

}  // namespace sluice::physical
