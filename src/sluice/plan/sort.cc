#include "sluice/plan/sort.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/value_ordering.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

arrow::Result<std::vector<SortKey>> BindSortKeys(const std::vector<expr::ExprPtr>& keys,
                                                 const expr::BindScope& scope) {
  std::vector<SortKey> bound;
  for (const auto& key : keys) {
    SortKey sort_key;
    const expr::Expr* target = key.get();
    if (key->kind() == expr::ExprKind::kSortOrder) {
      const auto& order = static_cast<const expr::SortOrder&>(*key);
      sort_key.ascending = order.ascending();
      sort_key.nulls_first = order.nulls_first();
      target = order.child().get();
    }
    ARROW_ASSIGN_OR_RAISE(sort_key.expr, expr::Bind(*target, scope));
    if (!expr::IsOrderable(*sort_key.expr->type())) {
      return SparkError("DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                        "Cannot resolve \"" + SortKeySql(sort_key) +
                            "\" due to data type mismatch: The `sortorder` does not support "
                            "ordering on type \"" +
                            expr::SqlTypeName(*sort_key.expr->type()) + "\".");
    }
    bound.push_back(std::move(sort_key));
  }
  return bound;
}

std::string SortKeySql(const SortKey& key) {
  return key.expr->sql() + (key.ascending ? " ASC" : " DESC") +
         (key.nulls_first ? " NULLS FIRST" : " NULLS LAST");
}

arrow::Result<std::shared_ptr<const Sort>> Sort::Make(PlanPtr child,
                                                      const std::vector<expr::ExprPtr>& keys,
                                                      const AnalysisContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto bound, BindSortKeys(keys, ScopeOf(*child, context)));
  return std::make_shared<Sort>(std::move(child), std::move(bound));
}

std::string Sort::Describe() const {
  std::string text = "Sort [";
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (i > 0) text += ", ";
    text += SortKeySql(keys_[i]);
  }
  return text + "], true";
}

}  // namespace sluice::plan
