#include "sluice/physical/session_window_merge_operator.h"

#include <algorithm>
#include <numeric>

#include <arrow/array.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>
#include <arrow/table.h>

#include "sluice/expr/key_grouper.h"
#include "sluice/physical/session_window_merge.h"

namespace sluice::physical {

namespace {

// The rows' sessions from the session column; every start and end must be set, which the
// filter the API puts below this operator guarantees.
arrow::Result<std::vector<SessionSpan>> ReadSpans(const arrow::StructArray& sessions,
                                                  const std::string& column,
                                                  arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto starts, sessions.GetFlattenedField(0, pool));
  ARROW_ASSIGN_OR_RAISE(auto ends, sessions.GetFlattenedField(1, pool));
  if (starts->null_count() != 0 || ends->null_count() != 0) {
    return arrow::Status::Invalid("MergeSessionWindows: session column '", column,
                                  "' has a row without a start or an end");
  }
  const auto& start_values = static_cast<const arrow::TimestampArray&>(*starts);
  const auto& end_values = static_cast<const arrow::TimestampArray&>(*ends);
  std::vector<SessionSpan> spans(sessions.length());
  for (int64_t i = 0; i < sessions.length(); ++i) {
    spans[i] = {start_values.Value(i), end_values.Value(i)};
  }
  return spans;
}

// A timestamp array of `values`, without nulls.
arrow::Result<std::shared_ptr<arrow::Array>> TimestampColumn(
    const std::shared_ptr<arrow::DataType>& type, std::vector<int64_t> values,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto buffer,
                        arrow::AllocateBuffer(static_cast<int64_t>(values.size() *
                                                                   sizeof(int64_t)),
                                              pool));
  std::copy(values.begin(), values.end(), reinterpret_cast<int64_t*>(buffer->mutable_data()));
  return arrow::MakeArray(arrow::ArrayData::Make(type, static_cast<int64_t>(values.size()),
                                                 {nullptr, std::move(buffer)}, 0));
}

class MergeSessionWindowsStream final : public BatchStream {
 public:
  MergeSessionWindowsStream(const plan::MergeSessionWindows& node, BatchStreamPtr input,
                            const ExecContext& context)
      : node_(node), input_(std::move(input)), context_(context) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    arrow::MemoryPool* pool = context_.eval.pool;
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*input_));
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch(pool));
    const int64_t num_rows = batch->num_rows();
    if (num_rows == 0) return batch;

    ARROW_ASSIGN_OR_RAISE(auto key_ids, KeyIds(*batch));
    const int column = node_.session_column();
    const auto& sessions = static_cast<const arrow::StructArray&>(*batch->column(column));
    ARROW_ASSIGN_OR_RAISE(auto spans,
                          ReadSpans(sessions, batch->schema()->field(column)->name(), pool));

    // Rows in (key, start, end) order, the order the merging step needs and the order in
    // which Spark's aggregation meets a session's rows (collect_list, first show it).
    std::vector<int64_t> order(num_rows);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      if (key_ids[a] != key_ids[b]) return key_ids[a] < key_ids[b];
      if (spans[a].start != spans[b].start) return spans[a].start < spans[b].start;
      return spans[a].end < spans[b].end;
    });
    std::vector<uint32_t> sorted_keys(num_rows);
    std::vector<SessionSpan> sorted_spans(num_rows);
    for (int64_t i = 0; i < num_rows; ++i) {
      sorted_keys[i] = key_ids[order[i]];
      sorted_spans[i] = spans[order[i]];
    }
    ARROW_ASSIGN_OR_RAISE(auto merged, MergeSortedSessions(sorted_keys, sorted_spans));

    std::vector<int64_t> starts(num_rows);
    std::vector<int64_t> ends(num_rows);
    for (int64_t i = 0; i < num_rows; ++i) {
      const SessionSpan& session = merged.sessions[merged.session_of[i]];
      starts[i] = session.start;
      ends[i] = session.end;
    }
    arrow::Int64Builder indices(pool);
    ARROW_RETURN_NOT_OK(indices.AppendValues(order));
    ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
    ARROW_ASSIGN_OR_RAISE(auto sorted, arrow::compute::Take(arrow::Datum(batch),
                                                            arrow::Datum(index_array)));
    const auto& sorted_batch = sorted.record_batch();
    const auto& type = sessions.type();
    ARROW_ASSIGN_OR_RAISE(auto start_array,
                          TimestampColumn(type->field(0)->type(), std::move(starts), pool));
    ARROW_ASSIGN_OR_RAISE(auto end_array,
                          TimestampColumn(type->field(1)->type(), std::move(ends), pool));
    auto merged_column = std::make_shared<arrow::StructArray>(
        type, num_rows, arrow::ArrayVector{std::move(start_array), std::move(end_array)});
    return sorted_batch->SetColumn(column, batch->schema()->field(column),
                                   std::move(merged_column));
  }

 private:
  // The group id of every row's keys; a single group without keys.
  arrow::Result<std::vector<uint32_t>> KeyIds(const arrow::RecordBatch& batch) const {
    std::vector<uint32_t> ids(batch.num_rows(), 0);
    if (node_.keys().empty()) return ids;
    arrow::ArrayVector keys;
    std::vector<std::shared_ptr<arrow::DataType>> types;
    for (const auto& key : node_.keys()) {
      ARROW_ASSIGN_OR_RAISE(auto values, expr::EvaluateToArray(*key, batch, context_.eval));
      types.push_back(values->type());
      keys.push_back(std::move(values));
    }
    ARROW_ASSIGN_OR_RAISE(auto grouper, expr::KeyGrouper::Make(std::move(types),
                                                                context_.eval.pool));
    ARROW_RETURN_NOT_OK(grouper->Consume(keys, batch.num_rows(), &ids));
    return ids;
  }

  const plan::MergeSessionWindows& node_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  bool done_ = false;
};

}  // namespace

BatchStreamPtr MakeMergeSessionWindows(const plan::MergeSessionWindows& node,
                                       BatchStreamPtr input, const ExecContext& context) {
  return std::make_unique<MergeSessionWindowsStream>(node, std::move(input), context);
}

}  // namespace sluice::physical
