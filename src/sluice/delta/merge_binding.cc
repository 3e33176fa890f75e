#include "sluice/delta/merge_binding.h"

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"

namespace sluice::delta {

namespace {

/// The user-visible columns of `attributes` (qualified), for error messages.
std::string ColumnList(const expr::AttributeList& attributes) {
  std::string text;
  for (const auto& attribute : attributes) {
    if (attribute.name.starts_with("__delta_merge_")) continue;
    if (!text.empty()) text += ", ";
    for (const auto& part : attribute.qualifier) text += part + ".";
    text += attribute.name;
  }
  return text;
}

}  // namespace

arrow::Status Unresolved(const std::string& what, const std::string& clause,
                         const expr::AttributeList& scope, const arrow::Status& cause) {
  std::string message = "Cannot resolve " + what + " in " + clause + " given columns " +
                        ColumnList(scope) + ".";
  if (!cause.ok()) message += " " + cause.message();
  return SparkError("DELTA_MERGE_UNRESOLVED_EXPRESSION", message);
}

arrow::Result<expr::BoundExprPtr> BindIn(const expr::ExprPtr& e, const std::string& clause,
                                         const expr::AttributeList& scope,
                                         const plan::AnalysisContext& context) {
  expr::BindScope bind{&scope, context.config, context.registry, {}};
  auto bound = expr::Bind(*e, bind);
  if (bound.ok()) return bound;
  auto error_class = ErrorClassOf(bound.status()).value_or("");
  if (error_class.starts_with("UNRESOLVED_COLUMN") || error_class.starts_with("MISSING_")) {
    return Unresolved(e->ToString(), clause, scope, bound.status());
  }
  return bound.status();
}

void CollectColumns(const expr::BoundExpr& e, std::set<int>* columns) {
  if (e.kind() == expr::BoundKind::kColumn) {
    columns->insert(static_cast<const expr::BoundColumn&>(e).index());
  }
  for (const auto& child : e.children()) CollectColumns(*child, columns);
}

void Conjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out) {
  if (e->kind() == expr::ExprKind::kCall &&
      static_cast<const expr::Call&>(*e).name() == "and") {
    for (const auto& child : e->children()) Conjuncts(child, out);
    return;
  }
  out->push_back(e);
}

}  // namespace sluice::delta
