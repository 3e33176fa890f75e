#include "sluice/api/window_function_rewrite.h"

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "sluice/api/star_expansion.h"
#include "sluice/plan/window.h"

namespace sluice {

namespace {

using expr::ExprPtr;
using WindowPtr = std::shared_ptr<const expr::WindowExpr>;

// Every window expression of `e` (those nested in another one are its own error).
void CollectWindows(const ExprPtr& e, std::vector<WindowPtr>& found) {
  if (e->kind() == expr::ExprKind::kWindow) {
    found.push_back(std::static_pointer_cast<const expr::WindowExpr>(e));
    return;
  }
  for (const auto& child : e->children()) CollectWindows(child, found);
}

// What windows computed by one Window node share: PARTITION BY and ORDER BY.
std::string SpecKey(const expr::WindowExpr& window) {
  std::string key;
  for (const auto& e : window.partition_by()) key += e->ToString() + ",";
  key += "|";
  for (const auto& e : window.order_by()) key += e->ToString() + ",";
  return key;
}

}  // namespace

arrow::Result<WindowedInput> PlanWindowFunctions(plan::PlanPtr child,
                                                 std::vector<expr::ExprPtr> exprs,
                                                 const plan::AnalysisContext& context) {
  std::vector<WindowPtr> windows;
  for (const auto& e : exprs) CollectWindows(e, windows);
  if (windows.empty()) return WindowedInput{std::move(child), std::move(exprs)};
  std::vector<ExprPtr> expanded = ExpandUnqualifiedStar(std::move(exprs), *child);

  std::vector<std::string> spec_order;
  std::map<std::string, std::vector<WindowPtr>> by_spec;
  for (const auto& window : windows) {
    auto [entry, added] = by_spec.try_emplace(SpecKey(*window));
    if (added) spec_order.push_back(entry->first);
    entry->second.push_back(window);
  }
  plan::PlanPtr current = std::move(child);
  for (const auto& key : spec_order) {
    const auto& group = by_spec[key];
    const size_t first = current->output().size();
    ARROW_ASSIGN_OR_RAISE(auto node, plan::Window::Make(current, group, context));
    for (size_t k = 0; k < group.size(); ++k) {
      const auto& attribute = node->output()[first + k];
      auto reference = std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                                         attribute.id);
      const expr::Expr* target = group[k].get();
      for (auto& e : expanded) {
        e = expr::ReplaceSubexpressions(
            e, [target](const expr::Expr& candidate) { return &candidate == target; }, reference);
      }
    }
    current = std::move(node);
  }
  return WindowedInput{std::move(current), std::move(expanded)};
}

}  // namespace sluice
