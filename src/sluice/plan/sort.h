#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/binder.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// One key of an ORDER BY.
struct SortKey {
  expr::BoundExprPtr expr;
  bool ascending = true;
  bool nulls_first = true;
};

/// Binds sort keys against `scope`: each a SortOrder (`col.desc()`) or a plain expression
/// (ascending, nulls first). Map keys are DATATYPE_MISMATCH.INVALID_ORDERING_TYPE.
arrow::Result<std::vector<SortKey>> BindSortKeys(const std::vector<expr::ExprPtr>& keys,
                                                 const expr::BindScope& scope);

/// Spark's text of a sort key: `a ASC NULLS FIRST`.
std::string SortKeySql(const SortKey& key);

/// ORDER BY: a total, stable sort of the whole input by the keys in turn, with Spark's
/// ordering (NaN above every other number, strings by UTF-8 bytes, nulls first for ascending
/// and last for descending keys unless said otherwise).
class Sort final : public LogicalPlan {
 public:
  /// Binds `keys` against `child`: each a SortOrder (`col.desc()`) or a plain expression
  /// (ascending, nulls first). Map keys are DATATYPE_MISMATCH.INVALID_ORDERING_TYPE.
  static arrow::Result<std::shared_ptr<const Sort>> Make(PlanPtr child,
                                                         const std::vector<expr::ExprPtr>& keys,
                                                         const AnalysisContext& context);

  const std::vector<SortKey>& keys() const { return keys_; }
  std::string Describe() const override;

  Sort(PlanPtr child, std::vector<SortKey> keys)
      : LogicalPlan(PlanKind::kSort, {child}, child->output()), keys_(std::move(keys)) {}

 private:
  std::vector<SortKey> keys_;
};

}  // namespace sluice::plan
