#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"
#include "sluice/plan/sort.h"

namespace sluice::plan {

enum class WindowFunctionKind {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,
  kLag,  // and lead, with a positive offset
  kNthValue,
  kAggregate,
};

/// One end of a resolved frame. For ROWS an offset is a row count; for RANGE it is a distance
/// in the single order key's values, kept both as an integer and as a double so integral and
/// floating keys compare exactly.
struct ResolvedFrameBound {
  expr::WindowFrameBound::Kind kind = expr::WindowFrameBound::Kind::kCurrentRow;
  int64_t offset = 0;
  double real_offset = 0;
};

struct ResolvedFrame {
  expr::WindowFrame::Type type = expr::WindowFrame::Type::kRows;
  ResolvedFrameBound lower;
  ResolvedFrameBound upper;
};

/// A window function of a Window node, resolved against the node's input.
struct WindowFunction {
  WindowFunctionKind kind = WindowFunctionKind::kRowNumber;
  /// For kAggregate: the aggregate folded over each row's frame.
  expr::AggregateFunctionPtr aggregate;
  /// kLag: the input and the default (cast to the input's type); kNthValue: the input.
  std::vector<expr::BoundExprPtr> args;
  /// kLag: the row offset (negative for lag, positive for lead); kNtile: the number of buckets;
  /// kNthValue: which row of the frame (1-based).
  int64_t offset = 0;
  bool ignore_nulls = false;
  ResolvedFrame frame;
};

/// Computes window functions over the input's rows: each function's value for a row is
/// computed over the rows of the row's partition (equal `partition_keys()`), ordered by
/// `order_keys()`, within the function's frame. The output is the input's columns followed by
/// one column per function. All functions of one node share the partitioning and ordering (the
/// API makes one node per distinct specification, as Spark's analyzer does); frames may differ.
class Window final : public LogicalPlan {
 public:
  /// Binds the window expressions `windows` (all with the same PARTITION BY and ORDER BY)
  /// against `child`. Errors are Spark's: UNSUPPORTED_EXPR_FOR_WINDOW for a function that is
  /// neither a window nor an aggregate function, an ordered window required by ranking and
  /// offset functions, the frame they require, DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER and
  /// SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE for value ranges.
  static arrow::Result<std::shared_ptr<const Window>> Make(
      PlanPtr child, const std::vector<std::shared_ptr<const expr::WindowExpr>>& windows,
      const AnalysisContext& context);

  const std::vector<expr::BoundExprPtr>& partition_keys() const { return partition_keys_; }
  const std::vector<SortKey>& order_keys() const { return order_keys_; }
  const std::vector<WindowFunction>& functions() const { return functions_; }
  std::string Describe() const override;

  Window(PlanPtr child, std::vector<expr::BoundExprPtr> partition_keys,
         std::vector<SortKey> order_keys, std::vector<WindowFunction> functions,
         expr::AttributeList output)
      : LogicalPlan(PlanKind::kWindow, {std::move(child)}, std::move(output)),
        partition_keys_(std::move(partition_keys)),
        order_keys_(std::move(order_keys)),
        functions_(std::move(functions)) {}

 private:
  std::vector<expr::BoundExprPtr> partition_keys_;
  std::vector<SortKey> order_keys_;
  std::vector<WindowFunction> functions_;
};

/// The window functions by name (row_number, rank, ..., lag, lead, nth_value): not in the
/// function registry, since only a Window node computes them.
const std::vector<std::string>& WindowFunctionNames();

}  // namespace sluice::plan
