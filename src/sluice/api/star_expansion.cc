#include "sluice/api/star_expansion.h"

#include <memory>
#include <string>

namespace sluice {

std::vector<expr::ExprPtr> ExpandUnqualifiedStar(std::vector<expr::ExprPtr> exprs,
                                                 const plan::LogicalPlan& child) {
  std::vector<expr::ExprPtr> expanded;
  for (auto& e : exprs) {
    if (e->kind() == expr::ExprKind::kStar &&
        static_cast<const expr::Star&>(*e).target().empty()) {
      for (const auto& attribute : child.output()) {
        expanded.push_back(std::make_shared<expr::ColumnRef>(
            std::vector<std::string>{attribute.name}, attribute.id));
      }
    } else {
      expanded.push_back(std::move(e));
    }
  }
  return expanded;
}

}  // namespace sluice
