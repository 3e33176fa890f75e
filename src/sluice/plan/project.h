#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/binder.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// SELECT: computes each output column from the input row (no aggregates: a select list with
/// aggregates becomes an Aggregate node).
class Project final : public LogicalPlan {
 public:
  /// Binds `exprs` against `child` (expanding stars, naming outputs as Spark does).
  static arrow::Result<std::shared_ptr<const Project>> Make(PlanPtr child,
                                                            const std::vector<expr::ExprPtr>& exprs,
                                                            const AnalysisContext& context);
  /// A projection of already bound expressions, e.g. to reorder columns for a union.
  static std::shared_ptr<const Project> FromBound(PlanPtr child,
                                                  std::vector<expr::NamedExpr> exprs,
                                                  const AnalysisContext& context);

  const std::vector<expr::NamedExpr>& exprs() const { return exprs_; }
  std::string Describe() const override;

  Project(PlanPtr child, std::vector<expr::NamedExpr> exprs, expr::AttributeList output)
      : LogicalPlan(PlanKind::kProject, {std::move(child)}, std::move(output)),
        exprs_(std::move(exprs)) {}

 private:
  std::vector<expr::NamedExpr> exprs_;
};

/// The scope for binding expressions against `plan`'s output in `context`.
expr::BindScope ScopeOf(const LogicalPlan& plan, const AnalysisContext& context);

/// The event-time delay an output computed by `expr` over `input` carries (Spark's
/// spark.watermarkDelayMs metadata): an alias of the event-time column keeps it, and so does
/// window_time() of a time window over it (Spark's window_time resolution marks its result),
/// in a projection as in an aggregation's results.
std::optional<int64_t> EventTimeDelayOf(const expr::BoundExpr& expr,
                                        const expr::AttributeList& input);

}  // namespace sluice::plan
