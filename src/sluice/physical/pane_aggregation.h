#pragma once

#include <memory>
#include <optional>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/eval_context.h"
#include "sluice/expr/time_windows.h"
#include "sluice/physical/grouped_aggregation.h"
#include "sluice/physical/partial_states.h"
#include "sluice/plan/aggregate.h"

namespace sluice::physical {

/// A sliding-window aggregation done per pane. Spark explodes every row into each window that
/// holds its time (window / slide copies per row: five for Nexmark q5's 10 s windows every 2 s)
/// and groups the copies. Every window is a union of panes, the spans of gcd(window, slide)
/// aligned on the start time, and the windows holding a time are those holding its pane. So
/// when every function folds the same over any split of the rows (count, count_if, min, max),
/// the rows are aggregated once per key and pane, and each pane's partial states are then
/// merged into the windows holding it. The groups and their states are those of the explosion,
/// from one grouped row per input row plus window / gcd(window, slide) per pane.
class PaneAggregation {
 public:
  /// Whether `aggregate` can be done per pane: its child is the explosion of a sliding window
  /// (non-outer explode of `__time_windows`), it reads the window only as a whole grouping key,
  /// and all its functions are count, count_if, min or max without DISTINCT.
  static bool Applies(const plan::Aggregate& aggregate);

  /// A PaneAggregation of `aggregate`, for which Applies must hold.
  static arrow::Result<std::unique_ptr<PaneAggregation>> Make(const plan::Aggregate& aggregate,
                                                              arrow::MemoryPool* pool);

  /// Folds `batch`, rows of the explosion's input (the Generate's child). Rows with a null
  /// time have no window, as the explosion drops them.
  arrow::Status Consume(const std::shared_ptr<arrow::RecordBatch>& batch,
                        const expr::EvalContext& eval);

  /// The window groups of every row consumed.
  arrow::Result<BatchGroups> Finish(const expr::EvalContext& eval);

 private:
  /// What the aggregation per pane needs of the plan.
  struct Shape {
    expr::TimeWindowSpec windows;
    /// The length of a pane: gcd(window, slide), so that every window is whole panes.
    int64_t pane = 0;
    /// The time whose windows are taken, bound to the rows below the explosion.
    expr::BoundExprPtr time;
    /// The grouping key that is the window, and its type (struct<start, end>).
    size_t window_key = 0;
    std::shared_ptr<arrow::DataType> window_type;
  };
  static std::optional<Shape> ShapeOf(const plan::Aggregate& aggregate);

  PaneAggregation(const plan::Aggregate& aggregate, Shape shape,
                  std::unique_ptr<GroupedAggregation> panes, arrow::MemoryPool* pool)
      : aggregate_(aggregate), shape_(std::move(shape)), panes_(std::move(panes)), pool_(pool) {}

  const plan::Aggregate& aggregate_;
  Shape shape_;
  /// The rows aggregated per key and pane: the pane's start stands in for the window key.
  std::unique_ptr<GroupedAggregation> panes_;
  arrow::MemoryPool* pool_;
};

}  // namespace sluice::physical
