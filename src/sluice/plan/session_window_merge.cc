#include "sluice/plan/session_window_merge.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<const MergeSessionWindows>> MergeSessionWindows::Make(
    PlanPtr child, const std::vector<expr::ExprPtr>& keys, int session_column,
    const AnalysisContext& context) {
  const auto& output = child->output();
  if (session_column < 0 || session_column >= static_cast<int>(output.size())) {
    return arrow::Status::Invalid("MergeSessionWindows: session column ", session_column,
                                  " is outside the input's ", output.size(), " columns");
  }
  const auto& type = *output[session_column].type;
  if (type.id() != arrow::Type::STRUCT || type.num_fields() != 2 ||
      type.field(0)->type()->id() != arrow::Type::TIMESTAMP ||
      !type.field(1)->type()->Equals(*type.field(0)->type())) {
    return arrow::Status::Invalid("MergeSessionWindows: column '", output[session_column].name,
                                  "' is not a session window struct<start, end>: ",
                                  type.ToString());
  }
  std::vector<expr::BoundExprPtr> bound;
  const expr::BindScope scope = ScopeOf(*child, context);
  for (const auto& key : keys) {
    ARROW_ASSIGN_OR_RAISE(auto key_expr, expr::Bind(*key, scope));
    // The Aggregate above refuses such a key too; refusing it here names it the same way.
    if (!expr::IsGroupableType(*key_expr->type())) {
      return SparkError("GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE",
                        "The expression \"" + key_expr->sql() +
                            "\" cannot be used as a grouping expression because its data type "
                            "\"" + expr::SqlTypeName(*key_expr->type()) +
                            "\" is not an orderable data type.");
    }
    bound.push_back(std::move(key_expr));
  }
  return std::make_shared<MergeSessionWindows>(std::move(child), std::move(bound),
                                               session_column);
}

std::string MergeSessionWindows::Describe() const {
  std::string text = "MergeSessionWindows [";
  for (size_t k = 0; k < keys_.size(); ++k) {
    if (k > 0) text += ", ";
    text += keys_[k]->sql();
  }
  const auto& session = output()[session_column_];
  return text + "], " + session.name + "#" + std::to_string(session.id);
}

}  // namespace sluice::plan
