#include "sluice/physical/streaming_session_aggregate.h"

#include <algorithm>
#include <cstring>

#include <arrow/array/array_nested.h>
#include <arrow/util/parallel.h>

#include "sluice/physical/grouped_aggregation.h"
#include "sluice/physical/hash_aggregate.h"
#include "sluice/physical/int64_arrays.h"
#include "sluice/physical/session_window_merge.h"
#include "sluice/physical/partial_states.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

// The state of one key is the list of its open sessions:
//   u32 count, then per session: u32 length and a row (row_codec.h) of
//   (session start, session end, the partial state fields of every aggregate).
// A session row starts with the two non-null timestamps: flag byte, 8 bytes, flag byte,
// 8 bytes, which is where SpanOfRow reads them.

SessionSpan SpanOfRow(std::string_view row) {
  SessionSpan span;
  std::memcpy(&span.start, row.data() + 1, sizeof(int64_t));
  std::memcpy(&span.end, row.data() + 2 + sizeof(int64_t), sizeof(int64_t));
  return span;
}

void AppendU32(uint32_t value, std::string* out) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(value));
}

uint32_t ReadU32(std::string_view bytes, size_t at) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + at, sizeof(value));
  return value;
}

/// Calls `visit(row)` for each session row of a key's state value.
template <typename Visit>
arrow::Status ForEachSession(std::string_view value, Visit&& visit) {
  if (value.size() < 4) return arrow::Status::Invalid("A session state value is truncated");
  uint32_t count = ReadU32(value, 0);
  size_t at = 4;
  for (uint32_t i = 0; i < count; ++i) {
    if (value.size() < at + 4) return arrow::Status::Invalid("A session state value is truncated");
    uint32_t length = ReadU32(value, at);
    at += 4;
    if (value.size() < at + length || length < 2 + 2 * sizeof(int64_t)) {
      return arrow::Status::Invalid("A session state value is truncated");
    }
    ARROW_RETURN_NOT_OK(visit(value.substr(at, length)));
    at += length;
  }
  return arrow::Status::OK();
}

/// The grouping key that is the session window.
int SessionKeyOf(const plan::Aggregate& aggregate, const plan::MergeSessionWindows& merge) {
  const auto& grouping = aggregate.grouping();
  for (size_t k = 0; k < grouping.size(); ++k) {
    const auto& key = grouping[k].expr;
    if (key->kind() == expr::BoundKind::kColumn &&
        static_cast<const expr::BoundColumn&>(*key).index() == merge.session_column()) {
      return static_cast<int>(k);
    }
  }
  return -1;
}

class StreamingSessionAggregateStream final : public BatchStream {
 public:
  StreamingSessionAggregateStream(const plan::Aggregate& plan,
                                  const plan::MergeSessionWindows& merge, BatchStreamPtr input,
                                  const ExecContext& context)
      : plan_(plan),
        merge_(merge),
        schema_(expr::ToSchema(plan.output())),
        input_(std::move(input)),
        context_(context),
        stateful_(*context.stateful) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    ARROW_RETURN_NOT_OK(Prepare());
    const int64_t start_ms = SteadyMillis();

    // The batch's rows, aggregated per (key, own session).
    ARROW_ASSIGN_OR_RAISE(auto aggregation,
                          AggregateBatch(plan_, operator_id_, *input_, stateful_, context_.eval));
    const int64_t num_groups = aggregation->num_groups();
    ARROW_ASSIGN_OR_RAISE(auto group_keys, aggregation->GroupKeys());
    ARROW_ASSIGN_OR_RAISE(auto batch_states, ExportStates(aggregation->accumulators()));

    // Each group's key (the other grouping keys) and own session; late sessions dropped.
    EncodedRows group_key_rows;
    if (!other_keys_.empty() && num_groups > 0) {
      arrow::ArrayVector others;
      for (int k : other_keys_) others.push_back(group_keys[k]);
      key_encoder_->EncodeRows(others, 0, num_groups, &group_key_rows.bytes,
                               &group_key_rows.offsets);
    } else {
      group_key_rows.offsets.assign(num_groups + 1, 0);
    }
    std::vector<SessionSpan> group_spans(num_groups);
    if (num_groups > 0) {
      const auto& sessions = static_cast<const arrow::StructArray&>(*group_keys[session_key_]);
      const auto* starts = sessions.field(0)->data()->GetValues<int64_t>(1);
      const auto* ends = sessions.field(1)->data()->GetValues<int64_t>(1);
      for (int64_t g = 0; g < num_groups; ++g) group_spans[g] = {starts[g], ends[g]};
    }
    // Each key numbered in the order of its first group, and the groups of each key as ranges
    // of one array: a map node and a vector for every key took a tenth of Nexmark q11.
    KeyIndex key_index(static_cast<size_t>(num_groups));
    std::vector<int32_t> key_of_group(static_cast<size_t>(num_groups), -1);
    int64_t dropped = 0;
    for (int64_t g = 0; g < num_groups; ++g) {
      if (group_spans[g].end <= stateful_.late_events_watermark_ms * 1000) {
        ++dropped;
        continue;
      }
      key_of_group[g] = key_index.Insert(group_key_rows.row(g));
    }
    const std::vector<std::string_view>& key_of = key_index.keys();
    const size_t num_keys = key_of.size();
    const KeyGroups groups_of_key = GroupByKey(key_of_group, num_keys);
    std::vector<std::vector<uint32_t>> keys_of_partition(num_partitions_);
    for (uint32_t k = 0; k < num_keys; ++k) {
      keys_of_partition[partitioner_->PartitionOf(key_of[k])].push_back(k);
    }

    // The sessions each key keeps in state.
    std::vector<std::unique_ptr<state::StateStore>> stores(num_partitions_);
    std::vector<std::string> kept(num_keys);
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      state::StateStoreId id;
      id.operator_id = operator_id_;
      id.partition_id = p;
      ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_.providers->Get(id));
      ARROW_ASSIGN_OR_RAISE(stores[p], provider->GetStore(stateful_.batch_id));
      for (uint32_t k : keys_of_partition[p]) {
        if (auto value = stores[p]->Get(key_of[k])) kept[k].assign(*value);
      }
      return arrow::Status::OK();
    }));

    // Every session of every key, kept and new, sorted by (key, start), then merged. Built key
    // by key, each key's few sessions sorted by span: sorting all of them at once took a sixth
    // of a session query's time. Stable: a kept session comes before a new one of the same
    // span, and new ones in the order of their groups.
    struct Piece {
      uint32_t key;
      SessionSpan span;
      int64_t kept_row;  // row of the decoded kept sessions, or -1
      int64_t group;     // batch group, or -1
    };
    auto earlier = [](const Piece& a, const Piece& b) {
      if (a.span.start != b.span.start) return a.span.start < b.span.start;
      return a.span.end < b.span.end;
    };
    // Room for every piece up front: growing the vector moved them all, 4% of Nexmark q11.
    size_t kept_sessions = 0;
    for (const std::string& sessions : kept) {
      if (sessions.size() >= 4) kept_sessions += ReadU32(sessions, 0);
    }
    std::vector<Piece> pieces;
    pieces.reserve(static_cast<size_t>(num_groups) + kept_sessions);
    int64_t kept_rows = 0;
    for (uint32_t k = 0; k < num_keys; ++k) {
      const auto first = static_cast<std::ptrdiff_t>(pieces.size());
      if (!kept[k].empty()) {
        ARROW_RETURN_NOT_OK(ForEachSession(kept[k], [&](std::string_view row) -> arrow::Status {
          pieces.push_back({k, SpanOfRow(row), kept_rows++, -1});
          return value_decoder_->Append(row);
        }));
      }
      for (size_t i = groups_of_key.starts[k]; i < groups_of_key.starts[k + 1]; ++i) {
        const uint32_t g = groups_of_key.members[i];
        pieces.push_back({k, group_spans[g], -1, g});
      }
      const auto key_pieces = pieces.begin() + first;
      if (pieces.end() - key_pieces > 16) {
        std::stable_sort(key_pieces, pieces.end(), earlier);
        continue;
      }
      // Insertion: std::stable_sort allocates a buffer on each call, most keys have one piece.
      for (auto it = key_pieces + 1; it < pieces.end(); ++it) {
        Piece piece = *it;
        auto at = it;
        for (; at > key_pieces && earlier(piece, *(at - 1)); --at) *at = *(at - 1);
        *at = piece;
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto kept_columns, value_decoder_->Finish());
    std::vector<uint32_t> piece_keys;
    std::vector<SessionSpan> piece_spans;
    piece_keys.reserve(pieces.size());
    piece_spans.reserve(pieces.size());
    for (const auto& piece : pieces) {
      piece_keys.push_back(piece.key);
      piece_spans.push_back(piece.span);
    }
    ARROW_ASSIGN_OR_RAISE(auto merged, MergeSortedSessions(piece_keys, piece_spans));
    const int64_t num_sessions = static_cast<int64_t>(merged.sessions.size());
    std::vector<uint32_t> key_of_session(num_sessions);
    // Late groups fold into one extra session that is never written.
    const uint32_t discard = static_cast<uint32_t>(num_sessions);
    std::vector<uint32_t> session_of_kept(kept_rows), session_of_group(num_groups, discard);
    for (size_t i = 0; i < pieces.size(); ++i) {
      const auto session = static_cast<uint32_t>(merged.session_of[i]);
      key_of_session[session] = pieces[i].key;
      if (pieces[i].kept_row >= 0) session_of_kept[pieces[i].kept_row] = session;
      if (pieces[i].group >= 0) session_of_group[pieces[i].group] = session;
    }
    ARROW_ASSIGN_OR_RAISE(auto accumulators,
                          MakeAccumulators(plan_, num_sessions + 1, context_.eval.pool));
    if (kept_rows > 0) {
      arrow::ArrayVector kept_states(kept_columns.begin() + 2, kept_columns.end());
      ARROW_RETURN_NOT_OK(
          MergeStates(plan_, session_of_kept, kept_states, &accumulators, context_.eval));
    }
    ARROW_RETURN_NOT_OK(
        MergeStates(plan_, session_of_group, batch_states, &accumulators, context_.eval));

    // The merged sessions as rows of (start, end, states).
    EncodedRows session_rows;
    if (num_sessions > 0) {
      ARROW_ASSIGN_OR_RAISE(auto rows, SessionRows(merged.sessions, accumulators));
      session_rows = std::move(rows);
    }
    // The pieces were merged key by key: a key's sessions are consecutive.
    std::vector<int64_t> first_session_of_key(num_keys + 1, 0);
    for (int64_t s = 0; s < num_sessions; ++s) {
      if (s > 0 && key_of_session[s] < key_of_session[s - 1]) {
        return arrow::Status::Invalid("Merged sessions out of key order");
      }
      ++first_session_of_key[key_of_session[s] + 1];
    }
    for (size_t k = 0; k < num_keys; ++k) first_session_of_key[k + 1] += first_session_of_key[k];

    // Each partition writes its keys' sessions, emits what the mode asks, and commits.
    const bool append = stateful_.output_mode == plan::OutputMode::kAppend;
    const int64_t eviction_micros = stateful_.eviction_watermark_ms * 1000;
    std::vector<EncodedRows> out_keys(num_partitions_), out_rows(num_partitions_);
    std::vector<int64_t> updated(num_partitions_, 0), removed(num_partitions_, 0),
        total(num_partitions_, 0);
    ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(num_partitions_, [&](int p) {
      state::StateStore& store = *stores[p];
      for (uint32_t k : keys_of_partition[p]) {
        std::string value;
        uint32_t count = 0;
        AppendU32(0, &value);
        for (int64_t s = first_session_of_key[k]; s < first_session_of_key[k + 1]; ++s) {
          std::string_view row = session_rows.row(s);
          if (append && merged.sessions[s].end <= eviction_micros) {
            // Final already: emitted and evicted without being stored, but counted as
            // Spark counts it, written and then removed.
            out_keys[p].Append(key_of[k]);
            out_rows[p].Append(row);
            ++updated[p];
            ++removed[p];
            continue;
          }
          AppendU32(static_cast<uint32_t>(row.size()), &value);
          value.append(row);
          ++count;
        }
        std::memcpy(value.data(), &count, sizeof(count));
        if (count == 0) {
          ARROW_RETURN_NOT_OK(store.Remove(key_of[k]));
        } else {
          ARROW_RETURN_NOT_OK(store.Put(key_of[k], value));
        }
        updated[p] += count;
      }
      // Sessions of keys this batch did not touch: evicted in append mode, emitted in
      // complete mode.
      std::vector<std::string> expired_keys;
      arrow::Status status;
      store.ForEach([&](std::string_view key, std::string_view value) {
        int64_t remaining = 0;
        status &= ForEachSession(value, [&](std::string_view row) -> arrow::Status {
          if (!append) {
            out_keys[p].Append(key);
            out_rows[p].Append(row);
          } else if (SpanOfRow(row).end <= eviction_micros) {
            out_keys[p].Append(key);
            out_rows[p].Append(row);
            ++removed[p];
            expired_keys.emplace_back(key);
            return arrow::Status::OK();
          }
          ++remaining;
          return arrow::Status::OK();
        });
        total[p] += remaining;
      });
      ARROW_RETURN_NOT_OK(status);
      ARROW_RETURN_NOT_OK(RewriteExpired(store, expired_keys, eviction_micros));
      return store.Commit().status();
    }));

    StateOperatorProgress progress;
    progress.operator_name = "sessionWindowStateStoreSaveExec";
    progress.num_rows_dropped_by_watermark = dropped;
    progress.num_shuffle_partitions = stateful_.num_partitions;
    progress.num_state_store_instances = num_partitions_;
    progress.all_updates_time_ms = SteadyMillis() - start_ms;
    for (int p = 0; p < num_partitions_; ++p) {
      auto metrics = stores[p]->metrics();
      progress.num_rows_total += total[p];
      progress.num_rows_updated += updated[p];
      progress.num_rows_removed += removed[p];
      progress.memory_used_bytes += metrics.memory_used_bytes;
      progress.commit_time_ms += metrics.commit_time_ms;
      for (const auto& [name, value] : metrics.custom_metrics) {
        progress.custom_metrics[name] += value;
      }
    }
    stateful_.Report(operator_id_, std::move(progress));
    return OutputOf(out_keys, out_rows);
  }

 private:
  arrow::Status Prepare() {
    operator_id_ = stateful_.operator_ids->at(&plan_);
    session_key_ = SessionKeyOf(plan_, merge_);
    if (session_key_ < 0) {
      return arrow::Status::Invalid("The session window is not a grouping key of ",
                                    plan_.Describe());
    }
    std::vector<std::shared_ptr<arrow::DataType>> key_types;
    for (size_t k = 0; k < plan_.grouping().size(); ++k) {
      if (static_cast<int>(k) == session_key_) continue;
      other_keys_.push_back(static_cast<int>(k));
      key_types.push_back(plan_.grouping()[k].expr->type());
    }
    num_partitions_ = other_keys_.empty() ? 1 : stateful_.num_partitions;
    if (!key_types.empty()) {
      ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types, /*for_keys=*/true));
      ARROW_ASSIGN_OR_RAISE(key_decoder_,
                            types::RowDecoder::Make(key_types, context_.eval.pool));
    }
    // Spark partitions a session aggregation by its other keys: a key's sessions merge.
    partitioner_.emplace(key_types, num_partitions_, stateful_.partitioning);
    session_type_ = plan_.grouping()[session_key_].expr->type();
    const auto& time_type = session_type_->field(0)->type();
    std::vector<std::shared_ptr<arrow::DataType>> value_types{time_type, time_type};
    for (const auto& field : StateFields(plan_)) value_types.push_back(field->type());
    ARROW_ASSIGN_OR_RAISE(value_encoder_,
                          types::RowEncoder::Make(value_types, /*for_keys=*/false));
    ARROW_ASSIGN_OR_RAISE(value_decoder_,
                          types::RowDecoder::Make(value_types, context_.eval.pool));
    return arrow::Status::OK();
  }

  /// Drops the sessions the watermark closed from the keys in `keys`.
  arrow::Status RewriteExpired(state::StateStore& store, const std::vector<std::string>& keys,
                               int64_t eviction_micros) {
    std::string previous;
    for (const auto& key : keys) {
      if (key == previous) continue;  // one visit per session; rewrite each key once
      previous = key;
      auto value = store.Get(key);
      if (!value) continue;
      std::string kept;
      uint32_t count = 0;
      AppendU32(0, &kept);
      ARROW_RETURN_NOT_OK(ForEachSession(*value, [&](std::string_view row) {
        if (SpanOfRow(row).end > eviction_micros) {
          AppendU32(static_cast<uint32_t>(row.size()), &kept);
          kept.append(row);
          ++count;
        }
        return arrow::Status::OK();
      }));
      std::memcpy(kept.data(), &count, sizeof(count));
      if (count == 0) {
        ARROW_RETURN_NOT_OK(store.Remove(key));
      } else {
        ARROW_RETURN_NOT_OK(store.Put(key, kept));
      }
    }
    return arrow::Status::OK();
  }

  /// The rows (start, end, states) of the merged sessions.
  arrow::Result<EncodedRows> SessionRows(
      const std::vector<SessionSpan>& sessions,
      const Accumulators& accumulators) const {
    const auto& time_type = session_type_->field(0)->type();
    arrow::ArrayVector columns;
    for (int bound = 0; bound < 2; ++bound) {
      std::vector<int64_t> times;
      for (const auto& span : sessions) times.push_back(bound == 0 ? span.start : span.end);
      columns.push_back(Int64ArrayOf(std::move(times), time_type));
    }
    ARROW_ASSIGN_OR_RAISE(auto states, ExportStates(accumulators));
    columns.insert(columns.end(), states.begin(), states.end());
    EncodedRows rows;
    value_encoder_->EncodeRows(columns, 0, static_cast<int64_t>(sessions.size()), &rows.bytes,
                               &rows.offsets);
    return rows;
  }

  /// The output rows of the emitted (key, session row) pairs.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> OutputOf(
      const std::vector<EncodedRows>& keys, const std::vector<EncodedRows>& rows) {
    int64_t count = 0;
    for (const auto& partition_keys : keys) count += partition_keys.size();
    if (key_decoder_) ARROW_RETURN_NOT_OK(key_decoder_->Reserve(count));
    ARROW_RETURN_NOT_OK(value_decoder_->Reserve(count));
    for (size_t p = 0; p < keys.size(); ++p) {
      for (int64_t i = 0; i < keys[p].size(); ++i) {
        if (key_decoder_) ARROW_RETURN_NOT_OK(key_decoder_->Append(keys[p].row(i)));
        ARROW_RETURN_NOT_OK(value_decoder_->Append(rows[p].row(i)));
      }
    }
    arrow::ArrayVector group_keys(plan_.grouping().size());
    if (key_decoder_) {
      ARROW_ASSIGN_OR_RAISE(auto others, key_decoder_->Finish());
      for (size_t i = 0; i < other_keys_.size(); ++i) group_keys[other_keys_[i]] = others[i];
    }
    ARROW_ASSIGN_OR_RAISE(auto columns, value_decoder_->Finish());
    ARROW_ASSIGN_OR_RAISE(
        group_keys[session_key_],
        arrow::StructArray::Make({columns[0], columns[1]}, session_type_->fields()));
    arrow::ArrayVector states(columns.begin() + 2, columns.end());
    ARROW_ASSIGN_OR_RAISE(auto values, FinalizeStates(plan_, states, count, context_.eval));
    return AggregateOutput(plan_, group_keys, values, count, context_);
  }

  const plan::Aggregate& plan_;
  const plan::MergeSessionWindows& merge_;
  std::shared_ptr<arrow::Schema> schema_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  const StatefulContext& stateful_;
  bool done_ = false;

  int64_t operator_id_ = 0;
  int num_partitions_ = 1;
  int session_key_ = -1;
  std::vector<int> other_keys_;
  std::optional<StatePartitioner> partitioner_;
  std::shared_ptr<arrow::DataType> session_type_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  std::unique_ptr<types::RowDecoder> key_decoder_;
  std::shared_ptr<const types::RowEncoder> value_encoder_;
  std::unique_ptr<types::RowDecoder> value_decoder_;
};

}  // namespace

state::StateOperatorInfo SessionAggregateStateInfo(const plan::Aggregate& aggregate,
                                                   const plan::MergeSessionWindows& merge,
                                                   int64_t operator_id,
                                                   int32_t num_partitions) {
  state::StateOperatorInfo info;
  info.operator_id = operator_id;
  info.operator_name = "sessionWindowStateStoreSaveExec";
  const int session_key = SessionKeyOf(aggregate, merge);
  arrow::FieldVector keys;
  for (size_t k = 0; k < aggregate.grouping().size(); ++k) {
    if (static_cast<int>(k) == session_key) continue;
    const auto& key = aggregate.grouping()[k];
    keys.push_back(arrow::field(key.name, key.expr->type(), key.expr->nullable()));
  }
  info.num_partitions = keys.empty() ? 1 : num_partitions;
  arrow::FieldVector values;
  if (session_key >= 0) {
    const auto& session = aggregate.grouping()[session_key];
    values.push_back(arrow::field(session.name, session.expr->type(), false));
  }
  for (const auto& field : StateFields(aggregate)) values.push_back(field);
  info.stores.push_back(
      {"default", arrow::schema(std::move(keys)), arrow::schema(std::move(values))});
  return info;
}

BatchStreamPtr MakeStreamingSessionAggregate(const plan::Aggregate& aggregate,
                                             const plan::MergeSessionWindows& merge,
                                             BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<StreamingSessionAggregateStream>(aggregate, merge, std::move(input),
                                                           context);
}

}  // namespace sluice::physical
