#include "sluice/physical/streaming_deduplicate.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <arrow/util/parallel.h>

#include "sluice/physical/filter_rows.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

using Deduplication = plan::Aggregate::Deduplication;

/// How the key columns are encoded: `encoded[i]` is the grouping key of encoded column i, and
/// `hash_order[i]` its place in the order the partitioner hashes them (Spark's); an empty
/// `hash_order` hashes them as encoded.
struct KeyLayout {
  std::vector<int> encoded;
  std::vector<int> hash_order;
};

/// The key layout a checkpoint written with `partitioning` uses. Since kSparkKeyOrder it is
/// Spark's: the grouping keys as they are (the subset's order, as Spark's Set orders it).
/// Before, the keys were in the order of the input's columns, with the event-time key of a
/// dropDuplicates moved first, and hashed in the columns' order.
KeyLayout LayoutOf(const plan::Aggregate& aggregate, StatePartitioning partitioning) {
  const size_t keys = aggregate.grouping().size();
  KeyLayout layout;
  layout.encoded.resize(keys);
  std::iota(layout.encoded.begin(), layout.encoded.end(), 0);
  if (partitioning >= StatePartitioning::kSparkKeyOrder) return layout;
  auto column_of = [&](int k) {
    return static_cast<const expr::BoundColumn&>(*aggregate.grouping()[k].expr).index();
  };
  std::sort(layout.encoded.begin(), layout.encoded.end(),
            [&](int a, int b) { return column_of(a) < column_of(b); });
  std::vector<int> by_column = layout.encoded;
  if (aggregate.deduplication() == Deduplication::kFirstRow) {
    if (auto event_key = aggregate.event_time_key()) {
      auto at = std::find(layout.encoded.begin(), layout.encoded.end(), *event_key);
      std::rotate(layout.encoded.begin(), at, at + 1);
    }
  }
  for (int k : layout.encoded) {
    layout.hash_order.push_back(static_cast<int>(
        std::find(by_column.begin(), by_column.end(), k) - by_column.begin()));
  }
  return layout;
}

/// The child column holding the event time, if any.
std::optional<int> EventTimeColumn(const plan::Aggregate& aggregate) {
  const auto& input = aggregate.children()[0]->output();
  for (size_t i = 0; i < input.size(); ++i) {
    if (input[i].event_time_delay_ms) return static_cast<int>(i);
  }
  return std::nullopt;
}

// The value kept with each key, in the row codec's layout of the value schema (see
// DeduplicateStateInfo): within the watermark, a bigint, when the key expires in microseconds
// (null when its row had no event time); otherwise the value Spark keeps, one null of type void.
constexpr std::string_view kNullValue("\0", 1);

std::string EncodeExpiry(int64_t micros) {
  std::string value(1 + sizeof(micros), '\1');
  std::memcpy(value.data() + 1, &micros, sizeof(micros));
  return value;
}

std::optional<int64_t> DecodeExpiry(std::string_view value) {
  int64_t micros;
  // Checkpoints written before the row codec's layout kept the 8 bytes alone.
  if (value.size() == sizeof(micros)) {
    std::memcpy(&micros, value.data(), sizeof(micros));
    return micros;
  }
  if (value.size() != 1 + sizeof(micros) || value[0] != 1) return std::nullopt;
  std::memcpy(&micros, value.data() + 1, sizeof(micros));
  return micros;
}

class StreamingDeduplicateStream final : public BatchStream {
 public:
  StreamingDeduplicateStream(const plan::Aggregate& plan, BatchStreamPtr input,
                             const ExecContext& context)
      : plan_(plan),
        input_(std::move(input)),
        context_(context),
        stateful_(*context.stateful) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (finished_) return nullptr;
    if (stores_.empty()) ARROW_RETURN_NOT_OK(Open());
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
      if (batch == nullptr) break;
      ARROW_ASSIGN_OR_RAISE(auto kept, Deduplicate(batch));
      if (kept->num_rows() > 0) return kept;
    }
    ARROW_RETURN_NOT_OK(EvictAndCommit());
    finished_ = true;
    return nullptr;
  }

 private:
  arrow::Status Open() {
    operator_id_ = stateful_.operator_ids->at(&plan_);
    num_partitions_ = stateful_.num_partitions;
    within_watermark_ = plan_.deduplication() == Deduplication::kWithinWatermark;
    KeyLayout layout = LayoutOf(plan_, stateful_.partitioning);
    key_order_ = layout.encoded;
    for (int k : key_order_) key_types_.push_back(plan_.grouping()[k].expr->type());
    if (!within_watermark_) {
      if (auto event_key = plan_.event_time_key()) {
        event_key_position_ = static_cast<int>(
            std::find(key_order_.begin(), key_order_.end(), *event_key) - key_order_.begin());
        event_key_is_window_ =
            plan_.grouping()[*event_key].expr->type()->id() == arrow::Type::STRUCT;
        event_key_seeker_.emplace(key_types_, *event_key_position_);
      }
    }
    event_time_column_ = EventTimeColumn(plan_);
    if (event_time_column_) {
      delay_micros_ =
          *plan_.children()[0]->output()[*event_time_column_].event_time_delay_ms * 1000;
    }
    ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types_, /*for_keys=*/true));
    partitioner_.emplace(key_types_, num_partitions_, stateful_.partitioning, layout.hash_order);
    stores_.resize(num_partitions_);
    removed_.assign(num_partitions_, 0);
    return arrow::internal::ParallelFor(num_partitions_, [&](int p) -> arrow::Status {
      state::StateStoreId id;
      id.operator_id = operator_id_;
      id.partition_id = p;
      ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_.providers->Get(id));
      ARROW_ASSIGN_OR_RAISE(stores_[p], provider->GetStore(stateful_.batch_id));
      return arrow::Status::OK();
    });
  }

  /// The rows of `batch` to emit: late rows and duplicates left out.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Deduplicate(
      const std::shared_ptr<arrow::RecordBatch>& batch) {
    int64_t start = SteadyMillis();
    const int64_t rows = batch->num_rows();
    arrow::ArrayVector keys;
    for (int k : key_order_) {
      ARROW_ASSIGN_OR_RAISE(auto key, expr::EvaluateToArray(*plan_.grouping()[k].expr, *batch,
                                                            context_.eval));
      keys.push_back(std::move(key));
    }
    EncodedRows encoded;
    if (rows > 0) key_encoder_->EncodeRows(keys, 0, rows, &encoded.bytes, &encoded.offsets);
    // Late rows are those whose event time (the watermarked column of the input, or the end of
    // a window over it) is at or below the late-events watermark, whether or not it is part
    // of the key (Spark's predicate is on the input rows).
    std::shared_ptr<arrow::Array> event_times;
    if (event_time_column_) {
      event_times = batch->column(*event_time_column_);
      if (event_times->type_id() == arrow::Type::STRUCT) {
        event_times = static_cast<const arrow::StructArray&>(*event_times).field(1);
      }
    }
    const int64_t* times =
        event_times ? event_times->data()->GetValues<int64_t>(1) : nullptr;
    const int64_t late_micros = stateful_.late_events_watermark_ms * 1000;
    std::vector<std::vector<int64_t>> rows_of(num_partitions_);
    for (int64_t i = 0; i < rows; ++i) {
      if (times && event_times->IsValid(i) && times[i] <= late_micros) {
        ++dropped_late_;
        continue;
      }
      rows_of[partitioner_->PartitionOf(encoded.row(i))].push_back(i);
    }
    std::vector<uint8_t> keep(rows, 0);
    std::vector<int64_t> updated(num_partitions_, 0);
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      state::StateStore& store = *stores_[p];
      for (int64_t i : rows_of[p]) {
        std::string_view key = encoded.row(i);
        if (store.Get(key)) continue;
        std::string value(kNullValue);
        if (within_watermark_ && times && event_times->IsValid(i)) {
          value = EncodeExpiry(times[i] + delay_micros_);
        }
        ARROW_RETURN_NOT_OK(store.Put(key, value));
        keep[i] = 1;
        ++updated[p];
      }
      return arrow::Status::OK();
    }));
    int64_t kept = 0;
    for (int64_t i = 0; i < rows; ++i) kept += keep[i];
    for (int64_t count : updated) updated_ += count;
    duplicates_ += rows - kept;
    arrow::BooleanBuilder mask_builder;
    ARROW_RETURN_NOT_OK(mask_builder.Reserve(rows));
    for (int64_t i = 0; i < rows; ++i) mask_builder.UnsafeAppend(keep[i] != 0);
    ARROW_ASSIGN_OR_RAISE(auto mask, mask_builder.Finish());
    ARROW_ASSIGN_OR_RAISE(auto filtered, FilterRows(batch, *mask, arrow::default_memory_pool()));
    update_ms_ += SteadyMillis() - start;
    return filtered;
  }

  bool Expired(std::string_view key, std::string_view value) const {
    const int64_t watermark_micros = stateful_.eviction_watermark_ms * 1000;
    std::optional<int64_t> time;
    if (event_key_position_) {
      time = EventTimeOfKey(key);
    } else if (within_watermark_) {
      time = DecodeExpiry(value);
    }
    return time && *time <= watermark_micros;
  }

  /// The event time of an encoded key: its column is found by skipping the ones before it.
  std::optional<int64_t> EventTimeOfKey(std::string_view key) const {
    auto value = event_key_seeker_->Find(key);
    if (!value) return std::nullopt;
    return EventTimeMicrosOfKey(*value, event_key_is_window_);
  }

  arrow::Status EvictAndCommit() {
    int64_t start = SteadyMillis();
    const bool evicts = event_key_position_.has_value() || within_watermark_;
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      state::StateStore& store = *stores_[p];
      if (evicts) {
        EncodedRows expired;
        store.ForEach([&](std::string_view key, std::string_view value) {
          if (Expired(key, value)) expired.Append(key);
        });
        // Keys the scan just showed: the store need not look them up.
        ARROW_RETURN_NOT_OK(store.RemoveHeld(Views(expired)));
        removed_[p] = expired.size();
      }
      return store.Commit().status();
    }));
    StateOperatorProgress progress;
    progress.operator_name = within_watermark_ ? "dedupeWithinWatermark" : "dedupe";
    progress.num_rows_dropped_by_watermark = dropped_late_;
    progress.num_shuffle_partitions = stateful_.num_partitions;
    progress.num_state_store_instances = num_partitions_;
    progress.num_rows_updated = updated_;
    progress.all_updates_time_ms = update_ms_;
    progress.all_removals_time_ms = SteadyMillis() - start;
    progress.custom_metrics["numDroppedDuplicateRows"] = duplicates_;
    for (int p = 0; p < num_partitions_; ++p) {
      auto metrics = stores_[p]->metrics();
      progress.num_rows_total += metrics.num_keys;
      progress.memory_used_bytes += metrics.memory_used_bytes;
      progress.commit_time_ms += metrics.commit_time_ms;
      for (const auto& [name, value] : metrics.custom_metrics) {
        progress.custom_metrics[name] += value;
      }
      progress.num_rows_removed += removed_[p];
    }
    stateful_.Report(operator_id_, std::move(progress));
    return arrow::Status::OK();
  }

  const plan::Aggregate& plan_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  const StatefulContext& stateful_;
  bool finished_ = false;

  int64_t operator_id_ = 0;
  int num_partitions_ = 1;
  bool within_watermark_ = false;
  /// Where the event-time key is among the encoded key columns (dropDuplicates with the
  /// event time in its key).
  std::optional<int> event_key_position_;
  /// Finds that key in an encoded key.
  std::optional<types::EncodedColumnSeeker> event_key_seeker_;
  bool event_key_is_window_ = false;
  std::optional<int> event_time_column_;
  int64_t delay_micros_ = 0;
  std::vector<int> key_order_;
  std::vector<std::shared_ptr<arrow::DataType>> key_types_;
  std::optional<StatePartitioner> partitioner_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  std::vector<std::unique_ptr<state::StateStore>> stores_;

  int64_t dropped_late_ = 0;
  int64_t duplicates_ = 0;
  int64_t updated_ = 0;
  int64_t update_ms_ = 0;
  std::vector<int64_t> removed_;
};

}  // namespace

state::StateOperatorInfo DeduplicateStateInfo(const plan::Aggregate& aggregate,
                                              int64_t operator_id, int32_t num_partitions,
                                              StatePartitioning partitioning) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  const bool within = aggregate.deduplication() == Deduplication::kWithinWatermark;
  info.operator_name = within ? "dedupeWithinWatermark" : "dedupe";
  info.num_partitions = num_partitions;
  arrow::FieldVector keys;
  for (int k : LayoutOf(aggregate, partitioning).encoded) {
    const auto& key = aggregate.grouping()[k];
    keys.push_back(arrow::field(key.name, key.expr->type(), key.expr->nullable()));
  }
  arrow::FieldVector values;
  if (within) {
    values.push_back(arrow::field("expiresAtMicros", arrow::int64()));
  } else {
    values.push_back(arrow::field("__dummy__", arrow::null()));
  }
  info.stores.push_back(
      {"default", arrow::schema(std::move(keys)), arrow::schema(std::move(values))});
  return info;
}

BatchStreamPtr MakeStreamingDeduplicate(const plan::Aggregate& aggregate, BatchStreamPtr input,
                                        const ExecContext& context) {
  return std::make_unique<StreamingDeduplicateStream>(aggregate, std::move(input), context);
}

}  // namespace sluice::physical
