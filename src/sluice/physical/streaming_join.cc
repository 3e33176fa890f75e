#include "sluice/physical/buffered_stream.h"
#include "sluice/physical/streaming_join.h"

#include <optional>

#include <arrow/array.h>
#include <arrow/array/util.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <arrow/util/future.h>
#include <arrow/util/parallel.h>
#include <arrow/util/thread_pool.h>

#include "sluice/common/start_ahead.h"
#include "sluice/common/take_strings.h"
#include "sluice/expr/bound_rewrite.h"
#include "sluice/physical/join_state_removal.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/plan/join_state_eviction.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

using plan::JoinSide;
using plan::JoinStateEviction;
using plan::JoinType;

constexpr int kLeft = 0;
constexpr int kRight = 1;
/// Rows of a side processed at a time (see Run). A slice's encoded values (16K rows of a few
/// hundred bytes) stay in the cache from their encoding to their put, and the batch thread and
/// the task putting the slice before take turns more evenly: q20 ran in 9.1-10.1 CPU-s with
/// 16K rows against 10.1-12.7 with 64K; 8K was no faster.
constexpr int64_t kRowsPerSlice = 16 * 1024;
/// From how many pairs a slice's matches are made on another core while its thread walks them.
constexpr size_t kPairsMadeAhead = 1024;

/// What one side of the join is, fixed for the query.
struct SideSpec {
  int side = kLeft;
  std::vector<expr::BoundExprPtr> keys;
  std::shared_ptr<arrow::Schema> schema;
  /// The schema's column types, as the row encoder takes them.
  std::vector<std::shared_ptr<arrow::DataType>> types;
  /// Encodes a kept row's value: the columns, then the matched flag as a boolean column
  /// (kFlagBytes), so a value is kept as encoded, its flag set in place.
  std::shared_ptr<const types::RowEncoder> value_encoder;
  /// The column whose event time makes a new row late, if any.
  std::optional<int> watermark_column;
  /// The conjuncts of the condition that read only this side, bound against left then right
  /// columns.
  std::vector<expr::BoundExprPtr> filters;
  /// Outer rows of this side are emitted (the left of a left or full outer join, ...).
  bool preserved = false;
  JoinStateEviction eviction;
};

/// The buffers a join fills anew in every slice of every batch, kept from batch to batch
/// (OperatorCarryOver) so that their memory is touched once: per side, as the sides' batches
/// differ in size, and per store partition, as partitions run in parallel.
struct JoinBuffers {
  struct Partition {
    EncodedRows lookups;     // the indexed keys of the other side's rows new rows may match
    EncodedRows candidates;  // and those rows' values
    // The indexed keys of the new rows kept: two, as JoinBuffers::Side's keys and values.
    EncodedRows kept_keys[2];
    RemovalBuffers removal;  // eviction
  };
  struct Side {
    // The new rows' keys, and their values as the state keeps them: two of each, as a slice's
    // rows are still being kept while the next slice is encoded (StreamingJoinStream::Keep).
    EncodedRows keys[2];
    EncodedRows values[2];
    EncodedRows flagged_values;  // the other side's rows the slice matched first, flagged
    std::vector<Partition> partitions;
  };
  Side sides[2];
};

/// A row the other side keeps that a new row may match: where it is kept and its bytes.
struct Candidate {
  int64_t row;        // the new row
  int32_t partition;  // of the key
  int64_t lookup;     // where the kept row's key is among its partition's lookups
};

// Which side a bound expression of the condition reads: -1 none, kLeft, kRight, 2 both.
int SideRead(const expr::BoundExpr& e, int num_left) {
  int side = -1;
  for (int column : expr::ColumnsRead(e)) {
    const int s = column < num_left ? kLeft : kRight;
    side = side == -1 || side == s ? s : 2;
  }
  return side;
}

/// The rows where every one of `conditions` is true (null counts as false) over `batch`.
arrow::Result<std::vector<uint8_t>> AllTrue(const std::vector<expr::BoundExprPtr>& conditions,
                                            const arrow::RecordBatch& batch,
                                            const expr::EvalContext& eval) {
  std::vector<uint8_t> pass(batch.num_rows(), 1);
  for (const auto& condition : conditions) {
    ARROW_ASSIGN_OR_RAISE(auto result, expr::EvaluateToArray(*condition, batch, eval));
    const auto& flags = static_cast<const arrow::BooleanArray&>(*result);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      pass[i] = pass[i] && flags.IsValid(i) && flags.Value(i);
    }
  }
  return pass;
}

class StreamingJoinStream final : public BufferedStream {
 public:
  StreamingJoinStream(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                      std::array<plan::ColumnMask, 2> stored, const ExecContext& context)
      : join_(join),
        stored_(std::move(stored)),
        type_(join.join_type()),
        schema_(expr::ToSchema(join.output())),
        context_(context),
        stateful_(*context.stateful) {
    inputs_[kLeft] = std::move(left);
    inputs_[kRight] = std::move(right);
  }

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

 private:
  arrow::Status Run() override {
    ARROW_RETURN_NOT_OK(Prepare());
    ARROW_RETURN_NOT_OK(OpenStores());
    for (int side : {kLeft, kRight}) {
      SliceReader slices(*inputs_[side], kRowsPerSlice, context_.eval.pool);
      int64_t start = SteadyMillis();
      // A side's rows go through in slices, each as its input produces it, so that the input
      // (a file scan) reads the next one meanwhile. Spark's join takes them one at a time: a
      // new row meets only the other side's state, and what it changes there (a matched
      // flag) the next slice reads back, so slices give the same result. A slice's buffers
      // are small enough to be reused by the next one; buffers for a whole batch took fresh
      // pages from the system at every batch.
      arrow::Status processed;
      while (true) {
        auto rows = slices.Next();
        if (!rows.ok()) processed = rows.status();
        if (!rows.ok() || *rows == nullptr) break;
        processed = ProcessSide(sides_[side], *rows);
        if (!processed.ok()) break;
      }
      // The other side's rows meet this side's state next: its last slice must be in it.
      const arrow::Status kept = FinishKeeping();
      ARROW_RETURN_NOT_OK(processed);
      ARROW_RETURN_NOT_OK(kept);
      update_ms_ += SteadyMillis() - start;
    }
    int64_t start = SteadyMillis();
    for (int side : {kLeft, kRight}) ARROW_RETURN_NOT_OK(Evict(sides_[side]));
    removal_ms_ = SteadyMillis() - start;
    return CommitAndReport();
  }

  arrow::Status Prepare() {
    operator_id_ = stateful_.operator_ids->at(&join_);
    num_partitions_ = stateful_.num_partitions;
    buffers_ = stateful_.CarriedOver<JoinBuffers>(operator_id_);
    for (auto& side : buffers_->sides) side.partitions.resize(num_partitions_);
    num_left_ = static_cast<int>(join_.children()[0]->output().size());
    std::vector<expr::BoundExprPtr> conjuncts;
    if (join_.residual()) expr::SplitConjuncts(join_.residual(), &conjuncts);
    std::vector<std::shared_ptr<arrow::DataType>> key_types;
    for (const auto& key : join_.left_keys()) key_types.push_back(key->type());
    ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types, /*for_keys=*/true));
    partitioner_.emplace(key_types, num_partitions_, stateful_.partitioning);
    key_types_ = key_types;
    for (int side : {kLeft, kRight}) {
      SideSpec& spec = sides_[side];
      spec.side = side;
      spec.keys = side == kLeft ? join_.left_keys() : join_.right_keys();
      spec.schema = inputs_[side]->schema();
      for (const auto& field : spec.schema->fields()) spec.types.push_back(field->type());
      auto value_types = spec.types;
      value_types.push_back(arrow::boolean());
      ARROW_ASSIGN_OR_RAISE(spec.value_encoder,
                            types::RowEncoder::Make(value_types, /*for_keys=*/false));
      const auto& output = join_.children()[side]->output();
      for (size_t c = 0; c < output.size(); ++c) {
        if (output[c].event_time_delay_ms) {
          spec.watermark_column = static_cast<int>(c);
          break;
        }
      }
      spec.preserved = side == kLeft ? type_ == JoinType::kLeftOuter || type_ == JoinType::kFullOuter
                                     : type_ == JoinType::kRightOuter || type_ == JoinType::kFullOuter;
      spec.eviction =
          plan::StateEvictionOf(join_, side == kLeft ? JoinSide::kLeft : JoinSide::kRight);
    }
    for (const auto& conjunct : conjuncts) {
      const int side = SideRead(*conjunct, num_left_);
      if (side == kLeft || side == kRight) {
        sides_[side].filters.push_back(conjunct);
      } else {
        pair_filters_.push_back(conjunct);
      }
    }
    return arrow::Status::OK();
  }

  arrow::Status OpenStores() {
    for (int side : {kLeft, kRight}) stores_[side].resize(num_partitions_);
    return arrow::internal::ParallelFor(num_partitions_, [&](int p) -> arrow::Status {
      for (int side : {kLeft, kRight}) {
        for (bool values : {false, true}) {
          state::StateStoreId id;
          id.operator_id = operator_id_;
          id.partition_id = p;
          id.store_name = StreamingJoinStoreName(side, values);
          ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_.providers->Get(id));
          ARROW_ASSIGN_OR_RAISE(auto store, provider->GetStore(stateful_.batch_id));
          (values ? stores_[side][p].values : stores_[side][p].counts) = std::move(store);
        }
      }
      return arrow::Status::OK();
    });
  }

  /// A batch of `rows` rows with `side`'s columns from `columns` and nulls for the other
  /// side's, in the join's column order (the input of the condition).
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> WithNullOtherSide(
      int side, const arrow::ArrayVector& columns, int64_t rows) const {
    arrow::ArrayVector all;
    arrow::FieldVector fields;
    for (int s : {kLeft, kRight}) {
      const auto& schema = *sides_[s].schema;
      for (int c = 0; c < schema.num_fields(); ++c) {
        fields.push_back(schema.field(c)->WithNullable(true));
        if (s == side) {
          all.push_back(columns[c]);
        } else {
          ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(schema.field(c)->type(), rows,
                                                                    context_.eval.pool));
          all.push_back(std::move(nulls));
        }
      }
    }
    return arrow::RecordBatch::Make(arrow::schema(fields), rows, std::move(all));
  }

  /// Emits the rows of `side` in `columns`, padded with nulls (or alone for a semi join).
  arrow::Status EmitOuter(int side, const arrow::ArrayVector& columns, int64_t rows) {
    if (rows == 0) return arrow::Status::OK();
    if (type_ == JoinType::kLeftSemi) {
      Output(arrow::RecordBatch::Make(schema_, rows, columns));
      return arrow::Status::OK();
    }
    ARROW_ASSIGN_OR_RAISE(auto padded, WithNullOtherSide(side, columns, rows));
    Output(arrow::RecordBatch::Make(schema_, rows, padded->columns()));
    return arrow::Status::OK();
  }

  /// The columns of `side`'s new rows as its state keeps them: nulls for those nothing reads.
  arrow::Result<arrow::ArrayVector> StoredColumns(int side, const arrow::RecordBatch& rows) const {
    arrow::ArrayVector columns = rows.columns();
    for (size_t c = 0; c < columns.size(); ++c) {
      if (stored_[side][c] || columns[c]->null_count() == columns[c]->length()) continue;
      ARROW_ASSIGN_OR_RAISE(columns[c], arrow::MakeArrayOfNull(columns[c]->type(),
                                                               rows.num_rows(),
                                                               context_.eval.pool));
    }
    return columns;
  }

  arrow::Result<arrow::ArrayVector> Decode(int side,
                                           const std::vector<std::string_view>& rows) const {
    ARROW_ASSIGN_OR_RAISE(auto decoder,
                          types::RowDecoder::Make(sides_[side].types, context_.eval.pool));
    ARROW_RETURN_NOT_OK(decoder->Reserve(static_cast<int64_t>(rows.size())));
    for (std::string_view row : rows) ARROW_RETURN_NOT_OK(decoder->Append(row));
    return decoder->Finish();
  }

  arrow::Result<arrow::ArrayVector> TakeRows(const arrow::RecordBatch& batch,
                                             const std::vector<int64_t>& rows) const {
    // Rows of a slice, or pairs of a slice's matches: below 2^32.
    const std::vector<uint32_t> indices(rows.begin(), rows.end());
    arrow::ArrayVector columns;
    for (const auto& column : batch.columns()) {
      ARROW_ASSIGN_OR_RAISE(auto taken, TakeColumn(*column, indices, context_.eval.pool));
      columns.push_back(std::move(taken));
    }
    return columns;
  }

  arrow::Status ProcessSide(const SideSpec& spec, const std::shared_ptr<arrow::RecordBatch>& rows) {
    const int64_t n = rows->num_rows();
    if (n == 0) return arrow::Status::OK();
    const int this_side = spec.side;
    const int other_side = 1 - this_side;
    const auto& eval = context_.eval;

    // Which rows take part: the optimizer's filters first on a side whose rows are not all
    // kept (its own conjuncts of the condition, and non-null keys), then late rows; a
    // preserved side's own conjuncts, failing, emit the row at once with nulls.
    arrow::ArrayVector keys;
    for (const auto& key : spec.keys) {
      ARROW_ASSIGN_OR_RAISE(auto array, expr::EvaluateToArray(*key, *rows, eval));
      keys.push_back(std::move(array));
    }
    std::vector<uint8_t> null_key(n, 0);
    for (size_t k = 0; k < keys.size(); ++k) {
      if (join_.null_safe()[k] || keys[k]->null_count() == 0) continue;
      for (int64_t i = 0; i < n; ++i) null_key[i] |= keys[k]->IsNull(i) ? 1 : 0;
    }
    std::vector<uint8_t> own_filter(n, 1);
    if (!spec.filters.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto input, WithNullOtherSide(this_side, rows->columns(), n));
      ARROW_ASSIGN_OR_RAISE(own_filter, AllTrue(spec.filters, *input, eval));
    }
    EventTimes late_times;
    if (spec.watermark_column) late_times = EventTimesOf(rows->column(*spec.watermark_column));
    const int64_t late_micros = stateful_.late_events_watermark_ms * 1000;
    std::vector<uint8_t> keep(n, 1);
    std::vector<int64_t> outer_now;
    for (int64_t i = 0; i < n; ++i) {
      if (!spec.preserved && (!own_filter[i] || null_key[i])) {
        keep[i] = 0;
        continue;
      }
      auto time = late_times[i];
      if (time && *time <= late_micros) {
        keep[i] = 0;
        ++dropped_late_;
        continue;
      }
      if (!own_filter[i]) {
        keep[i] = 0;
        outer_now.push_back(i);
      }
    }
    if (!outer_now.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto columns, TakeRows(*rows, outer_now));
      ARROW_RETURN_NOT_OK(EmitOuter(this_side, columns, static_cast<int64_t>(outer_now.size())));
    }

    JoinBuffers::Side& buffers = buffers_->sides[this_side];
    // The buffers the slice before did not take, as its rows may still be being kept.
    const int buffer = next_buffer_;
    next_buffer_ = 1 - next_buffer_;
    EncodedRows& encoded_keys = Refill(buffers.keys[buffer]);
    EncodedRows& encoded_values = Refill(buffers.values[buffer]);
    key_encoder_->EncodeRows(keys, 0, n, &encoded_keys.bytes, &encoded_keys.offsets);
    ARROW_ASSIGN_OR_RAISE(auto value_columns, StoredColumns(this_side, *rows));
    ARROW_ASSIGN_OR_RAISE(auto unmatched,
                          arrow::MakeArrayFromScalar(arrow::BooleanScalar(false), n, eval.pool));
    value_columns.push_back(std::move(unmatched));
    spec.value_encoder->EncodeRows(value_columns, 0, n, &encoded_values.bytes,
                                   &encoded_values.offsets);
    std::vector<std::vector<int64_t>> rows_of(num_partitions_);
    std::vector<int32_t> partition_of(n, 0);
    for (int64_t i = 0; i < n; ++i) {
      if (!keep[i]) continue;
      partition_of[i] = partitioner_->PartitionOf(encoded_keys.row(i));
      rows_of[partition_of[i]].push_back(i);
    }

    // The other side's kept rows under each new row's key.
    std::vector<std::vector<Candidate>> candidates(num_partitions_);
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      const SideStores& other = stores_[other_side][p];
      EncodedRows& indexed = Refill(buffers.partitions[p].lookups);
      EncodedRows& values = Refill(buffers.partitions[p].candidates);
      // How many rows the other side keeps under each key, then those rows, each looked up
      // in one pipelined pass.
      std::vector<int64_t> looked_up;
      std::vector<std::string_view> keys;
      for (int64_t i : rows_of[p]) {
        if (null_key[i]) continue;  // a null key never equals anything
        looked_up.push_back(i);
        keys.push_back(encoded_keys.row(i));
      }
      std::vector<int64_t> counts(keys.size(), 0);
      other.counts->GetMany(keys, [&](size_t k, std::string_view count) {
        counts[k] = ReadLong(count);
      });
      std::vector<Candidate> wanted;
      for (size_t k = 0; k < keys.size(); ++k) {
        for (int64_t index = 0; index < counts[k]; ++index) {
          wanted.push_back({looked_up[k], p, indexed.size()});
          AppendIndexedKey(keys[k], index, &indexed);
        }
      }
      other.values->GetMany(Views(indexed), [&](size_t c, std::string_view value) {
        candidates[p].push_back(wanted[c]);
        values.Append(value);
      });
      return arrow::Status::OK();
    }));

    // The pairs that satisfy the rest of the condition.
    std::vector<int64_t> this_rows;
    std::vector<std::string_view> other_rows;
    std::vector<const Candidate*> all;
    std::vector<std::string_view> all_values;
    for (int p = 0; p < num_partitions_; ++p) {
      for (size_t c = 0; c < candidates[p].size(); ++c) {
        all.push_back(&candidates[p][c]);
        all_values.push_back(buffers.partitions[p].candidates.row(static_cast<int64_t>(c)));
        this_rows.push_back(candidates[p][c].row);
        other_rows.push_back(RowOf(all_values.back()));
      }
    }
    std::shared_ptr<arrow::RecordBatch> pairs;
    auto make_pairs = [&]() -> arrow::Status {
      ARROW_ASSIGN_OR_RAISE(auto this_columns, TakeRows(*rows, this_rows));
      ARROW_ASSIGN_OR_RAISE(auto other_columns, Decode(other_side, other_rows));
      arrow::ArrayVector columns;
      arrow::FieldVector fields;
      for (int s : {kLeft, kRight}) {
        const auto& source = s == this_side ? this_columns : other_columns;
        const auto& schema = *sides_[s].schema;
        for (int c = 0; c < schema.num_fields(); ++c) {
          columns.push_back(source[c]);
          fields.push_back(schema.field(c));
        }
      }
      const auto count = static_cast<int64_t>(all.size());
      pairs = arrow::RecordBatch::Make(arrow::schema(fields), count, std::move(columns));
      return arrow::Status::OK();
    };
    std::vector<uint8_t> pass;
    std::optional<StartAhead> pairs_ahead;
    if (pair_filters_.empty() && all.size() >= kPairsMadeAhead) {
      // Every pair passes, and the walk below reads the other side's values, not the pairs'
      // columns: these are made meanwhile on another core, if one is free. A new auction of
      // q20 meets many kept bids; making their pairs was an eighth of the time its batches
      // ran on one core, and q20 runs 4-5% faster.
      pass.assign(all.size(), 1);
      pairs_ahead.emplace(make_pairs, arrow::internal::GetCpuThreadPool());
    } else if (!all.empty()) {
      ARROW_RETURN_NOT_OK(make_pairs());
      ARROW_ASSIGN_OR_RAISE(pass, AllTrue(pair_filters_, *pairs, eval));
    }

    // Walk the matches in order: emit, and note which rows matched.
    std::vector<uint8_t> matched(n, 0);
    std::vector<int64_t> semi_left_rows;                  // new left rows of a semi join
    EncodedRows semi_kept_rows;                           // kept left rows of a semi join
    // The kept rows matched for the first time, each once, in the order met, to flag after
    // the walk: their keys (views of the lookups' buffers; a key lies in one partition only),
    // partitions and flagged values.
    KeyIndex flagged(0);
    std::vector<int32_t> flagged_partitions;
    EncodedRows& flagged_values = Refill(buffers.flagged_values);
    std::vector<int64_t> matching_pairs;
    for (size_t c = 0; c < all.size(); ++c) {
      if (!pass[c]) continue;
      const Candidate& candidate = *all[c];
      const std::string_view value = all_values[c];
      const int64_t i = candidate.row;
      const bool first_match = !matched[i];
      matched[i] = 1;
      // Matched before this batch, or earlier in this walk (the index already numbers it).
      bool already = MatchedOf(value);
      if (!already) {
        const size_t flagged_before = flagged.keys().size();
        flagged.Insert(buffers.partitions[candidate.partition].lookups.row(candidate.lookup));
        already = flagged.keys().size() == flagged_before;
      }
      if (type_ == JoinType::kLeftSemi) {
        if (this_side == kLeft) {
          if (first_match) semi_left_rows.push_back(i);
        } else if (!already) {
          semi_kept_rows.Append(RowOf(value));
        }
      } else {
        matching_pairs.push_back(static_cast<int64_t>(c));
      }
      if (!already) {
        flagged_partitions.push_back(candidate.partition);
        AppendKeptRow(RowOf(value), /*matched=*/true, &flagged_values);
      }
    }
    // One pipelined put per partition: a put at a time waited on a miss of the slot and
    // another of the record, for every flagged row.
    std::vector<std::vector<std::string_view>> flagged_keys(num_partitions_);
    std::vector<std::vector<std::string_view>> flagged_rows(num_partitions_);
    for (size_t u = 0; u < flagged_partitions.size(); ++u) {
      flagged_keys[flagged_partitions[u]].push_back(flagged.keys()[u]);
      flagged_rows[flagged_partitions[u]].push_back(flagged_values.row(static_cast<int64_t>(u)));
    }
    for (int p = 0; p < num_partitions_; ++p) {
      if (flagged_keys[p].empty()) continue;
      ARROW_RETURN_NOT_OK(stores_[other_side][p].values->PutMany(flagged_keys[p], flagged_rows[p]));
    }

    if (pairs_ahead) ARROW_RETURN_NOT_OK(pairs_ahead->Finish());
    if (matching_pairs.size() == all.size() && !all.empty()) {
      // Every pair matched (an equi-join has no other condition): no copy of the columns.
      Output(arrow::RecordBatch::Make(schema_, pairs->num_rows(), pairs->columns()));
    } else if (!matching_pairs.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto columns, TakeRows(*pairs, matching_pairs));
      Output(arrow::RecordBatch::Make(schema_, static_cast<int64_t>(matching_pairs.size()),
                                      std::move(columns)));
    }
    if (!semi_left_rows.empty()) {
      ARROW_ASSIGN_OR_RAISE(auto columns, TakeRows(*rows, semi_left_rows));
      Output(arrow::RecordBatch::Make(
          schema_, static_cast<int64_t>(semi_left_rows.size()), std::move(columns)));
    }
    if (semi_kept_rows.size() > 0) {
      ARROW_ASSIGN_OR_RAISE(auto columns, Decode(kLeft, Views(semi_kept_rows)));
      Output(
          arrow::RecordBatch::Make(schema_, semi_kept_rows.size(), std::move(columns)));
    }
    // Keep the new rows as Spark does. A left row always: the right side's new rows are still
    // to meet it, even when this batch's eviction removes it; but not in a semi join once it
    // matched (it was emitted and must not be emitted again). A right row unless the state
    // watermark has already passed it, except an unmatched row of an outer join, which the
    // eviction emits.
    std::optional<int64_t> state_watermark;
    if (this_side == kRight) {
      state_watermark = spec.eviction.StateWatermarkMs(stateful_.eviction_watermark_ms);
    }
    EventTimes state_times;
    if (state_watermark) {
      state_times = EventTimesOf(spec.eviction.kind == JoinStateEviction::Kind::kByKey
                                     ? keys[spec.eviction.key_index]
                                     : rows->column(spec.eviction.value_column));
    }
    auto slice = std::make_shared<SliceToKeep>();
    slice->side = this_side;
    slice->partitions.resize(num_partitions_);
    // The keys' counts the last slice put, which this one reads.
    ARROW_RETURN_NOT_OK(FinishCounting());
    for (int p = 0; p < num_partitions_; ++p) {
      std::vector<int64_t> kept;
      for (int64_t i : rows_of[p]) {
        if (type_ == JoinType::kLeftSemi && this_side == kLeft && matched[i]) continue;
        const bool emitted_by_eviction = spec.preserved && !matched[i];
        if (state_watermark && !emitted_by_eviction) {
          auto time = state_times[i];
          if (time && *time <= *state_watermark * 1000) continue;
        }
        kept.push_back(i);
      }
      ARROW_RETURN_NOT_OK(CountKept(this_side, p, kept, encoded_keys, matched, encoded_values,
                                    &Refill(buffers.partitions[p].kept_keys[buffer]),
                                    &slice->partitions[p]));
    }
    return Keep(std::move(slice));
  }

  /// A slice's new rows to put in their side's stores: per partition, the count of each row's
  /// key once it is kept, and the rows' keys with their indexes and their values.
  struct SliceToKeep {
    int side = kLeft;
    struct Partition {
      std::vector<std::string_view> counted_keys;
      EncodedRows counts;
      std::vector<std::string_view> keys;
      std::vector<std::string_view> values;
    };
    std::vector<Partition> partitions;
  };

  /// Counts the `kept` rows of a slice that fall in partition `p` of `side`, in order, from
  /// the side's counts store, and gives each in `out` the count of its key to put, its key and
  /// index in `indexed` and the value to put, its matched flag set. As Spark appends a row,
  /// its value goes at the key's next index, and each row puts the key's count (the stores'
  /// change feeds list every put).
  arrow::Status CountKept(int side, int p, const std::vector<int64_t>& kept,
                          const EncodedRows& encoded_keys, const std::vector<uint8_t>& matched,
                          EncodedRows& encoded_values, EncodedRows* indexed,
                          SliceToKeep::Partition* out) {
    if (kept.empty()) return arrow::Status::OK();
    state::StateStore& counts_store = *stores_[side][p].counts;
    KeyIndex distinct(kept.size());
    std::vector<int32_t> key_of(kept.size());
    for (size_t k = 0; k < kept.size(); ++k) {
      key_of[k] = distinct.Insert(encoded_keys.row(kept[k]));
    }
    std::vector<int64_t> next_index(distinct.keys().size(), 0);
    counts_store.GetMany(distinct.keys(), [&](size_t id, std::string_view count) {
      next_index[id] = ReadLong(count);
    });
    EncodedRows& counts = out->counts;
    std::vector<std::string_view>& counted_keys = out->counted_keys;
    counted_keys.resize(kept.size());
    out->values.resize(kept.size());
    for (size_t k = 0; k < kept.size(); ++k) {
      const std::string_view key = distinct.keys()[key_of[k]];
      const int64_t index = next_index[key_of[k]]++;
      AppendIndexedKey(key, index, indexed);
      // The flag's value byte, the row's last, was encoded false.
      const int64_t i = kept[k];
      if (matched[i]) encoded_values.bytes[encoded_values.offsets[i + 1] - 1] = 1;
      out->values[k] = encoded_values.row(i);
      counted_keys[k] = key;
      counts.Append(EncodeLong(index + 1));
    }
    out->keys = Views(*indexed);
    updated_ += static_cast<int64_t>(kept.size());
    return arrow::Status::OK();
  }

  /// Puts the counts and the values of `slice` in their side's stores, a task per store of
  /// each partition, and returns without waiting for them, once those of the slice before are
  /// put. They are most of the work of keeping a slice: the next slice of the side reads and
  /// changes only the other side's stores, and reads this side's counts (FinishCounting waits
  /// for them first), so it is worked out meanwhile, on another core. FinishKeeping waits for
  /// them. The counts and the values of a slice are put at once: put one after the other by
  /// one task, q7's batches kept the second core busy about two thirds of the time.
  arrow::Status Keep(std::shared_ptr<SliceToKeep> slice) {
    ARROW_RETURN_NOT_OK(FinishKeeping());
    auto* pool = arrow::internal::GetCpuThreadPool();
    for (int p = 0; p < num_partitions_; ++p) {
      if (slice->partitions[p].keys.empty()) continue;
      auto counting = pool->Submit([this, slice, p] {
        const SliceToKeep::Partition& partition = slice->partitions[p];
        return stores_[slice->side][p].counts->PutMany(partition.counted_keys,
                                                       Views(partition.counts));
      });
      if (!counting.ok()) {
        ARROW_RETURN_NOT_OK(FinishKeeping());
        return counting.status();
      }
      counting_.push_back(*counting);
      keeping_.push_back(*std::move(counting));
      auto keeping = pool->Submit([this, slice, p] {
        const SliceToKeep::Partition& partition = slice->partitions[p];
        return stores_[slice->side][p].values->PutMany(partition.keys, partition.values);
      });
      if (!keeping.ok()) {
        ARROW_RETURN_NOT_OK(FinishKeeping());
        return keeping.status();
      }
      keeping_.push_back(*std::move(keeping));
    }
    return arrow::Status::OK();
  }

  /// Waits until the counts Keep was given are put.
  arrow::Status FinishCounting() {
    const arrow::Status status =
        counting_.empty() ? arrow::Status::OK() : arrow::AllFinished(counting_).status();
    counting_.clear();
    return status;
  }

  /// Waits until all Keep was given is put.
  arrow::Status FinishKeeping() {
    counting_.clear();
    const arrow::Status status =
        keeping_.empty() ? arrow::Status::OK() : arrow::AllFinished(keeping_).status();
    keeping_.clear();
    return status;
  }

  /// Removes the rows of `spec`'s side that the state watermark has passed; the unmatched ones
  /// of a preserved side are emitted with nulls.
  arrow::Status Evict(const SideSpec& spec) {
    auto state_watermark = spec.eviction.StateWatermarkMs(stateful_.eviction_watermark_ms);
    if (!state_watermark) return arrow::Status::OK();
    const int64_t watermark_micros = *state_watermark * 1000;
    const int side = spec.side;
    const RemovedSide removed_side{StreamingJoinStoreName(side, false), StreamingJoinStoreName(side, true), &spec.types,
                                   &key_types_, spec.eviction, spec.preserved};
    std::vector<RemovalBuffers*> buffers;
    for (auto& partition : buffers_->sides[side].partitions) buffers.push_back(&partition.removal);
    // With fewer partitions than threads, each partition's eviction runs on several.
    const int parts = arrow::internal::GetCpuThreadPool()->GetCapacity() / num_partitions_;
    std::vector<EncodedRows> unmatched;
    int64_t removed = 0;
    ARROW_RETURN_NOT_OK(RemoveExpiredRows(removed_side, watermark_micros, stores_[side], buffers,
                                          parts, &unmatched, &removed));
    // Spark counts the rows an outer join evicts from a preserved side as output, not as
    // removed state.
    if (!spec.preserved) removed_ += removed;
    for (const EncodedRows& rows : unmatched) {
      if (rows.size() == 0) continue;
      ARROW_ASSIGN_OR_RAISE(auto columns, Decode(side, Views(rows)));
      ARROW_RETURN_NOT_OK(EmitOuter(side, columns, rows.size()));
    }
    return arrow::Status::OK();
  }

  arrow::Status CommitAndReport() {
    // The four stores of each partition commit at once, each alone.
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(4 * num_partitions_, [&](int task) {
      const SideStores& stores = stores_[task % 2][task / 4];
      return (task / 2 % 2 == 0 ? stores.counts : stores.values)->Commit().status();
    }));
    StateOperatorProgress progress;
    progress.operator_name = "symmetricHashJoin";
    progress.num_rows_dropped_by_watermark = dropped_late_;
    progress.num_shuffle_partitions = stateful_.num_partitions;
    progress.num_state_store_instances = 4 * num_partitions_;
    progress.num_rows_updated = updated_;
    progress.num_rows_removed = removed_;
    progress.all_updates_time_ms = update_ms_;
    progress.all_removals_time_ms = removal_ms_;
    for (int p = 0; p < num_partitions_; ++p) {
      for (int side : {kLeft, kRight}) {
        for (const auto* store : {stores_[side][p].counts.get(), stores_[side][p].values.get()}) {
          auto metrics = store->metrics();
          // Each kept row once: the rows of keyWithIndexToValue.
          if (store == stores_[side][p].values.get()) progress.num_rows_total += metrics.num_keys;
          progress.memory_used_bytes += metrics.memory_used_bytes;
          progress.commit_time_ms += metrics.commit_time_ms;
          for (const auto& [name, value] : metrics.custom_metrics) {
            progress.custom_metrics[name] += value;
          }
        }
      }
    }
    stateful_.Report(operator_id_, std::move(progress));
    return arrow::Status::OK();
  }

  const plan::Join& join_;
  std::array<plan::ColumnMask, 2> stored_;  // per side, the columns its state keeps
  JoinType type_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr inputs_[2];
  const ExecContext& context_;
  const StatefulContext& stateful_;

  int64_t operator_id_ = 0;
  int num_partitions_ = 1;
  int num_left_ = 0;
  std::optional<StatePartitioner> partitioner_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  std::vector<std::shared_ptr<arrow::DataType>> key_types_;
  SideSpec sides_[2];
  std::vector<expr::BoundExprPtr> pair_filters_;
  std::vector<SideStores> stores_[2];
  std::shared_ptr<JoinBuffers> buffers_;
  /// Which of a side's two key and row buffers the next slice fills.
  int next_buffer_ = 0;
  /// The tasks putting the last slice's counts and values (Keep), and the counts' ends.
  std::vector<arrow::Future<>> keeping_;
  std::vector<arrow::Future<>> counting_;

  int64_t dropped_late_ = 0;
  int64_t updated_ = 0;
  int64_t removed_ = 0;
  int64_t update_ms_ = 0;
  int64_t removal_ms_ = 0;
};

}  // namespace

BatchStreamPtr MakeStreamingJoin(const plan::Join& join, BatchStreamPtr left, BatchStreamPtr right,
                                 std::array<plan::ColumnMask, 2> stored,
                                 const ExecContext& context) {
  return std::make_unique<StreamingJoinStream>(join, std::move(left), std::move(right),
                                               std::move(stored), context);
}

}  // namespace sluice::physical
