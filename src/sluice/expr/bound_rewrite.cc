#include "sluice/expr/bound_rewrite.h"

#include <algorithm>

namespace sluice::expr {

BoundExprPtr SubstituteColumns(const BoundExprPtr& e,
                               const std::function<BoundExprPtr(const BoundColumn&)>& column) {
  if (e->kind() == BoundKind::kColumn) return column(static_cast<const BoundColumn&>(*e));
  if (e->kind() == BoundKind::kLiteral) return e;
  std::vector<BoundExprPtr> children;
  for (const auto& child : e->children()) {
    auto substituted = SubstituteColumns(child, column);
    if (substituted == nullptr) return nullptr;
    children.push_back(std::move(substituted));
  }
  return WithChildren(e, std::move(children));
}

BoundExprPtr WithChildren(const BoundExprPtr& e, std::vector<BoundExprPtr> children) {
  switch (e->kind()) {
    case BoundKind::kCall: {
      const auto& call = static_cast<const BoundCall&>(*e);
      return std::make_shared<BoundCall>(call.function_name(), std::move(children), e->type(),
                                         e->nullable(), e->can_fail(), call.kernel(), e->sql(),
                                         call.site_args(), call.costly_per_value());
    }
    case BoundKind::kCaseWhen: {
      // Conditions and values in pairs, then the ELSE value when there is one.
      const bool has_else = children.size() % 2 == 1;
      return std::make_shared<BoundCaseWhen>(std::move(children), has_else, e->type(), e->sql());
    }
    case BoundKind::kAnd:
    case BoundKind::kOr:
      return std::make_shared<BoundLogical>(e->kind(), children[0], children[1], e->sql());
    case BoundKind::kCoalesce:
      return std::make_shared<BoundCoalesce>(std::move(children), e->type(), e->sql());
    default:
      return e;
  }
}

std::vector<int> ColumnsRead(const BoundExpr& e) {
  std::vector<int> columns;
  std::function<void(const BoundExpr&)> visit = [&](const BoundExpr& node) {
    if (node.kind() == BoundKind::kColumn) {
      const int index = static_cast<const BoundColumn&>(node).index();
      if (std::find(columns.begin(), columns.end(), index) == columns.end()) {
        columns.push_back(index);
      }
    }
    for (const auto& child : node.children()) visit(*child);
  };
  visit(e);
  return columns;
}

void SplitConjuncts(const BoundExprPtr& e, std::vector<BoundExprPtr>* out) {
  if (e->kind() == BoundKind::kAnd) {
    for (const auto& child : e->children()) SplitConjuncts(child, out);
    return;
  }
  out->push_back(e);
}

}  // namespace sluice::expr
