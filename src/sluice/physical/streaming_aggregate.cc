#include "sluice/physical/streaming_aggregate.h"

#include <numeric>

#include <arrow/util/parallel.h>

#include "sluice/common/huge_pages.h"
#include "sluice/common/recycling_memory_pool.h"
#include "sluice/expr/call_memos.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/physical/grouped_aggregation.h"
#include "sluice/physical/hash_aggregate.h"
#include "sluice/physical/pane_aggregation.h"
#include "sluice/physical/partial_states.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

/// Views of a batch's keys or values, one per group, for a store's GetMany and PutMany: a
/// RocksDB store reads them in its key order, at random places among 10M of them in a large
/// batch. In huge pages (fewer TLB misses) from the batch pool (the previous batch's pages,
/// not fresh ones to clear).
using BatchViews = HugePageVector<std::string_view>;
BatchViews NewBatchViews(size_t capacity) {
  BatchViews views{HugePageAllocator<std::string_view>(BatchMemoryPool())};
  views.reserve(capacity);
  return views;
}

/// What one partition's task gathers for the output in append and complete modes: the rows a
/// scan of the store gave, copied (the scan's views end with it).
struct PartitionOutput {
  EncodedRows keys, values;
};

/// The buffers an aggregation fills anew in every batch, kept from batch to batch
/// (OperatorCarryOver) so that their memory is touched once; per store partition where
/// partitions run in parallel.
struct AggregateBuffers {
  EncodedRows keys;    // the batch's keys
  EncodedRows values;  // and their new states
  std::vector<EncodedRows> found_values;  // per partition, the kept states of its keys
  std::vector<EncodedRows> final_keys;    // the keys the watermark made final (update mode)
  std::vector<PartitionOutput> outputs;
};

/// The grouping keys in the order they are encoded: the event-time key first, where
/// eviction reads it without decoding the rest.
std::vector<int> KeyOrder(const plan::Aggregate& aggregate) {
  std::vector<int> order(aggregate.grouping().size());
  std::iota(order.begin(), order.end(), 0);
  if (auto event_key = aggregate.event_time_key()) {
    std::rotate(order.begin(), order.begin() + *event_key, order.begin() + *event_key + 1);
  }
  return order;
}

/// A global aggregation's one key lives in one store, as Spark gathers all of its rows into one
/// partition.
int32_t StorePartitions(const plan::Aggregate& aggregate, int32_t shuffle_partitions) {
  return aggregate.grouping().empty() ? 1 : shuffle_partitions;
}

class StreamingAggregateStream final : public BatchStream {
 public:
  StreamingAggregateStream(const plan::Aggregate& plan, BatchStreamPtr input,
                           const ExecContext& context, bool per_pane)
      : plan_(plan),
        schema_(expr::ToSchema(plan.output())),
        input_(std::move(input)),
        per_pane_(per_pane),
        context_(context),
        eval_(context.eval),
        stateful_(*context.stateful) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    ARROW_RETURN_NOT_OK(Prepare());
    int64_t updates_start = SteadyMillis();

    ARROW_ASSIGN_OR_RAISE(auto batch_groups, AggregateInput());
    const int64_t num_groups = batch_groups.num_groups;
    auto buffers = stateful_.CarriedOver<AggregateBuffers>(operator_id_);
    buffers->found_values.resize(num_partitions_);
    buffers->final_keys.resize(num_partitions_);
    buffers->outputs.resize(num_partitions_);
    EncodedRows& keys = Refill(buffers->keys);
    ARROW_RETURN_NOT_OK(EncodeKeys(batch_groups.keys, num_groups, &keys));

    // Late keys are dropped; the others go to their partition.
    std::vector<std::vector<uint32_t>> groups_of(num_partitions_);
    int64_t dropped = 0;
    for (int64_t g = 0; g < num_groups; ++g) {
      std::string_view key = keys.row(g);
      if (event_key_ && stateful_.output_mode != plan::OutputMode::kComplete) {
        auto time = EventTimeMicrosOfKey(key, event_key_is_window_);
        if (time && *time <= stateful_.late_events_watermark_ms * 1000) {
          ++dropped;
          continue;
        }
      }
      groups_of[partitioner_->PartitionOf(key)].push_back(static_cast<uint32_t>(g));
    }

    // Each partition's store: the kept states of the batch's keys.
    std::vector<std::unique_ptr<state::StateStore>> stores(num_partitions_);
    std::vector<std::vector<uint32_t>> found_groups(num_partitions_);
    std::vector<EncodedRows>& found_values = buffers->found_values;
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      Refill(found_values[p]);
      state::StateStoreId id;
      id.operator_id = operator_id_;
      id.partition_id = p;
      ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_.providers->Get(id));
      ARROW_ASSIGN_OR_RAISE(stores[p], provider->GetStore(stateful_.batch_id));
      BatchViews partition_keys = NewBatchViews(groups_of[p].size());
      for (uint32_t g : groups_of[p]) partition_keys.push_back(keys.row(g));
      stores[p]->GetMany(partition_keys, [&](size_t i, std::string_view value) {
        found_groups[p].push_back(groups_of[p][i]);
        found_values[p].Append(value);
      });
      return arrow::Status::OK();
    }));

    // Each key's new state: its kept state, then the batch's rows (in this order, so first()
    // and collect_list() see the rows in arrival order).
    ARROW_ASSIGN_OR_RAISE(auto merged,
                          MakeAccumulators(plan_, num_groups, context_.eval.pool));
    std::vector<uint32_t> found_ids;
    int64_t found = 0;
    for (const auto& rows : found_values) found += rows.size();
    ARROW_RETURN_NOT_OK(value_decoder_->Reserve(found));
    for (const auto& rows : found_values) {
      for (int64_t i = 0; i < rows.size(); ++i) {
        ARROW_RETURN_NOT_OK(value_decoder_->Append(rows.row(i)));
      }
    }
    for (const auto& ids : found_groups) found_ids.insert(found_ids.end(), ids.begin(), ids.end());
    ARROW_ASSIGN_OR_RAISE(auto found_states, value_decoder_->Finish());
    ARROW_RETURN_NOT_OK(MergeStates(plan_, found_ids, found_states, &merged, context_.eval));
    std::vector<uint32_t> all_ids(num_groups);
    std::iota(all_ids.begin(), all_ids.end(), 0u);
    ARROW_RETURN_NOT_OK(
        MergeStates(plan_, all_ids, batch_groups.states, &merged, context_.eval));
    ARROW_ASSIGN_OR_RAISE(auto new_states, ExportStates(merged));
    EncodedRows& values = Refill(buffers->values);
    if (num_groups > 0) {
      value_encoder_->EncodeRows(new_states, 0, num_groups, &values.bytes, &values.offsets);
    }
    int64_t merge_ms = SteadyMillis() - updates_start;

    // Each partition writes its keys, evicts, gathers its output and commits.
    std::vector<PartitionOutput>& outputs = buffers->outputs;
    std::vector<int64_t> updated(num_partitions_, 0), removed(num_partitions_, 0),
        update_ms(num_partitions_, 0), removal_ms(num_partitions_, 0);
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      state::StateStore& store = *stores[p];
      PartitionOutput& output = outputs[p];
      Refill(output.keys);
      Refill(output.values);
      int64_t start = SteadyMillis();
      BatchViews put_keys = NewBatchViews(groups_of[p].size());
      BatchViews put_values = NewBatchViews(groups_of[p].size());
      // Every key is written, even one the watermark makes final in this batch (a batch with
      // rows moves the watermark too whenever input keeps arriving): update mode outputs it
      // now, and the eviction below removes it, as Spark does.
      for (uint32_t g : groups_of[p]) {
        put_keys.push_back(keys.row(g));
        put_values.push_back(values.row(g));
      }
      ARROW_RETURN_NOT_OK(store.PutMany(put_keys, put_values));
      updated[p] = static_cast<int64_t>(put_keys.size());
      int64_t removal_start = SteadyMillis();
      update_ms[p] = removal_start - start;
      if (event_key_ && stateful_.output_mode != plan::OutputMode::kComplete) {
        // In append mode the output is the final keys (and nothing else): they are gathered
        // once, there.
        const bool append = stateful_.output_mode == plan::OutputMode::kAppend;
        EncodedRows& final_keys = append ? output.keys : Refill(buffers->final_keys[p]);
        store.ForEach([&](std::string_view key, std::string_view value) {
          if (!IsFinal(key)) return;
          final_keys.Append(key);
          if (append) output.values.Append(value);
        });
        // Keys the scan just showed: the store need not look them up.
        ARROW_RETURN_NOT_OK(store.RemoveHeld(Views(final_keys)));
        removed[p] = final_keys.size();
      }
      if (stateful_.output_mode == plan::OutputMode::kComplete) {
        store.ForEach([&](std::string_view key, std::string_view value) {
          output.keys.Append(key);
          output.values.Append(value);
        });
      }
      removal_ms[p] = SteadyMillis() - removal_start;
      return store.Commit().status();
    }));

    StateOperatorProgress progress;
    progress.operator_name = "stateStoreSave";
    progress.num_rows_dropped_by_watermark = dropped;
    progress.num_shuffle_partitions = stateful_.num_partitions;
    progress.num_state_store_instances = num_partitions_;
    progress.all_updates_time_ms = merge_ms;
    for (int p = 0; p < num_partitions_; ++p) {
      auto metrics = stores[p]->metrics();
      progress.num_rows_total += metrics.num_keys;
      progress.memory_used_bytes += metrics.memory_used_bytes;
      progress.commit_time_ms += metrics.commit_time_ms;
      for (const auto& [name, value] : metrics.custom_metrics) {
        progress.custom_metrics[name] += value;
      }
      progress.num_rows_updated += updated[p];
      progress.num_rows_removed += removed[p];
      progress.all_updates_time_ms += update_ms[p];
      progress.all_removals_time_ms += removal_ms[p];
    }
    stateful_.Report(operator_id_, std::move(progress));
    if (stateful_.output_mode == plan::OutputMode::kUpdate) {
      return UpdateOutput(batch_groups.keys, new_states, num_groups, groups_of);
    }
    return OutputOf(outputs);
  }

 private:
  /// The batch's rows aggregated per key.
  arrow::Result<BatchGroups> AggregateInput() {
    if (per_pane_) {
      ARROW_ASSIGN_OR_RAISE(auto panes, PaneAggregation::Make(plan_, context_.eval.pool));
      while (true) {
        ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
        if (batch == nullptr) break;
        ARROW_RETURN_NOT_OK(panes->Consume(batch, eval_.get()));
      }
      return panes->Finish(context_.eval);
    }
    ARROW_ASSIGN_OR_RAISE(auto aggregation,
                          AggregateBatch(plan_, operator_id_, *input_, stateful_, eval_.get()));
    BatchGroups groups;
    groups.num_groups = aggregation->num_groups();
    ARROW_ASSIGN_OR_RAISE(groups.keys, aggregation->GroupKeys());
    ARROW_ASSIGN_OR_RAISE(groups.states, ExportStates(aggregation->accumulators()));
    return groups;
  }

  /// Looks up what the operator needs from the plan and the batch.
  arrow::Status Prepare() {
    operator_id_ = stateful_.operator_ids->at(&plan_);
    num_partitions_ = StorePartitions(plan_, stateful_.num_partitions);
    event_key_ = plan_.event_time_key();
    const auto& grouping = plan_.grouping();
    key_order_ = KeyOrder(plan_);
    if (event_key_) {
      event_key_is_window_ =
          grouping[*event_key_].expr->type()->id() == arrow::Type::STRUCT;
    }
    std::vector<std::shared_ptr<arrow::DataType>> key_types;
    for (int k : key_order_) key_types.push_back(grouping[k].expr->type());
    ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types, /*for_keys=*/true));
    ARROW_ASSIGN_OR_RAISE(key_decoder_, types::RowDecoder::Make(key_types, context_.eval.pool));
    partitioner_.emplace(key_types, num_partitions_, stateful_.partitioning, key_order_);
    std::vector<std::shared_ptr<arrow::DataType>> value_types;
    for (const auto& field : StateFields(plan_)) value_types.push_back(field->type());
    ARROW_ASSIGN_OR_RAISE(value_encoder_,
                          types::RowEncoder::Make(value_types, /*for_keys=*/false));
    ARROW_ASSIGN_OR_RAISE(value_decoder_,
                          types::RowDecoder::Make(value_types, context_.eval.pool));
    return arrow::Status::OK();
  }

  /// True when the watermark made the key of `key` final: its event time is at or below the
  /// eviction watermark.
  bool IsFinal(std::string_view key) const {
    if (!event_key_) return false;
    auto time = EventTimeMicrosOfKey(key, event_key_is_window_);
    return time && *time <= stateful_.eviction_watermark_ms * 1000;
  }

  arrow::Status EncodeKeys(const arrow::ArrayVector& group_keys, int64_t num_groups,
                           EncodedRows* keys) const {
    if (group_keys.empty()) {  // a global aggregation: one group, the empty key
      keys->offsets.assign(num_groups + 1, 0);
      return arrow::Status::OK();
    }
    arrow::ArrayVector ordered;
    for (int k : key_order_) ordered.push_back(group_keys[k]);
    key_encoder_->EncodeRows(ordered, 0, num_groups, &keys->bytes, &keys->offsets);
    return arrow::Status::OK();
  }

  /// The output rows of the keys and states the partitions gathered.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> OutputOf(
      const std::vector<PartitionOutput>& outputs) {
    int64_t rows = 0;
    for (const auto& output : outputs) rows += output.keys.size();
    if (!plan_.grouping().empty()) ARROW_RETURN_NOT_OK(key_decoder_->Reserve(rows));
    ARROW_RETURN_NOT_OK(value_decoder_->Reserve(rows));
    for (const auto& output : outputs) {
      for (int64_t i = 0; i < output.keys.size(); ++i) {
        if (!plan_.grouping().empty()) {
          ARROW_RETURN_NOT_OK(key_decoder_->Append(output.keys.row(i)));
        }
        ARROW_RETURN_NOT_OK(value_decoder_->Append(output.values.row(i)));
      }
    }
    arrow::ArrayVector keys;
    if (!plan_.grouping().empty()) {
      ARROW_ASSIGN_OR_RAISE(auto ordered, key_decoder_->Finish());
      keys.resize(ordered.size());
      for (size_t i = 0; i < key_order_.size(); ++i) keys[key_order_[i]] = ordered[i];
    }
    ARROW_ASSIGN_OR_RAISE(auto states, value_decoder_->Finish());
    ARROW_ASSIGN_OR_RAISE(auto values, FinalizeStates(plan_, states, rows, context_.eval));
    return AggregateOutput(plan_, keys, values, rows, context_);
  }

  /// The output rows of update mode: every key the partitions wrote, in their order, with its
  /// new state, taken from the batch's arrays (`group_keys` and `new_states`, by group of
  /// `num_groups`; grouping gives floating-point keys in the form Spark outputs). Decoding the
  /// rows just encoded would give the same values but build every column anew: a tenth of the
  /// time of a batch of 10M new keys, most of it the page faults of the new buffers.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> UpdateOutput(
      const arrow::ArrayVector& group_keys, const arrow::ArrayVector& new_states,
      int64_t num_groups, const std::vector<std::vector<uint32_t>>& groups_of) {
    std::vector<int64_t> rows;
    for (const auto& groups : groups_of) rows.insert(rows.end(), groups.begin(), groups.end());
    const auto num_rows = static_cast<int64_t>(rows.size());
    bool every_group = num_rows == num_groups;
    for (int64_t i = 0; every_group && i < num_rows; ++i) every_group = rows[i] == i;
    auto take = [&](const arrow::ArrayVector& columns) -> arrow::Result<arrow::ArrayVector> {
      if (every_group) return columns;
      arrow::ArrayVector taken;
      for (const auto& column : columns) {
        ARROW_ASSIGN_OR_RAISE(taken.emplace_back(),
                              expr::aggregates::TakeRows(*column, rows, context_.eval.pool));
      }
      return taken;
    };
    ARROW_ASSIGN_OR_RAISE(auto keys, take(group_keys));
    ARROW_ASSIGN_OR_RAISE(auto states, take(new_states));
    ARROW_ASSIGN_OR_RAISE(auto values, FinalizeStates(plan_, states, num_rows, context_.eval));
    return AggregateOutput(plan_, keys, values, num_rows, context_);
  }

  const plan::Aggregate& plan_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr input_;
  /// Whether `input_` gives the rows below a sliding window's explosion (PaneAggregation).
  bool per_pane_;
  const ExecContext& context_;
  /// Evaluates the keys and the aggregates' inputs, with memos of the operator's own.
  expr::OperatorEvalContext eval_;
  const StatefulContext& stateful_;
  bool done_ = false;

  int64_t operator_id_ = 0;
  int num_partitions_ = 1;
  std::optional<int> event_key_;
  bool event_key_is_window_ = false;
  /// The grouping keys in the order they are encoded: the event-time key first.
  std::vector<int> key_order_;
  std::optional<StatePartitioner> partitioner_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  std::unique_ptr<types::RowDecoder> key_decoder_;
  std::shared_ptr<const types::RowEncoder> value_encoder_;
  std::unique_ptr<types::RowDecoder> value_decoder_;
};

}  // namespace

state::StateOperatorInfo AggregateStateInfo(const plan::Aggregate& aggregate,
                                            int64_t operator_id, int32_t num_partitions) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  info.operator_name = "stateStoreSave";
  info.num_partitions = StorePartitions(aggregate, num_partitions);
  arrow::FieldVector keys;
  for (int k : KeyOrder(aggregate)) {
    const auto& key = aggregate.grouping()[k];
    keys.push_back(arrow::field(key.name, key.expr->type(), key.expr->nullable()));
  }
  info.stores.push_back(
      {"default", arrow::schema(std::move(keys)), arrow::schema(StateFields(aggregate))});
  return info;
}

BatchStreamPtr MakeStreamingAggregate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                      const ExecContext& context, bool per_pane) {
  return std::make_unique<StreamingAggregateStream>(aggregate, std::move(input), context,
                                                    per_pane);
}

}  // namespace sluice::physical
