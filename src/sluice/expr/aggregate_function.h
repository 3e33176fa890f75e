#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/datum.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/expr/eval_context.h"

namespace sluice::expr {

/// Group ids are dense: 0 .. num_groups-1, assigned by the operator that owns the groups.
using GroupId = uint32_t;

/// The running state of one aggregate function over many groups at once (vectorized: one call
/// per input batch, never per row). Made by AggregateFunction::MakeAccumulator; not thread-safe,
/// owned by one operator instance.
///
/// The state of every group can be exported as Arrow arrays (State) and folded back into another
/// accumulator (Merge), so a streaming aggregation can keep partial states per key in a state
/// store across micro-batches, and merging a state into an empty group gives back the same
/// finalized result.
class GroupedAccumulator {
 public:
  virtual ~GroupedAccumulator() = default;

  /// Makes room for groups 0 .. num_groups-1 (new groups start empty). Never shrinks.
  virtual arrow::Status Resize(int64_t num_groups) = 0;

  /// Folds row i of `args` (the function's evaluated arguments: arrays of `num_rows` values or
  /// scalars standing for every row) into group `group_ids[i]`. Groups must exist (Resize).
  /// Fails with Spark's runtime error (e.g. ARITHMETIC_OVERFLOW) when a value cannot be folded.
  virtual arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                               const std::vector<arrow::Datum>& args,
                               const EvalContext& context) = 0;

  /// Folds partial states (arrays laid out as State() returns them, `num_rows` rows) into the
  /// groups `group_ids[i]`.
  virtual arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                              const arrow::ArrayVector& states, const EvalContext& context) = 0;

  /// The partial state of every group, one array per AggregateFunction::state_fields() entry,
  /// one row per group in group id order. Does not change the accumulator.
  virtual arrow::Result<arrow::ArrayVector> State() const = 0;

  /// The result of every group in group id order, of AggregateFunction::result_type().
  /// Fails with Spark's runtime error when a result is out of range (decimal overflow).
  virtual arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext& context) = 0;
};

/// A resolved aggregate call such as `sum(a)`, `count(DISTINCT a, b)` or `first(a, true)`: its
/// bound arguments (after implicit casts; evaluated by the operator against input batches), its
/// result type and nullability, and a factory of accumulators. Immutable; shared between plans
/// and threads.
class AggregateFunction {
 public:
  virtual ~AggregateFunction() = default;

  /// The function's name as registered ("sum", "count", ...).
  const std::string& name() const { return name_; }
  /// The arguments to evaluate for each input batch, in order.
  const std::vector<BoundExprPtr>& args() const { return args_; }
  const std::shared_ptr<arrow::DataType>& result_type() const { return result_type_; }
  bool nullable() const { return nullable_; }
  bool distinct() const { return distinct_; }
  /// Spark's name of the call: `sum(a)`, `count(1)`, `count(DISTINCT a)`.
  const std::string& sql() const { return sql_; }

  /// The layout of the partial state of one group, as State() exports it.
  virtual arrow::FieldVector state_fields() const = 0;

  /// A fresh accumulator with no groups.
  virtual arrow::Result<std::unique_ptr<GroupedAccumulator>> MakeAccumulator(
      arrow::MemoryPool* pool) const = 0;

 protected:
  AggregateFunction(std::string name, std::vector<BoundExprPtr> args,
                    std::shared_ptr<arrow::DataType> result_type, bool nullable, bool distinct,
                    std::string sql)
      : name_(std::move(name)),
        args_(std::move(args)),
        result_type_(std::move(result_type)),
        nullable_(nullable),
        distinct_(distinct),
        sql_(std::move(sql)) {}

 private:
  std::string name_;
  std::vector<BoundExprPtr> args_;
  std::shared_ptr<arrow::DataType> result_type_;
  bool nullable_;
  bool distinct_;
  std::string sql_;
};

using AggregateFunctionPtr = std::shared_ptr<const AggregateFunction>;

/// Builds an AggregateFunction from a factory of accumulators: the common shape of every
/// built-in aggregate. `factory` is called once per MakeAccumulator.
using AccumulatorFactory =
    std::function<arrow::Result<std::unique_ptr<GroupedAccumulator>>(arrow::MemoryPool*)>;

/// An AggregateFunction whose accumulators come from `factory`. When `distinct` is set, each
/// group folds every distinct argument tuple once (the accumulator made by `factory` sees only
/// the first row of each tuple); such accumulators have no mergeable state (Spark does not allow
/// distinct aggregates on streams either).
std::shared_ptr<AggregateFunction> MakeAggregateFunction(
    std::string name, std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> result_type,
    bool nullable, bool distinct, arrow::FieldVector state_fields, AccumulatorFactory factory);

}  // namespace sluice::expr
