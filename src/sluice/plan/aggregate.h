#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// GROUP BY with aggregates: groupBy(keys).agg(...), df.agg(...) (no keys: one group, one output
/// row even for empty input), distinct() and dropDuplicates().
///
/// Evaluation has three steps, each exposed so an incremental (streaming) executor can run the
/// same node with partial states kept per key:
///  1. `grouping()` are evaluated against the child's batches and group the rows;
///  2. every `aggregates()` function folds its arguments (evaluated against the child's
///     batches) per group;
///  3. per group, an "intermediate" row is laid out as `intermediate()` describes (the child's
///     columns, where those that are grouping keys hold the key value and the others are null,
///     then grouping keys that are not plain columns, then the aggregate results), and
///     `results()`, bound against that layout, compute the output row (`sum(a) + 1`, the keys,
///     aliases).
class Aggregate final : public LogicalPlan {
 public:
  /// Where an intermediate column comes from.
  struct Source {
    enum class Kind { kNull, kKey, kAggregate };
    Kind kind = Kind::kNull;
    int index = -1;  // grouping key or aggregate index
  };

  /// groupBy(keys).agg(aggregates): binds the keys against `child` (names as in a select list)
  /// and the aggregate list with aggregate calls allowed; the output is the keys (when
  /// `keys_in_output`, as groupBy().agg() does) followed by the aggregate list. A column in the
  /// aggregate list that is neither grouped nor inside an aggregate is MISSING_AGGREGATION
  /// (MISSING_GROUP_BY without keys).
  static arrow::Result<std::shared_ptr<const Aggregate>> Make(
      PlanPtr child, const std::vector<expr::ExprPtr>& keys,
      const std::vector<expr::ExprPtr>& aggregates, const AnalysisContext& context,
      bool keys_in_output = true);

  /// How an Aggregate node deduplicates, if it does.
  enum class Deduplication {
    kNone,
    /// distinct(), dropDuplicates(): a key's first row; on a stream a key is kept in state
    /// until the watermark passes its event time (when the key holds one).
    kFirstRow,
    /// dropDuplicatesWithinWatermark(): as kFirstRow in a batch query; on a stream a key is
    /// kept until the watermark passes its first row's event time plus the delay.
    kWithinWatermark,
  };

  /// distinct() (empty `subset`: every column), dropDuplicates(subset) or
  /// dropDuplicatesWithinWatermark(subset): one row per distinct key, the first in input
  /// order, with the child's columns and attributes unchanged.
  static arrow::Result<std::shared_ptr<const Aggregate>> MakeDeduplicate(
      PlanPtr child, const std::vector<std::string>& subset, const AnalysisContext& context,
      Deduplication deduplication = Deduplication::kFirstRow);

  const std::vector<expr::NamedExpr>& grouping() const { return grouping_; }
  const std::vector<expr::AggregateFunctionPtr>& aggregates() const { return aggregates_; }
  const expr::AttributeList& intermediate() const { return intermediate_; }
  const std::vector<Source>& intermediate_sources() const { return sources_; }
  const std::vector<expr::NamedExpr>& results() const { return results_; }

  /// The grouping key that holds the event time (the watermarked column, or a time window
  /// over it): the key whose groups the watermark makes final on a stream. nullopt when none.
  std::optional<int> event_time_key() const;

  /// True for distinct()/dropDuplicates*(): on a stream it keeps each key's first row and
  /// emits it once (Spark's Deduplicate), rather than aggregating.
  bool is_deduplicate() const { return deduplication_ != Deduplication::kNone; }
  Deduplication deduplication() const { return deduplication_; }

  std::string Describe() const override;

  Aggregate(PlanPtr child, std::vector<expr::NamedExpr> grouping,
            std::vector<expr::AggregateFunctionPtr> aggregates, expr::AttributeList intermediate,
            std::vector<Source> sources, std::vector<expr::NamedExpr> results,
            expr::AttributeList output, Deduplication deduplication = Deduplication::kNone)
      : LogicalPlan(PlanKind::kAggregate, {std::move(child)}, std::move(output)),
        deduplication_(deduplication),
        grouping_(std::move(grouping)),
        aggregates_(std::move(aggregates)),
        intermediate_(std::move(intermediate)),
        sources_(std::move(sources)),
        results_(std::move(results)) {}

 private:
  Deduplication deduplication_;
  std::vector<expr::NamedExpr> grouping_;
  std::vector<expr::AggregateFunctionPtr> aggregates_;
  expr::AttributeList intermediate_;
  std::vector<Source> sources_;
  std::vector<expr::NamedExpr> results_;
};

}  // namespace sluice::plan
