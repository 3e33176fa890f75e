#pragma once

#include <memory>

#include <arrow/result.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// WHERE: keeps the rows whose condition is true (false and null drop the row).
class Filter final : public LogicalPlan {
 public:
  /// Binds `condition`, which must be boolean (DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN otherwise).
  static arrow::Result<std::shared_ptr<const Filter>> Make(PlanPtr child,
                                                           const expr::ExprPtr& condition,
                                                           const AnalysisContext& context);

  const expr::BoundExprPtr& condition() const { return condition_; }
  std::string Describe() const override;

  Filter(PlanPtr child, expr::BoundExprPtr condition)
      : LogicalPlan(PlanKind::kFilter, {child}, child->output()),
        condition_(std::move(condition)) {}

 private:
  expr::BoundExprPtr condition_;
};

}  // namespace sluice::plan
