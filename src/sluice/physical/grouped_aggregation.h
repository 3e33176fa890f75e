#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/physical/batch_stream.h"
#include "sluice/plan/aggregate.h"

namespace sluice::physical {

/// Groups rows by an Aggregate node's keys and folds its aggregate functions per group, batch
/// after batch (vectorized: one pass per batch, no per-row calls): the whole of a batch
/// query's hash aggregation, and the per-batch partial aggregation of a streaming one. A
/// global aggregation (no keys) has one group from the start. Not thread-safe.
class GroupedAggregation {
 public:
  static arrow::Result<std::unique_ptr<GroupedAggregation>> Make(
      const plan::Aggregate& aggregate, arrow::MemoryPool* pool);

  /// One whose keys, as Consume is given them, have `key_types` rather than the types of the
  /// aggregate's grouping (a sliding window's pane start in place of its window).
  static arrow::Result<std::unique_ptr<GroupedAggregation>> Make(
      const plan::Aggregate& aggregate, std::vector<std::shared_ptr<arrow::DataType>> key_types,
      arrow::MemoryPool* pool);

  /// Folds every batch of `input` (rows of the aggregate's child) to its end.
  arrow::Status ConsumeAll(BatchStream& input, const expr::EvalContext& eval);

  /// Folds the rows of `batch`, whose grouping keys are `keys` (one array per key, of the
  /// key types the aggregation was made with).
  arrow::Status Consume(const arrow::RecordBatch& batch, const arrow::ArrayVector& keys,
                        const expr::EvalContext& eval);

  /// Makes room for `groups` groups in all (KeyGrouper::Reserve).
  void Reserve(int64_t groups) {
    if (grouper_) grouper_->Reserve(groups);
  }

  int64_t num_groups() const { return num_groups_; }

  /// The key values of every group in group id order; empty for a global aggregation.
  arrow::Result<arrow::ArrayVector> GroupKeys() const;

  /// One accumulator per aggregate function, each holding num_groups() groups.
  const std::vector<std::unique_ptr<expr::GroupedAccumulator>>& accumulators() const {
    return accumulators_;
  }

  /// The finalized value of every aggregate for every group.
  arrow::Result<arrow::ArrayVector> Finalize(const expr::EvalContext& eval);

 private:
  GroupedAggregation(const plan::Aggregate& aggregate) : aggregate_(aggregate) {}

  /// The grouping keys of `batch` (rows of the aggregate's child), one array per key.
  arrow::Result<arrow::ArrayVector> EvaluateKeys(const arrow::RecordBatch& batch,
                                                 const expr::EvalContext& eval) const;

  const plan::Aggregate& aggregate_;
  std::unique_ptr<expr::KeyGrouper> grouper_;
  std::vector<std::unique_ptr<expr::GroupedAccumulator>> accumulators_;
  std::vector<uint32_t> group_ids_;
  int64_t num_groups_ = 0;
};

}  // namespace sluice::physical
