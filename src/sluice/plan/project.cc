#include "sluice/plan/project.h"

namespace sluice::plan {

expr::BindScope ScopeOf(const LogicalPlan& plan, const AnalysisContext& context) {
  expr::BindScope scope;
  scope.attributes = &plan.output();
  scope.config = context.config;
  scope.registry = context.registry;
  return scope;
}

arrow::Result<std::shared_ptr<const Project>> Project::Make(
    PlanPtr child, const std::vector<expr::ExprPtr>& exprs, const AnalysisContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto bound, expr::BindSelectList(exprs, ScopeOf(*child, context)));
  return FromBound(std::move(child), std::move(bound), context);
}

std::optional<int64_t> EventTimeDelayOf(const expr::BoundExpr& expr,
                                        const expr::AttributeList& input) {
  const expr::BoundExpr* column = &expr;
  if (expr.kind() == expr::BoundKind::kCall &&
      static_cast<const expr::BoundCall&>(expr).function_name() == "window_time" &&
      expr.children().size() == 1) {
    column = expr.children()[0].get();
  }
  if (column->kind() != expr::BoundKind::kColumn) return std::nullopt;
  return input[static_cast<const expr::BoundColumn&>(*column).index()].event_time_delay_ms;
}


std::shared_ptr<const Project> Project::FromBound(PlanPtr child,
                                                  std::vector<expr::NamedExpr> exprs,
                                                  const AnalysisContext& context) {
  expr::AttributeList output;
  for (const auto& named : exprs) {
    if (named.passthrough) {
      expr::Attribute kept = *named.passthrough;
      kept.name = named.name;
      output.push_back(std::move(kept));
    } else {
      output.push_back({named.name, named.expr->type(), named.expr->nullable(),
                        context.ids->Next(), {},
                        EventTimeDelayOf(*named.expr, child->output())});
    }
  }
  return std::make_shared<Project>(std::move(child), std::move(exprs), std::move(output));
}

std::string Project::Describe() const {
  std::string text = "Project [";
  for (size_t i = 0; i < exprs_.size(); ++i) {
    if (i > 0) text += ", ";
    const auto& named = exprs_[i];
    text += named.expr->sql();
    if (named.expr->sql() != named.name) text += " AS " + named.name;
    text += "#" + std::to_string(output()[i].id);
  }
  return text + "]";
}

}  // namespace sluice::plan
