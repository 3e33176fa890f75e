#include "sluice/physical/pane_aggregation.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <arrow/array/util.h>
#include <arrow/compute/api_scalar.h>
#include <arrow/compute/api_vector.h>

#include "sluice/expr/key_grouper.h"
#include "sluice/physical/int64_arrays.h"
#include "sluice/plan/generate.h"

namespace sluice::physical {

namespace {

bool ReadsColumn(const expr::BoundExpr& e, int column) {
  if (e.kind() == expr::BoundKind::kColumn) {
    return static_cast<const expr::BoundColumn&>(e).index() == column;
  }
  for (const auto& child : e.children()) {
    if (ReadsColumn(*child, column)) return true;
  }
  return false;
}

// The functions whose partial states, merged over any split of the rows, give to the bit what
// folding the rows one by one gives: counts add, extremes compare. Sums are left out: in
// floating point the order of the additions shows in the last bits, and under ANSI an integer
// sum may overflow in one split and not in another.
bool FoldsTheSameInAnySplit(const expr::AggregateFunction& function) {
  const std::string& name = function.name();
  return !function.distinct() &&
         (name == "count" || name == "count_if" || name == "min" || name == "max");
}

}  // namespace

std::optional<PaneAggregation::Shape> PaneAggregation::ShapeOf(
    const plan::Aggregate& aggregate) {
  const auto& child = *aggregate.children()[0];
  if (child.kind() != plan::PlanKind::kGenerate) return std::nullopt;
  const auto& generate = static_cast<const plan::Generate&>(child);
  if (generate.outer() || generate.with_position() || generate.is_inline()) return std::nullopt;
  auto windows = expr::TimeWindowsOf(*generate.collection());
  // The window is the one generated column, after the columns of the explosion's input.
  const int window_column = static_cast<int>(generate.output().size()) - 1;
  if (!windows || generate.generated().size() != 1 ||
      static_cast<int>(generate.children()[0]->output().size()) != window_column) {
    return std::nullopt;
  }
  Shape shape;
  shape.windows = *windows;
  shape.pane = std::gcd(windows->window, windows->slide);
  shape.time = generate.collection()->children()[0];
  std::optional<size_t> window_key;
  const auto& grouping = aggregate.grouping();
  for (size_t k = 0; k < grouping.size(); ++k) {
    const auto& key = *grouping[k].expr;
    if (key.kind() == expr::BoundKind::kColumn &&
        static_cast<const expr::BoundColumn&>(key).index() == window_column && !window_key) {
      window_key = k;
    } else if (ReadsColumn(key, window_column)) {
      return std::nullopt;
    }
  }
  if (!window_key) return std::nullopt;
  for (const auto& function : aggregate.aggregates()) {
    if (!FoldsTheSameInAnySplit(*function)) return std::nullopt;
    for (const auto& arg : function->args()) {
      if (ReadsColumn(*arg, window_column)) return std::nullopt;
    }
  }
  shape.window_key = *window_key;
  shape.window_type = grouping[*window_key].expr->type();
  return shape;
}

bool PaneAggregation::Applies(const plan::Aggregate& aggregate) {
  return ShapeOf(aggregate).has_value();
}

arrow::Result<std::unique_ptr<PaneAggregation>> PaneAggregation::Make(
    const plan::Aggregate& aggregate, arrow::MemoryPool* pool) {
  auto shape = ShapeOf(aggregate);
  if (!shape) {
    return arrow::Status::Invalid("the aggregation does not group by a sliding window");
  }
  std::vector<std::shared_ptr<arrow::DataType>> key_types;
  for (const auto& key : aggregate.grouping()) key_types.push_back(key.expr->type());
  key_types[shape->window_key] = shape->time->type();
  ARROW_ASSIGN_OR_RAISE(auto panes, GroupedAggregation::Make(aggregate, key_types, pool));
  return std::unique_ptr<PaneAggregation>(
      new PaneAggregation(aggregate, std::move(*shape), std::move(panes), pool));
}

arrow::Status PaneAggregation::Consume(const std::shared_ptr<arrow::RecordBatch>& batch,
                                       const expr::EvalContext& eval) {
  ARROW_ASSIGN_OR_RAISE(auto times, expr::EvaluateToArray(*shape_.time, *batch, eval));
  std::shared_ptr<arrow::RecordBatch> rows = batch;
  if (times->null_count() > 0) {
    ARROW_ASSIGN_OR_RAISE(auto valid, arrow::compute::IsValid(times));
    ARROW_ASSIGN_OR_RAISE(auto kept, arrow::compute::Filter(batch, valid));
    rows = kept.record_batch();
    ARROW_ASSIGN_OR_RAISE(auto kept_times, arrow::compute::Filter(times, valid));
    times = kept_times.make_array();
  }
  const int64_t n = rows->num_rows();
  if (n == 0) return arrow::Status::OK();
  const int64_t* t = times->data()->GetValues<int64_t>(1);
  std::vector<int64_t> pane_starts(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    pane_starts[i] = t[i] - datetime::FloorMod(t[i] - shape_.windows.start, shape_.pane);
  }
  arrow::ArrayVector keys;
  const auto& grouping = aggregate_.grouping();
  for (size_t k = 0; k < grouping.size(); ++k) {
    if (k == shape_.window_key) {
      keys.push_back(Int64ArrayOf(std::move(pane_starts), times->type()));
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto key, expr::EvaluateToArray(*grouping[k].expr, *rows, eval));
    keys.push_back(std::move(key));
  }
  return panes_->Consume(*rows, keys, eval);
}

arrow::Result<BatchGroups> PaneAggregation::Finish(const expr::EvalContext& eval) {
  ARROW_ASSIGN_OR_RAISE(auto pane_keys, panes_->GroupKeys());
  ARROW_ASSIGN_OR_RAISE(auto pane_states, ExportStates(panes_->accumulators()));

  // Each pane into every window holding it: the windows of its start.
  const int64_t num_panes = panes_->num_groups();
  const int64_t* pane_starts = pane_keys[shape_.window_key]->data()->GetValues<int64_t>(1);
  // A pane is in ceil(window / slide) windows at most; a tiny slide may make that very many,
  // so reserve for the usual few, as the explosion does.
  const int64_t per_pane = std::min<int64_t>(
      (shape_.windows.window + shape_.windows.slide - 1) / shape_.windows.slide, 16);
  std::vector<int64_t> pane_of, starts, ends;
  pane_of.reserve(static_cast<size_t>(num_panes * per_pane));
  starts.reserve(pane_of.capacity());
  ends.reserve(pane_of.capacity());
  for (int64_t p = 0; p < num_panes; ++p) {
    expr::ForEachWindowOf(pane_starts[p], shape_.windows, [&](int64_t start) {
      pane_of.push_back(p);
      starts.push_back(start);
      ends.push_back(start + shape_.windows.window);
    });
  }
  const auto num_rows = static_cast<int64_t>(pane_of.size());
  auto indices = Int64ArrayOf(std::move(pane_of));
  const auto& time_type = shape_.window_type->field(0)->type();
  auto windows = arrow::MakeArray(arrow::ArrayData::Make(
      shape_.window_type, num_rows, {nullptr},
      {Int64ArrayOf(std::move(starts), time_type)->data(),
       Int64ArrayOf(std::move(ends), time_type)->data()},
      0));

  arrow::ArrayVector keys;
  std::vector<std::shared_ptr<arrow::DataType>> key_types;
  for (size_t k = 0; k < pane_keys.size(); ++k) {
    if (k == shape_.window_key) {
      keys.push_back(windows);
    } else {
      ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(*pane_keys[k], *indices));
      keys.push_back(std::move(taken));
    }
    key_types.push_back(keys.back()->type());
  }
  ARROW_ASSIGN_OR_RAISE(auto grouper, expr::KeyGrouper::Make(std::move(key_types), pool_));
  // A window's rows are few per key (a pane of each key for each slide), so the groups are
  // not far below the rows: sized for them at once, the grouper neither rehashes nor copies
  // its keys as it fills.
  grouper->Reserve(num_rows);
  std::vector<uint32_t> ids;
  ARROW_RETURN_NOT_OK(grouper->Consume(keys, num_rows, &ids));
  arrow::ArrayVector states;
  for (const auto& state : pane_states) {
    ARROW_ASSIGN_OR_RAISE(auto taken, arrow::compute::Take(*state, *indices));
    states.push_back(std::move(taken));
  }
  BatchGroups groups;
  groups.num_groups = grouper->num_groups();
  ARROW_ASSIGN_OR_RAISE(auto merged, MakeAccumulators(aggregate_, groups.num_groups, pool_));
  ARROW_RETURN_NOT_OK(MergeStates(aggregate_, ids, states, &merged, eval));
  ARROW_ASSIGN_OR_RAISE(groups.keys, grouper->GetUniques());
  ARROW_ASSIGN_OR_RAISE(groups.states, ExportStates(merged));
  return groups;
}

}  // namespace sluice::physical
