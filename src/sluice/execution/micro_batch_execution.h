// The micro-batch loop (the spec, section 7; architecture.md, "The batch loop"): plan batch N
// from the sources' latest offsets, write offsets/N, commit the sources up to N-1, run the plan
// on exactly that range, hand the result to the sink, write commits/N, report progress.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/checkpoint/checkpoint.h"
#include "sluice/execution/query_spec.h"
#include "sluice/execution/query_state.h"
#include "sluice/execution/streaming_settings.h"
#include "sluice/execution/watermark_tracker.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/state/state_provider_cache.h"
#include "sluice/sources/stream_source.h"

namespace sluice::execution {

class StreamingQueryManager;

/// The loop of one query start. Made on the starting thread, run on the query's thread.
class MicroBatchExecution {
 public:
  /// Opens and recovers the checkpoint and starts every source. `new_query_id` is the id a
  /// new checkpoint gets.
  static arrow::Result<std::unique_ptr<MicroBatchExecution>> Make(
      QuerySpec spec, const std::string& new_query_id, std::string run_id,
      std::shared_ptr<QueryState> state, std::shared_ptr<StreamingQueryManager> manager);
  ~MicroBatchExecution();

  const std::string& query_id() const { return checkpoint_->query_id(); }

  /// Runs triggers until the trigger is done (once, availableNow), stop() cancels, or a batch
  /// fails. Returns the failure; a simulated crash returns Cancelled.
  arrow::Status Run();
  /// Releases sources and the sink after a clean or failed end (not after a crash), and the
  /// checkpoint's lock.
  void Close(bool clean_stop);
  /// True when the loop ended at a crash point of the test hook.
  bool crashed() const { return crashed_; }

 private:
  struct Source {
    const sources::StreamSourceProvider* provider;
    std::unique_ptr<sources::StreamSource> source;
    /// The end offset of the last batch run (where the next one starts).
    std::optional<std::string> committed;
    /// The end offset of the batch being run.
    std::optional<std::string> end;
    int64_t rows_read = 0;
    /// Whether this batch's rows_read counts a reader already.
    bool counted = false;
  };
  struct Timings;

  MicroBatchExecution() = default;
  arrow::Status Recover();
  /// One trigger: runs at most one batch. True if a batch ran.
  arrow::Result<bool> RunTrigger(int64_t trigger_start_ms, bool first_trigger);
  /// Asks every source for its next end offset; true if some source has new data.
  arrow::Result<bool> ConstructNextBatch(Timings& timings);
  arrow::Status RunBatch(Timings& timings);
  /// Reports a batch's progress to the state and the listeners.
  void ReportProgress(const Timings& timings);
  /// Posts an idle event for a trigger without data, at most once per
  /// noDataProgressEventInterval since the last batch or the last event.
  void ReportIdle(int64_t trigger_start_ms);
  /// Lets go of the buffers the last batch left in the batch memory pool for the next one,
  /// once the query has no batch to run (idle or stopping).
  void ReleaseKeptBuffers();
  /// True when a batch without new data must run now: the watermark moved past the one the
  /// last batch ran with and a stateful operator would emit or evict because of it (Spark's
  /// shouldRunAnotherBatch).
  bool NeedsNoDataBatch() const;
  /// True when the test hook kills the query at `point`.
  bool CrashAt(CrashPoint point) const;

  QuerySpec spec_;
  StreamingSettings settings_;
  std::string run_id_;
  std::shared_ptr<QueryState> state_;
  std::shared_ptr<StreamingQueryManager> manager_;
  std::unique_ptr<checkpoint::Checkpoint> checkpoint_;
  std::vector<Source> sources_;
  checkpoint::PinnedConf pinned_conf_;
  int64_t batch_id_ = 0;
  /// Set when recovery found batch_id_ with offsets but no commit.
  std::optional<checkpoint::OffsetSeq> rerun_;
  int64_t batch_timestamp_ms_ = 0;
  /// The withWatermark operators of the plan, in plan order.
  std::vector<const plan::EventTimeWatermark*> watermark_operators_;
  std::unique_ptr<WatermarkTracker> watermarks_;
  /// The watermark the running batch runs with (offsets/N's batchWatermarkMs).
  int64_t batch_watermark_ms_ = 0;
  /// The watermark the previous batch ran with: stateful operators drop the rows of the
  /// running batch that are late by it (Spark filters late rows with the previous batch's
  /// watermark and evicts with the current one's, so rows an upstream operator emits in a
  /// batch are never late downstream).
  int64_t previous_batch_watermark_ms_ = 0;
  /// The watermark of the last batch this run ran; nullopt before the first (as Spark, a
  /// restarted query runs no batch without data before it ran one with data).
  std::optional<int64_t> last_batch_watermark_ms_;
  /// The stateful operators of the plan, top-down, and their ids (their folders under state/).
  std::vector<const plan::LogicalPlan*> stateful_operators_;
  std::map<const plan::LogicalPlan*, int64_t> operator_ids_;
  /// The state store providers, kept across batches so state stays loaded.
  std::unique_ptr<state::StateProviderCache> state_providers_;
  /// What the stateful operators keep from batch to batch besides their state.
  physical::OperatorCarryOver carry_over_;
  int64_t last_trigger_start_ms_ = -1;
  /// When the last batch ended or the last idle event was due (Spark's
  /// lastNoExecutionProgressEventTime); nullopt before either happened in this run.
  std::optional<int64_t> last_idle_check_ms_;
  bool crashed_ = false;
  /// Whether the batch pool's buffers kept for a next batch were let go since the last batch.
  bool kept_buffers_released_ = true;
};

}  // namespace sluice::execution
