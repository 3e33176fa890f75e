#include "sluice/execution/micro_batch_execution.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>

#include <arrow/util/logging.h>

#include "sluice/common/errors.h"
#include "sluice/common/fault_points.h"
#include "sluice/common/recycling_memory_pool.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/execution/query_listener.h"
#include "sluice/execution/query_manager.h"
#include "sluice/physical/planner.h"
#include "sluice/physical/read_ahead_stream.h"
#include "sluice/physical/stateful_operators.h"
#include "sluice/plan/relation.h"
#include "sluice/state/operator_metadata.h"

namespace sluice::execution {

namespace {

constexpr const char* kSimulatedCrash = "simulated crash";

/// Counts the rows a source yields into a batch (numInputRows of the progress report).
class CountingReader final : public arrow::RecordBatchReader {
 public:
  CountingReader(std::shared_ptr<arrow::RecordBatchReader> input, int64_t* rows)
      : input_(std::move(input)), rows_(rows) {}
  std::shared_ptr<arrow::Schema> schema() const override { return input_->schema(); }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    ARROW_RETURN_NOT_OK(input_->ReadNext(batch));
    // Atomic: the two sides of a self-join read the same source on two threads
    // (physical/read_ahead_stream.h).
    if (*batch) std::atomic_ref<int64_t>(*rows_).fetch_add((*batch)->num_rows());
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> input_;
  int64_t* rows_;
};

/// The streaming leaves of `plan`, left to right, each once: their positions are the source
/// indexes of the checkpoint (sources/<i>, the lines of offsets/<N>).
void CollectSources(const plan::LogicalPlan& node,
                    std::vector<const sources::StreamSourceProvider*>* out) {
  if (node.kind() == plan::PlanKind::kRelation) {
    const auto& source = static_cast<const plan::Relation&>(node).source();
    if (auto* provider = dynamic_cast<const sources::StreamSourceProvider*>(&source)) {
      for (const auto* seen : *out) {
        if (seen == provider) return;
      }
      out->push_back(provider);
    }
    return;
  }
  for (const auto& child : node.children()) CollectSources(*child, out);
}

void CollectWatermarkOperators(const plan::LogicalPlan& node,
                               std::vector<const plan::EventTimeWatermark*>* out) {
  if (node.kind() == plan::PlanKind::kEventTimeWatermark) {
    out->push_back(static_cast<const plan::EventTimeWatermark*>(&node));
  }
  for (const auto& child : node.children()) CollectWatermarkOperators(*child, out);
}

int64_t SteadyMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

/// The phases of one trigger, in Spark's names, plus its start on the query clock.
struct MicroBatchExecution::Timings {
  int64_t trigger_start_ms = 0;
  std::map<std::string, int64_t> duration_ms;
  bool ran_batch = false;
  std::vector<std::optional<std::string>> start_offsets;
  /// What the withWatermark operators saw in the batch.
  physical::EventTimeObservations event_times;
  /// What the stateful operators reported, by operator id.
  std::map<int64_t, physical::StateOperatorProgress> state_operators;

  /// Times `body` into duration_ms[phase] (steady time: the query clock may be manual).
  template <typename Body>
  auto Time(const char* phase, Body&& body) {
    int64_t start = SteadyMillis();
    auto result = body();
    duration_ms[phase] += SteadyMillis() - start;
    return result;
  }
};

MicroBatchExecution::~MicroBatchExecution() = default;

arrow::Result<std::unique_ptr<MicroBatchExecution>> MicroBatchExecution::Make(
    QuerySpec spec, const std::string& new_query_id, std::string run_id,
    std::shared_ptr<QueryState> state, std::shared_ptr<StreamingQueryManager> manager) {
  std::unique_ptr<MicroBatchExecution> execution(new MicroBatchExecution());
  execution->spec_ = std::move(spec);
  execution->run_id_ = std::move(run_id);
  execution->state_ = std::move(state);
  execution->manager_ = std::move(manager);
  ARROW_ASSIGN_OR_RAISE(execution->checkpoint_,
                        checkpoint::Checkpoint::Open(execution->spec_.checkpoint_root,
                                                     new_query_id));
  ARROW_RETURN_NOT_OK(execution->Recover());
  return execution;
}

arrow::Status MicroBatchExecution::Recover() {
  ARROW_ASSIGN_OR_RAISE(auto recovered, checkpoint_->Recover());
  std::vector<const sources::StreamSourceProvider*> providers;
  CollectSources(*spec_.plan, &providers);
  if (providers.empty()) {
    return SparkError("INTERNAL_ERROR", "A streaming query needs a streaming source.");
  }

  // Offsets logged by an earlier run pin the settings and must match the query's sources.
  const checkpoint::OffsetSeq* logged =
      recovered.rerun_offsets ? &*recovered.rerun_offsets
                              : (recovered.previous_offsets ? &*recovered.previous_offsets
                                                            : nullptr);
  if (logged != nullptr) {
    if (logged->offsets.size() != providers.size()) {
      return SparkError(
          "STREAMING_CHECKPOINT_SOURCES_MISMATCH",
          // Spark's assertion message, then where and what to do.
          "There are [" + std::to_string(logged->offsets.size()) +
              "] sources in the checkpoint offsets and now there are [" +
              std::to_string(providers.size()) +
              "] sources requested by the query. Cannot continue. The number of sources "
              "cannot change between restarts of the checkpoint " +
              checkpoint_->paths().root() + "; use a new checkpoint location.");
    }
    for (const auto& [key, value] : logged->metadata.conf) {
      auto current = spec_.config.Get(key);
      if (current && *current != value) {
        // Spark's warning: the checkpoint's value wins for its whole life.
        ARROW_LOG(WARNING) << "Updating the value of conf '" << key << "' in current session "
                           << "from '" << *current << "' to '" << value
                           << "': the checkpoint " << checkpoint_->paths().root()
                           << " was started with it.";
      }
    }
    ARROW_RETURN_NOT_OK(RestorePinnedConf(logged->metadata.conf, &spec_.config));
    pinned_conf_ = logged->metadata.conf;
  } else {
    pinned_conf_ = PinnedConfOf(spec_.config);
  }
  ARROW_ASSIGN_OR_RAISE(settings_, StreamingSettings::FromConfig(spec_.config));

  for (size_t i = 0; i < providers.size(); ++i) {
    sources::SourceContext context;
    context.metadata_path = checkpoint_->paths().source(static_cast<int>(i));
    context.clock = spec_.clock.get();
    context.config = &spec_.config;
    context.format_context = spec_.format_context;
    Source source;
    source.provider = providers[i];
    ARROW_ASSIGN_OR_RAISE(source.source, providers[i]->CreateSource(context));
    if (recovered.previous_offsets) source.committed = recovered.previous_offsets->offsets[i];
    sources_.push_back(std::move(source));
  }

  batch_id_ = recovered.resume.next_batch_id;
  CollectWatermarkOperators(*spec_.plan, &watermark_operators_);
  stateful_operators_ = physical::StatefulOperators(*spec_.plan);
  for (size_t i = 0; i < stateful_operators_.size(); ++i) {
    operator_ids_[stateful_operators_[i]] = static_cast<int64_t>(i);
  }
  for (const auto* node : stateful_operators_) {
    ARROW_RETURN_NOT_OK(state::WriteOrCheckOperatorMetadata(
        checkpoint_->paths(),
        physical::StateOperatorInfoOf(
            *node, operator_ids_.at(node), settings_.shuffle_partitions,
            static_cast<physical::StatePartitioning>(settings_.state_partitioning_version))));
  }
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<const state::StateStoreProviderFactory> factory,
                        state::StateStoreProviderFactory::Make(settings_.state_store));
  state_providers_ =
      std::make_unique<state::StateProviderCache>(checkpoint_->paths(), std::move(factory));
  watermarks_ = std::make_unique<WatermarkTracker>(settings_.max_watermark_policy,
                                                   recovered.watermark_ms);
  if (recovered.previous_offsets) {
    previous_batch_watermark_ms_ = recovered.previous_offsets->metadata.batch_watermark_ms;
  }
  if (recovered.resume.rerun) rerun_ = std::move(recovered.rerun_offsets);
  return arrow::Status::OK();
}

bool MicroBatchExecution::CrashAt(CrashPoint point) const {
  KillPoint(KillPointName(point));
  return spec_.crash_hook && spec_.crash_hook(point, batch_id_);
}

#define SLUICE_CRASH_POINT(point)                                                      \
  do {                                                                                 \
    if (CrashAt(point)) {                                                              \
      crashed_ = true;                                                                 \
      return arrow::Status::Cancelled(kSimulatedCrash, " at ", CrashPointName(point),  \
                                      " of batch ", batch_id_);                        \
    }                                                                                  \
  } while (false)

arrow::Status MicroBatchExecution::Run() {
  const Trigger& trigger = spec_.trigger;
  if (trigger.kind == Trigger::Kind::kAvailableNow) {
    for (auto& source : sources_) ARROW_RETURN_NOT_OK(source.source->PrepareForAvailableNow());
  }
  bool first = true;
  while (!state_->cancel().cancelled()) {
    int64_t trigger_start = spec_.clock->NowMillis();
    ARROW_ASSIGN_OR_RAISE(bool ran, RunTrigger(trigger_start, first));
    first = false;
    if (trigger.kind == Trigger::Kind::kOnce) break;
    if (trigger.kind == Trigger::Kind::kAvailableNow) {
      if (!ran) break;
      continue;
    }
    if (trigger.interval_ms > 0) {
      // Batches start on multiples of the interval; a batch that overran starts the next
      // at once.
      int64_t next = (trigger_start / trigger.interval_ms + 1) * trigger.interval_ms;
      state_->SetStatus("Waiting for next trigger", false, false);
      spec_.clock->WaitUntil(next, state_->cancel());
    } else if (!ran) {
      state_->cancel().SleepFor(std::chrono::milliseconds(settings_.polling_delay_ms));
    }
  }
  ReleaseKeptBuffers();
  state_->MarkNoNewData(state_->BeginDataCheck());
  return arrow::Status::OK();
}

void MicroBatchExecution::ReleaseKeptBuffers() {
  if (kept_buffers_released_) return;
  // No batch follows at once (the query idles or stops): a second round after the last
  // batch's lets go of every buffer that batch freed, so that an idle query holds none.
  BatchMemoryPool()->ReleaseIdle();
  kept_buffers_released_ = true;
}

arrow::Result<bool> MicroBatchExecution::RunTrigger(int64_t trigger_start_ms,
                                                    bool first_trigger) {
  Timings timings;
  timings.trigger_start_ms = trigger_start_ms;
  int64_t steady_start = SteadyMillis();
  state_->SetStatus("Processing new data", false, true);
  const int64_t data_check = state_->BeginDataCheck();
  for (auto& source : sources_) timings.start_offsets.push_back(source.committed);

  bool has_batch = false;
  if (rerun_) {
    // Re-run the uncommitted batch with exactly what the log says.
    for (size_t i = 0; i < sources_.size(); ++i) sources_[i].end = rerun_->offsets[i];
    batch_timestamp_ms_ = rerun_->metadata.batch_timestamp_ms;
    batch_watermark_ms_ = rerun_->metadata.batch_watermark_ms;
    rerun_.reset();
    has_batch = true;
  } else {
    ARROW_ASSIGN_OR_RAISE(has_batch, ConstructNextBatch(timings));
  }
  if (!has_batch) {
    ReleaseKeptBuffers();
    state_->SetStatus("Waiting for data to arrive", false, false);
    state_->MarkNoNewData(data_check);
    // A trigger that runs to the end of the data (once, availableNow) stops instead of idling.
    if (spec_.trigger.kind == Trigger::Kind::kProcessingTime) ReportIdle(trigger_start_ms);
    return false;
  }
  ARROW_RETURN_NOT_OK(RunBatch(timings));
  // The next batch reuses this one's buffers; those this one did not reuse are let go.
  BatchMemoryPool()->ReleaseIdle();
  kept_buffers_released_ = false;
  timings.duration_ms["triggerExecution"] = SteadyMillis() - steady_start;
  ReportProgress(timings);
  // A batch restarts the idle count (Spark's finishTrigger).
  last_idle_check_ms_ = spec_.clock->NowMillis();
  last_trigger_start_ms_ = trigger_start_ms;
  ++batch_id_;
  state_->SetStatus("Waiting for data to arrive", false, false);
  return true;
}

arrow::Result<bool> MicroBatchExecution::ConstructNextBatch(Timings& timings) {
  auto mode = spec_.trigger.kind == Trigger::Kind::kOnce ? sources::ReadLimitMode::kAll
                                                         : sources::ReadLimitMode::kRespectLimits;
  bool has_new_data = false;
  for (auto& source : sources_) {
    state_->SetStatus("Getting offsets from " + source.source->Describe(), false, true);
    ARROW_ASSIGN_OR_RAISE(source.end, timings.Time("latestOffset", [&] {
      return source.source->LatestOffset(source.committed, mode);
    }));
    if (source.end && source.end != source.committed) has_new_data = true;
  }
  if (!has_new_data) {
    if (!NeedsNoDataBatch()) return false;
    for (auto& source : sources_) source.end = source.committed;
  }

  batch_timestamp_ms_ = spec_.clock->NowMillis();
  checkpoint::OffsetSeq seq;
  batch_watermark_ms_ = watermarks_->watermark_ms();
  seq.metadata.batch_watermark_ms = batch_watermark_ms_;
  seq.metadata.batch_timestamp_ms = batch_timestamp_ms_;
  seq.metadata.conf = pinned_conf_;
  for (const auto& source : sources_) seq.offsets.push_back(source.end);
  SLUICE_CRASH_POINT(CrashPoint::kBeforeOffsetsWrite);
  ARROW_RETURN_NOT_OK(
      timings.Time("walCommit", [&] { return checkpoint_->WriteOffsets(batch_id_, seq); }));
  SLUICE_CRASH_POINT(CrashPoint::kAfterOffsetsWrite);
  return true;
}

arrow::Status MicroBatchExecution::RunBatch(Timings& timings) {
  // The sources may now forget what batch N-1 read: its commit is durable.
  for (auto& source : sources_) {
    if (source.committed) ARROW_RETURN_NOT_OK(source.source->Commit(*source.committed));
  }
  SLUICE_CRASH_POINT(CrashPoint::kBeforeAddBatch);

  physical::StreamInputs inputs;
  ARROW_RETURN_NOT_OK(timings.Time("getBatch", [&]() -> arrow::Status {
    for (auto& source : sources_) {
      source.rows_read = 0;
      source.counted = false;
      Source* entry = &source;
      inputs[source.provider] = [entry](const arrow::Schema& read)
          -> arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> {
        std::shared_ptr<arrow::RecordBatchReader> reader;
        if (!entry->end || entry->end == entry->committed) {
          ARROW_ASSIGN_OR_RAISE(reader,
                                arrow::RecordBatchReader::Make({}, entry->source->schema()));
        } else {
          ARROW_ASSIGN_OR_RAISE(reader, entry->source->GetBatchReading(entry->committed,
                                                                       *entry->end, read));
        }
        // A source read twice by the plan (a self-union) counts its rows once, as in Spark.
        if (entry->counted) return reader;
        entry->counted = true;
        return std::make_shared<CountingReader>(std::move(reader), &entry->rows_read);
      };
    }
    return arrow::Status::OK();
  }));

  physical::StatefulContext stateful;
  std::mutex report_mutex;
  stateful.batch_id = batch_id_;
  stateful.output_mode = spec_.output_mode;
  stateful.num_partitions = settings_.shuffle_partitions;
  stateful.partitioning =
      static_cast<physical::StatePartitioning>(settings_.state_partitioning_version);
  stateful.late_events_watermark_ms = previous_batch_watermark_ms_;
  stateful.eviction_watermark_ms = batch_watermark_ms_;
  stateful.has_watermark = !watermark_operators_.empty();
  stateful.batch_timestamp_ms = batch_timestamp_ms_;
  stateful.providers = state_providers_.get();
  stateful.operator_ids = &operator_ids_;
  stateful.reports = &timings.state_operators;
  stateful.report_mutex = &report_mutex;
  stateful.carry_over = &carry_over_;

  physical::ExecContext context;
  context.stateful = &stateful;
  context.eval.config = &spec_.config;
  context.eval.batch_timestamp_us = batch_timestamp_ms_ * 1000;
  context.stream_inputs = &inputs;
  context.event_times = &timings.event_times;
  context.push_down_filters = true;
  ARROW_ASSIGN_OR_RAISE(auto stream, timings.Time("queryPlanning", [&] {
    return physical::Execute(*spec_.plan, context);
  }));
  // A stateless query computes its next batches while the sink writes this one.
  if (spec_.sink->WorksOnRows() && physical::MayRunAhead(*spec_.plan)) {
    stream = physical::RunAhead(std::move(stream));
  }
  ARROW_RETURN_NOT_OK(timings.Time("addBatch", [&] {
    return spec_.sink->AddBatch(batch_id_, *stream, spec_.output_mode);
  }));
  SLUICE_CRASH_POINT(CrashPoint::kAfterAddBatch);

  // The watermark moves after the batch; the next batch runs with it.
  std::vector<int64_t> delays;
  std::vector<const physical::EventTimeStats*> stats;
  for (const auto* node : watermark_operators_) {
    delays.push_back(node->delay_ms());
    auto seen = timings.event_times.find(node);
    stats.push_back(seen == timings.event_times.end() ? nullptr : &seen->second);
  }
  watermarks_->Update(delays, stats);
  checkpoint::CommitMetadata commit;
  commit.next_batch_watermark_ms = watermarks_->watermark_ms();
  ARROW_RETURN_NOT_OK(timings.Time("commitOffsets", [&]() -> arrow::Status {
    ARROW_RETURN_NOT_OK(checkpoint_->WriteCommit(batch_id_, commit));
    return checkpoint_->Purge(batch_id_, settings_.min_batches_to_retain);
  }));
  SLUICE_CRASH_POINT(CrashPoint::kAfterCommit);
  for (auto& source : sources_) {
    if (source.end) source.committed = source.end;
  }
  last_batch_watermark_ms_ = batch_watermark_ms_;
  previous_batch_watermark_ms_ = batch_watermark_ms_;
  timings.ran_batch = true;
  return arrow::Status::OK();
}

void MicroBatchExecution::ReportProgress(const Timings& timings) {
  StreamingQueryProgress progress;
  progress.id = checkpoint_->query_id();
  progress.run_id = run_id_;
  progress.name = spec_.name;
  progress.timestamp_ms = timings.trigger_start_ms;
  progress.batch_id = batch_id_;
  progress.duration_ms = timings.duration_ms;
  int64_t processing_ms = timings.duration_ms.at("triggerExecution");
  progress.batch_duration_ms = processing_ms;
  // Spark: rows over the time since the previous trigger started (infinite before the first:
  // the rate is 0), and over this trigger's processing time (at least 1 ms).
  double input_seconds = last_trigger_start_ms_ >= 0
                             ? (timings.trigger_start_ms - last_trigger_start_ms_) / 1000.0
                             : std::numeric_limits<double>::infinity();
  double processing_seconds = std::max<int64_t>(1, processing_ms) / 1000.0;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const auto& source = sources_[i];
    SourceProgress entry;
    entry.description = source.source->Describe();
    entry.start_offset = timings.start_offsets[i];
    entry.end_offset = source.end;
    entry.latest_offset = source.source->ReportLatestOffset();
    entry.num_input_rows = source.rows_read;
    entry.input_rows_per_second = source.rows_read / input_seconds;
    entry.processed_rows_per_second = source.rows_read / processing_seconds;
    entry.metrics = source.source->Metrics();
    entry.backlog = source.source->Backlog();
    progress.sources.push_back(std::move(entry));
  }
  if (!watermark_operators_.empty()) {
    // Spark: the batch's watermark, and the event-time statistics of the first withWatermark
    // operator (in plan order) that saw rows; the others are not shown.
    progress.event_time["watermark"] = FormatIsoTimestamp(batch_watermark_ms_);
    for (const auto* node : watermark_operators_) {
      auto seen = timings.event_times.find(node);
      if (seen == timings.event_times.end() || seen->second.count == 0) continue;
      progress.event_time["avg"] = FormatIsoTimestamp(static_cast<int64_t>(seen->second.avg));
      progress.event_time["max"] = FormatIsoTimestamp(seen->second.max);
      progress.event_time["min"] = FormatIsoTimestamp(seen->second.min);
      break;
    }
  }
  for (const auto& [id, report] : timings.state_operators) {
    progress.state_operators.push_back(report);
  }
  progress.sink.description = spec_.sink->Describe();
  progress.sink.num_output_rows = spec_.sink->last_output_rows();
  progress.sink.metrics = spec_.sink->Metrics();
  state_->AddProgress(progress);
  manager_->Post(QueryProgressEvent{std::move(progress)});
}

bool MicroBatchExecution::NeedsNoDataBatch() const {
  if (!settings_.no_data_micro_batches || !last_batch_watermark_ms_) return false;
  // Processing-time timeouts are checked by every batch, as Spark runs one each trigger; a
  // run that ends once the input is consumed (availableNow) does not wait for them.
  const bool terminating = spec_.trigger.kind == Trigger::Kind::kAvailableNow ||
                           spec_.trigger.kind == Trigger::Kind::kOnce;
  for (const auto* node : stateful_operators_) {
    if (!terminating && physical::ActsOnEveryTrigger(*node)) return true;
  }
  if (watermarks_->watermark_ms() <= *last_batch_watermark_ms_) return false;
  for (const auto* node : stateful_operators_) {
    if (physical::ActsOnWatermark(*node, spec_.output_mode)) return true;
  }
  return false;
}

void MicroBatchExecution::ReportIdle(int64_t trigger_start_ms) {
  int64_t now_ms = spec_.clock->NowMillis();
  if (last_idle_check_ms_ &&
      now_ms - *last_idle_check_ms_ < settings_.no_data_progress_event_interval_ms) {
    return;
  }
  // As Spark's updateIdleness: the first idle trigger of a run only starts the count, so a
  // query that finds no data at start is reported idle one interval later.
  if (last_idle_check_ms_) {
    manager_->Post(QueryIdleEvent{checkpoint_->query_id(), run_id_,
                                  FormatIsoTimestamp(trigger_start_ms)});
  }
  last_idle_check_ms_ = now_ms;
}

void MicroBatchExecution::Close(bool clean_stop) {
  for (auto& source : sources_) source.source->Stop();
  if (!crashed_) spec_.sink->Stop();
  // The state stores finish what they still write (a snapshot in the background) before the
  // query counts as stopped: nothing writes into the checkpoint once awaitTermination returns.
  state_providers_.reset();
  std::string root = checkpoint_->paths().root();
  checkpoint_.reset();
  // As Spark: the temporary checkpoint of a failed query stays, to look into, unless the
  // session says to delete it anyway. A kill leaves it, as a dead process would.
  const bool force_delete = settings_.force_delete_temp_checkpoint && !crashed_;
  if (spec_.temporary_checkpoint && (clean_stop || force_delete)) {
    std::error_code error;
    std::filesystem::remove_all(root, error);
  }
}

}  // namespace sluice::execution
