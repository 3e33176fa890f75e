#include "sluice/api/window_inputs.h"

#include <memory>
#include <string>
#include <utility>

#include "sluice/expr/binder.h"

namespace sluice {

namespace {

using expr::ExprKind;
using expr::ExprPtr;

// The name standing for Aggregate item `position` until Resolve(); a query cannot reach it.
std::string Marker(size_t position) { return "__sql_window_input_" + std::to_string(position); }

ExprPtr Unaliased(const ExprPtr& e) {
  if (e->kind() == ExprKind::kAlias) return static_cast<const expr::Alias&>(*e).child();
  return e;
}

}  // namespace

WindowInputs::WindowInputs(std::vector<ExprPtr> aggregate_items)
    : items_(std::move(aggregate_items)) {}

ExprPtr WindowInputs::Input(const ExprPtr& e) {
  if (e->kind() == ExprKind::kLiteral || e->kind() == ExprKind::kStar) return e;
  // An item computing the same expression serves: the Aggregate would give both one column.
  size_t position = 0;
  while (position < items_.size() &&
         Unaliased(items_[position])->ToString() != e->ToString()) {
    ++position;
  }
  if (position == items_.size()) {
    // A column is aliased to its own name so that its copy gets an id of its own, apart from
    // a select item passing the column on.
    items_.push_back(e->kind() == ExprKind::kColumn
                         ? std::make_shared<expr::Alias>(
                               e, static_cast<const expr::ColumnRef&>(*e).name_parts().back())
                         : e);
  }
  return expr::Col(Marker(position));
}

ExprPtr WindowInputs::Extract(const ExprPtr& item) {
  if (!expr::ContainsWindow(*item)) return Input(item);
  std::vector<ExprPtr> children;
  if (item->kind() == ExprKind::kWindow) {
    const auto& function = item->children()[0];
    std::vector<ExprPtr> args;
    for (const auto& arg : function->children()) args.push_back(Input(arg));
    children.push_back(expr::WithChildren(function, std::move(args)));
    for (size_t i = 1; i < item->children().size(); ++i) {
      const auto& child = item->children()[i];
      children.push_back(child->kind() == ExprKind::kSortOrder
                             ? expr::WithChildren(child, {Input(child->children()[0])})
                             : Input(child));
    }
  } else {
    for (const auto& child : item->children()) children.push_back(Extract(child));
  }
  return expr::WithChildren(item, std::move(children));
}

std::vector<ExprPtr> WindowInputs::aggregate_items() const { return items_; }

ExprPtr WindowInputs::Resolve(const ExprPtr& extracted,
                              const std::function<ExprPtr(size_t)>& column) const {
  ExprPtr resolved = extracted;
  for (size_t position = 0; position < items_.size(); ++position) {
    const std::vector<std::string> marker = {Marker(position)};
    resolved = expr::ReplaceSubexpressions(
        resolved,
        [&marker](const expr::Expr& e) {
          return e.kind() == ExprKind::kColumn &&
                 static_cast<const expr::ColumnRef&>(e).name_parts() == marker;
        },
        column(position));
  }
  return resolved;
}

}  // namespace sluice
