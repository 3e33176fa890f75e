// What the operators that call a user function per key ([flat]mapGroupsWithState,
// transformWithState) share: the rows of a batch grouped by key and partition, late rows
// dropped, and the check of what a call returned.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/scalar.h>
#include <arrow/result.h>

#include "sluice/expr/attribute.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/eval_context.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

/// The rows of a batch by grouping key.
struct KeyedRows {
  /// Each row's encoded key.
  EncodedRows encoded;
  /// Each row's key as a struct of the grouping columns.
  std::shared_ptr<arrow::StructArray> keys;
  /// The keys (numbered by first sight) of each partition, in order of first sight.
  std::vector<std::vector<int32_t>> keys_of_partition;
  /// The rows of each key, in input order.
  std::vector<std::vector<int64_t>> rows_of_key;
};

/// Groups `rows` by the values of `grouping` (a struct of type `key_type`), encoded with
/// `encoder` (made for keys) and spread over the store partitions of `partitioner` (null: all
/// in partition 0).
arrow::Result<KeyedRows> GroupRowsByKey(const std::vector<expr::NamedExpr>& grouping,
                                        const std::shared_ptr<arrow::StructType>& key_type,
                                        const types::RowEncoder& encoder,
                                        const arrow::RecordBatch& rows,
                                        const StatePartitioner* partitioner,
                                        const expr::EvalContext& eval);

/// Calls `visit(partition, encoded key, key, the key's rows)` for each key of `keyed` (made
/// from `rows`), partition by partition, keys in order of first sight; stops at an error.
arrow::Status ForEachKey(
    const KeyedRows& keyed, const std::shared_ptr<arrow::RecordBatch>& rows,
    const std::function<arrow::Status(int partition, std::string_view key,
                                      const std::shared_ptr<arrow::StructScalar>& key_row,
                                      const std::shared_ptr<arrow::RecordBatch>& key_rows)>&
        visit);

/// `rows` without those whose event time (the first column of `input` with a watermark; a
/// window's end) is at or below `late_watermark_ms`; adds their number to `dropped`.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> DropLateRows(
    const std::shared_ptr<arrow::RecordBatch>& rows, const expr::AttributeList& input,
    int64_t late_watermark_ms, int64_t* dropped);

/// What a call of `api`'s user function returned, checked against the declared output
/// schema and given the operator's `schema` (null or empty: no rows).
arrow::Result<std::shared_ptr<arrow::RecordBatch>> CheckedOutput(
    const std::shared_ptr<arrow::RecordBatch>& rows, const arrow::Schema& declared,
    const std::shared_ptr<arrow::Schema>& schema, const std::string& api);

}  // namespace sluice::physical
