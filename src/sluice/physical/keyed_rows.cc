#include "sluice/physical/keyed_rows.h"

#include <algorithm>
#include <unordered_map>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>

#include "sluice/common/errors.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/physical/filter_rows.h"

namespace sluice::physical {

arrow::Result<KeyedRows> GroupRowsByKey(const std::vector<expr::NamedExpr>& grouping,
                                        const std::shared_ptr<arrow::StructType>& key_type,
                                        const types::RowEncoder& encoder,
                                        const arrow::RecordBatch& rows,
                                        const StatePartitioner* partitioner,
                                        const expr::EvalContext& eval) {
  const int64_t n = rows.num_rows();
  KeyedRows keyed;
  keyed.keys_of_partition.resize(partitioner ? partitioner->num_partitions() : 1);
  arrow::ArrayVector keys;
  for (const auto& key : grouping) {
    ARROW_ASSIGN_OR_RAISE(auto array, expr::EvaluateToArray(*key.expr, rows, eval));
    keys.push_back(std::move(array));
  }
  keyed.keys = std::make_shared<arrow::StructArray>(key_type, n, keys);
  if (n == 0) return keyed;
  encoder.EncodeRows(keys, 0, n, &keyed.encoded.bytes, &keyed.encoded.offsets);
  std::unordered_map<std::string_view, int32_t> ids;
  for (int64_t i = 0; i < n; ++i) {
    auto [it, inserted] =
        ids.emplace(keyed.encoded.row(i), static_cast<int32_t>(keyed.rows_of_key.size()));
    if (inserted) {
      keyed.rows_of_key.emplace_back();
      const int32_t p = partitioner ? partitioner->PartitionOf(keyed.encoded.row(i)) : 0;
      keyed.keys_of_partition[p].push_back(it->second);
    }
    keyed.rows_of_key[it->second].push_back(i);
  }
  return keyed;
}

arrow::Status ForEachKey(
    const KeyedRows& keyed, const std::shared_ptr<arrow::RecordBatch>& rows,
    const std::function<arrow::Status(int, std::string_view,
                                      const std::shared_ptr<arrow::StructScalar>&,
                                      const std::shared_ptr<arrow::RecordBatch>&)>& visit) {
  for (size_t p = 0; p < keyed.keys_of_partition.size(); ++p) {
    for (int32_t id : keyed.keys_of_partition[p]) {
      const std::vector<int64_t>& members = keyed.rows_of_key[id];
      ARROW_ASSIGN_OR_RAISE(auto key, keyed.keys->GetScalar(members.front()));
      arrow::Int64Builder indices;
      ARROW_RETURN_NOT_OK(indices.AppendValues(members));
      ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
      ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(rows, index_array));
      ARROW_RETURN_NOT_OK(visit(static_cast<int>(p), keyed.encoded.row(members.front()),
                                std::static_pointer_cast<arrow::StructScalar>(key),
                                taken.record_batch()));
    }
  }
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> DropLateRows(
    const std::shared_ptr<arrow::RecordBatch>& rows, const expr::AttributeList& input,
    int64_t late_watermark_ms, int64_t* dropped) {
  std::optional<int> column;
  for (size_t c = 0; c < input.size(); ++c) {
    if (input[c].event_time_delay_ms) {
      column = static_cast<int>(c);
      break;
    }
  }
  if (!column) return rows;
  std::shared_ptr<arrow::Array> times = rows->column(*column);
  if (times->type_id() == arrow::Type::STRUCT) {
    ARROW_ASSIGN_OR_RAISE(times,
                          static_cast<const arrow::StructArray&>(*times).GetFlattenedField(1));
  }
  const int64_t late_micros = late_watermark_ms * 1000;
  const int64_t* values = times->data()->GetValues<int64_t>(1);
  arrow::BooleanBuilder keep;
  ARROW_RETURN_NOT_OK(keep.Reserve(rows->num_rows()));
  int64_t late_rows = 0;
  for (int64_t i = 0; i < rows->num_rows(); ++i) {
    const bool late = times->IsValid(i) && values[i] <= late_micros;
    late_rows += late ? 1 : 0;
    keep.UnsafeAppend(!late);
  }
  *dropped += late_rows;
  if (late_rows == 0) return rows;
  ARROW_ASSIGN_OR_RAISE(auto mask, keep.Finish());
  return FilterRows(rows, *mask, arrow::default_memory_pool());
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> CheckedOutput(
    const std::shared_ptr<arrow::RecordBatch>& rows, const arrow::Schema& declared,
    const std::shared_ptr<arrow::Schema>& schema, const std::string& api) {
  if (rows == nullptr || rows->num_rows() == 0) return nullptr;
  bool matches = rows->num_columns() == declared.num_fields();
  for (int c = 0; matches && c < declared.num_fields(); ++c) {
    matches = rows->column(c)->type()->Equals(*schema->field(c)->type());
  }
  if (!matches) {
    return SparkError("ILLEGAL_ARGUMENT",
                      "The function of " + api + " returned rows of schema " +
                          rows->schema()->ToString() + ", not of the declared output schema " +
                          declared.ToString() + ".");
  }
  return arrow::RecordBatch::Make(schema, rows->num_rows(), rows->columns());
}

}  // namespace sluice::physical
