#include "sluice/physical/window_operator.h"

#include <arrow/builder.h>
#include <arrow/compute/api.h>
#include <arrow/table.h>

#include "sluice/expr/attribute.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/physical/sort_indices.h"
#include "sluice/physical/window_frames.h"

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;

// Dense ids of the distinct tuples of `keys` (null and NaN grouped as Spark groups them).
arrow::Result<std::vector<uint32_t>> KeyIds(const arrow::ArrayVector& keys, int64_t num_rows,
                                            arrow::MemoryPool* pool) {
  std::vector<uint32_t> ids;
  if (keys.empty()) {
    ids.assign(num_rows, 0);
    return ids;
  }
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& key : keys) types.push_back(key->type());
  ARROW_ASSIGN_OR_RAISE(auto grouper, expr::KeyGrouper::Make(std::move(types), pool));
  ARROW_RETURN_NOT_OK(grouper->Consume(keys, num_rows, &ids));
  return ids;
}

arrow::Result<std::shared_ptr<arrow::Array>> IdArray(const std::vector<uint32_t>& ids,
                                                     arrow::MemoryPool* pool) {
  arrow::UInt32Builder builder(pool);
  ARROW_RETURN_NOT_OK(builder.AppendValues(ids));
  return builder.Finish();
}

// The runs of equal ids of consecutive rows: each row's first row and one past its last.
void Runs(const std::vector<uint32_t>& ids, std::vector<int64_t>* begin,
          std::vector<int64_t>* end) {
  const int64_t n = static_cast<int64_t>(ids.size());
  begin->resize(n);
  end->resize(n);
  int64_t start = 0;
  for (int64_t i = 1; i <= n; ++i) {
    if (i == n || ids[i] != ids[i - 1]) {
      for (int64_t j = start; j < i; ++j) {
        (*begin)[j] = start;
        (*end)[j] = i;
      }
      start = i;
    }
  }
}

class WindowStream final : public BatchStream {
 public:
  WindowStream(const plan::Window& window, BatchStreamPtr input, const ExecContext& context)
      : window_(window),
        input_(std::move(input)),
        context_(context),
        schema_(expr::ToSchema(window.output())) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    if (done_) return nullptr;
    done_ = true;
    const auto& eval = context_.eval;
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*input_));
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch(eval.pool));
    const int64_t n = batch->num_rows();
    if (n == 0) return nullptr;

    // Partitions are numbered in order of first appearance and the rows sorted by
    // (partition, order keys), so each partition and each peer group is a run of rows.
    arrow::ArrayVector partition_keys;
    for (const auto& key : window_.partition_keys()) {
      ARROW_ASSIGN_OR_RAISE(auto values, expr::EvaluateToArray(*key, *batch, eval));
      partition_keys.push_back(std::move(values));
    }
    ARROW_ASSIGN_OR_RAISE(auto partitions, KeyIds(partition_keys, n, eval.pool));
    ARROW_ASSIGN_OR_RAISE(auto partition_array, IdArray(partitions, eval.pool));
    std::vector<SortColumn> sort_columns = {{partition_array, true, true}};
    for (const auto& key : window_.order_keys()) {
      ARROW_ASSIGN_OR_RAISE(auto values, expr::EvaluateToArray(*key.expr, *batch, eval));
      sort_columns.push_back({std::move(values), key.ascending, key.nulls_first});
    }
    ARROW_ASSIGN_OR_RAISE(auto indices, SortIndices(sort_columns, n, eval.pool));
    ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(arrow::Datum(batch), arrow::Datum(indices)));
    const auto sorted = taken.record_batch();

    arrow::ArrayVector sorted_keys;
    for (const auto& column : sort_columns) {
      ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(column.values, indices));
      sorted_keys.push_back(values.make_array());
    }
    WindowLayout layout;
    layout.num_rows = n;
    ARROW_ASSIGN_OR_RAISE(auto sorted_partitions,
                          KeyIds({sorted_keys[0]}, n, eval.pool));
    Runs(sorted_partitions, &layout.partition_begin, &layout.partition_end);
    // Peers share the partition and every order key; without order keys a partition's rows
    // are all peers.
    ARROW_ASSIGN_OR_RAISE(auto peers, KeyIds(sorted_keys, n, eval.pool));
    Runs(peers, &layout.peer_begin, &layout.peer_end);
    if (window_.order_keys().size() == 1) {
      layout.order_values = sorted_keys[1];
      layout.order_ascending = window_.order_keys()[0].ascending;
      layout.order_nulls_first = window_.order_keys()[0].nulls_first;
    }

    arrow::ArrayVector columns = sorted->columns();
    for (const auto& function : window_.functions()) {
      ARROW_ASSIGN_OR_RAISE(auto values, EvaluateWindowFunction(function, *sorted, layout, eval));
      columns.push_back(std::move(values));
    }
    return arrow::RecordBatch::Make(schema_, n, std::move(columns));
  }

 private:
  const plan::Window& window_;
  BatchStreamPtr input_;
  const ExecContext& context_;
  std::shared_ptr<arrow::Schema> schema_;
  bool done_ = false;
};

}  // namespace

BatchStreamPtr MakeWindow(const plan::Window& window, BatchStreamPtr input,
                          const ExecContext& context) {
  return std::make_unique<WindowStream>(window, std::move(input), context);
}

}  // namespace sluice::physical
