#include "sluice/physical/buffered_stream.h"
#include "sluice/physical/groups_with_state_operator.h"

#include <set>
#include <string>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/table.h>
#include <arrow/util/parallel.h>

#include "sluice/common/errors.h"
#include "sluice/physical/keyed_rows.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

using plan::GroupState;
using plan::GroupStateTimeout;

constexpr int64_t kNoTimestamp = -1;

/// A key's state as kept in its store: the state row (null when there is none) and its
/// timeout.
struct KeptState {
  std::shared_ptr<arrow::StructScalar> state;
  int64_t timeout_ms = kNoTimestamp;
};

class GroupsWithStateStream final : public BufferedStream {
 public:
  GroupsWithStateStream(const plan::FlatMapGroupsWithState& node, BatchStreamPtr input,
                        const ExecContext& context)
      : node_(node),
        input_(std::move(input)),
        context_(context),
        stateful_(context.stateful),
        schema_(expr::ToSchema(node.output())) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

 private:
  arrow::Status Run() override {
    ARROW_RETURN_NOT_OK(Prepare());
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*input_));
    ARROW_ASSIGN_OR_RAISE(auto rows, table->CombineChunksToBatch(context_.eval.pool));
    ARROW_ASSIGN_OR_RAISE(rows, DropLateRows(rows));
    const int64_t start = SteadyMillis();
    ARROW_RETURN_NOT_OK(CallKeysWithRows(rows));
    if (stateful_ != nullptr) ARROW_RETURN_NOT_OK(CallTimedOutKeys(rows->schema()));
    update_ms_ = SteadyMillis() - start;
    if (stateful_ != nullptr) ARROW_RETURN_NOT_OK(CommitAndReport());
    return arrow::Status::OK();
  }

  arrow::Status Prepare() {
    for (const auto& key : node_.grouping()) key_types_.push_back(key.expr->type());
    ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types_, /*for_keys=*/true));
    value_types_ = {std::make_shared<arrow::StructType>(node_.state_schema()->fields()),
                    arrow::int64()};
    ARROW_ASSIGN_OR_RAISE(value_encoder_,
                          types::RowEncoder::Make(value_types_, /*for_keys=*/false));
    if (stateful_ == nullptr) return arrow::Status::OK();
    operator_id_ = stateful_->operator_ids->at(&node_);
    num_partitions_ = stateful_->num_partitions;
    partitioner_.emplace(key_types_, num_partitions_, stateful_->partitioning);
    stores_.resize(num_partitions_);
    return arrow::internal::ParallelFor(num_partitions_, [&](int p) -> arrow::Status {
      state::StateStoreId id;
      id.operator_id = operator_id_;
      id.partition_id = p;
      ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_->providers->Get(id));
      ARROW_ASSIGN_OR_RAISE(stores_[p], provider->GetStore(stateful_->batch_id));
      return arrow::Status::OK();
    });
  }

  /// With event-time timeouts, rows at or below the watermark of late rows are dropped.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> DropLateRows(
      const std::shared_ptr<arrow::RecordBatch>& rows) {
    if (stateful_ == nullptr || node_.timeout() != GroupStateTimeout::kEventTime) return rows;
    return physical::DropLateRows(rows, node_.children()[0]->output(),
                                  stateful_->late_events_watermark_ms, &dropped_late_);
  }

  arrow::Status CallKeysWithRows(const std::shared_ptr<arrow::RecordBatch>& rows) {
    if (rows->num_rows() == 0) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto keyed,
                          GroupRowsByKey(node_.grouping(), node_.key_type(), *key_encoder_,
                                         *rows, partitioner_ ? &*partitioner_ : nullptr,
                                         context_.eval));
    return ForEachKey(keyed, rows,
                      [&](int p, std::string_view key,
                          const std::shared_ptr<arrow::StructScalar>& key_row,
                          const std::shared_ptr<arrow::RecordBatch>& key_rows) -> arrow::Status {
                        KeptState kept;
                        if (stateful_ != nullptr) {
                          ARROW_ASSIGN_OR_RAISE(kept, Load(*stores_[p], key));
                          called_.insert(std::string(key));
                        }
                        return Call(p, key, key_row, key_rows, kept, /*timed_out=*/false);
                      });
  }

  /// Calls each key whose timeout passed and that had no rows in this batch.
  arrow::Status CallTimedOutKeys(const std::shared_ptr<arrow::Schema>& input_schema) {
    if (node_.timeout() == GroupStateTimeout::kNone) return arrow::Status::OK();
    if (node_.timeout() == GroupStateTimeout::kEventTime && !stateful_->has_watermark) {
      return arrow::Status::OK();
    }
    const int64_t threshold = node_.timeout() == GroupStateTimeout::kProcessingTime
                                  ? stateful_->batch_timestamp_ms
                                  : stateful_->eviction_watermark_ms;
    ARROW_ASSIGN_OR_RAISE(auto no_rows, arrow::RecordBatch::MakeEmpty(input_schema));
    for (int p = 0; p < num_partitions_; ++p) {
      EncodedRows due_keys, due_values;
      stores_[p]->ForEach([&](std::string_view key, std::string_view value) {
        if (called_.count(std::string(key))) return;
        due_keys.Append(key);
        due_values.Append(value);
      });
      for (int64_t k = 0; k < due_keys.size(); ++k) {
        ARROW_ASSIGN_OR_RAISE(KeptState kept, Decode(due_values.row(k)));
        if (kept.timeout_ms == kNoTimestamp || kept.timeout_ms >= threshold) continue;
        ARROW_ASSIGN_OR_RAISE(auto key_scalar, DecodeKey(due_keys.row(k)));
        ARROW_RETURN_NOT_OK(
            Call(p, due_keys.row(k), key_scalar, no_rows, kept, /*timed_out=*/true));
      }
    }
    return arrow::Status::OK();
  }

  arrow::Result<KeptState> Load(const state::StateStore& store, std::string_view key) {
    auto value = store.Get(key);
    if (!value) return KeptState{};
    return Decode(*value);
  }

  arrow::Result<KeptState> Decode(std::string_view value) {
    ARROW_ASSIGN_OR_RAISE(auto decoder, types::RowDecoder::Make(value_types_, context_.eval.pool));
    ARROW_RETURN_NOT_OK(decoder->Append(value));
    ARROW_ASSIGN_OR_RAISE(auto columns, decoder->Finish());
    KeptState kept;
    if (columns[0]->IsValid(0)) {
      ARROW_ASSIGN_OR_RAISE(auto state, columns[0]->GetScalar(0));
      kept.state = std::static_pointer_cast<arrow::StructScalar>(state);
    }
    kept.timeout_ms = static_cast<const arrow::Int64Array&>(*columns[1]).Value(0);
    return kept;
  }

  arrow::Result<std::shared_ptr<arrow::StructScalar>> DecodeKey(std::string_view key) {
    ARROW_ASSIGN_OR_RAISE(auto decoder, types::RowDecoder::Make(key_types_, context_.eval.pool));
    ARROW_RETURN_NOT_OK(decoder->Append(key));
    ARROW_ASSIGN_OR_RAISE(auto columns, decoder->Finish());
    auto keys = std::make_shared<arrow::StructArray>(node_.key_type(), 1, columns);
    ARROW_ASSIGN_OR_RAISE(auto scalar, keys->GetScalar(0));
    return std::static_pointer_cast<arrow::StructScalar>(scalar);
  }

  /// Calls the function for one key and keeps what it did to the state.
  arrow::Status Call(int partition, std::string_view key,
                     const std::shared_ptr<arrow::StructScalar>& key_scalar,
                     const std::shared_ptr<arrow::RecordBatch>& rows, const KeptState& kept,
                     bool timed_out) {
    std::optional<int64_t> watermark;
    if (stateful_ != nullptr && stateful_->has_watermark) {
      watermark = stateful_->eviction_watermark_ms;
    }
    const int64_t now = stateful_ != nullptr ? stateful_->batch_timestamp_ms
                                             : context_.eval.batch_timestamp_us / 1000;
    GroupState state(kept.state, timed_out, node_.timeout(), now, watermark);
    ARROW_ASSIGN_OR_RAISE(auto emitted, node_.function()(key_scalar, rows, state));
    ARROW_RETURN_NOT_OK(Emit(emitted));
    if (stateful_ == nullptr) return arrow::Status::OK();
    state::StateStore& store = *stores_[partition];
    const int64_t timeout = state.timeout_timestamp_ms().value_or(kNoTimestamp);
    if (state.removed() && timeout == kNoTimestamp) {
      if (kept.state != nullptr || kept.timeout_ms != kNoTimestamp) {
        ARROW_RETURN_NOT_OK(store.Remove(key));
        ++removed_;
      }
      return arrow::Status::OK();
    }
    if (!state.updated() && !state.removed() && timeout == kept.timeout_ms) {
      return arrow::Status::OK();
    }
    std::shared_ptr<arrow::Array> state_column;
    const auto& state_type = value_types_[0];
    if (state.exists()) {
      if (!state.getOption()->type->Equals(*state_type)) {
        return SparkError("ILLEGAL_ARGUMENT",
                          "The state " + state.getOption()->type->ToString() +
                              " does not have the declared state schema " +
                              state_type->ToString() + ".");
      }
      ARROW_ASSIGN_OR_RAISE(state_column, arrow::MakeArrayFromScalar(*state.getOption(), 1));
    } else {
      ARROW_ASSIGN_OR_RAISE(state_column, arrow::MakeArrayOfNull(state_type, 1));
    }
    arrow::Int64Builder timeouts;
    ARROW_RETURN_NOT_OK(timeouts.Append(timeout));
    ARROW_ASSIGN_OR_RAISE(auto timeout_column, timeouts.Finish());
    std::string value;
    value_encoder_->EncodeRow({state_column, timeout_column}, 0, &value);
    ARROW_RETURN_NOT_OK(store.Put(key, value));
    ++updated_;
    return arrow::Status::OK();
  }

  arrow::Status Emit(const std::shared_ptr<arrow::RecordBatch>& rows) {
    ARROW_ASSIGN_OR_RAISE(
        auto checked,
        CheckedOutput(rows, *node_.output_schema(), schema_,
                      node_.is_map() ? "mapGroupsWithState" : "flatMapGroupsWithState"));
    if (checked != nullptr) Output(std::move(checked));
    return arrow::Status::OK();
  }

  arrow::Status CommitAndReport() {
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(
        num_partitions_, [&](int p) { return stores_[p]->Commit().status(); }));
    StateOperatorProgress progress;
    progress.operator_name = "flatMapGroupsWithState";
    progress.num_rows_dropped_by_watermark = dropped_late_;
    progress.num_shuffle_partitions = stateful_->num_partitions;
    progress.num_state_store_instances = num_partitions_;
    progress.num_rows_updated = updated_;
    progress.num_rows_removed = removed_;
    progress.all_updates_time_ms = update_ms_;
    for (int p = 0; p < num_partitions_; ++p) {
      auto metrics = stores_[p]->metrics();
      progress.num_rows_total += metrics.num_keys;
      progress.memory_used_bytes += metrics.memory_used_bytes;
      progress.commit_time_ms += metrics.commit_time_ms;
      for (const auto& [name, value] : metrics.custom_metrics) {
        progress.custom_metrics[name] += value;
      }
    }
    stateful_->Report(operator_id_, std::move(progress));
    return arrow::Status::OK();
  }

  const plan::FlatMapGroupsWithState& node_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  const StatefulContext* stateful_;
  std::shared_ptr<arrow::Schema> schema_;

  int64_t operator_id_ = 0;
  int num_partitions_ = 0;
  std::optional<StatePartitioner> partitioner_;  // none in a batch query
  std::vector<std::shared_ptr<arrow::DataType>> key_types_;
  std::vector<std::shared_ptr<arrow::DataType>> value_types_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  std::shared_ptr<const types::RowEncoder> value_encoder_;
  std::vector<std::unique_ptr<state::StateStore>> stores_;
  /// The keys called with rows in this batch: they do not time out in it.
  std::set<std::string> called_;

  int64_t dropped_late_ = 0;
  int64_t updated_ = 0;
  int64_t removed_ = 0;
  int64_t update_ms_ = 0;
};

}  // namespace

state::StateOperatorInfo GroupsWithStateInfo(const plan::FlatMapGroupsWithState& node,
                                             int64_t operator_id, int32_t num_partitions) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  info.operator_name = "flatMapGroupsWithState";
  info.num_partitions = num_partitions;
  arrow::FieldVector keys = node.key_type()->fields();
  arrow::FieldVector values{
      arrow::field("groupState",
                   std::make_shared<arrow::StructType>(node.state_schema()->fields())),
      arrow::field("timeoutTimestamp", arrow::int64(), false)};
  info.stores.push_back({"default", arrow::schema(keys), arrow::schema(values)});
  return info;
}

BatchStreamPtr MakeFlatMapGroupsWithState(const plan::FlatMapGroupsWithState& node,
                                          BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<GroupsWithStateStream>(node, std::move(input), context);
}

}  // namespace sluice::physical
