// Window functions over an aggregation (`SELECT k, rank() OVER (ORDER BY count(*)) ... GROUP BY
// k`), split as Spark's ExtractWindowExpressions splits them: the Aggregate computes every
// input of the window expressions (their functions' arguments, PARTITION BY and ORDER BY keys,
// the parts of a select item around a window), and the window functions run over its rows.
#pragma once

#include <functional>
#include <vector>

#include "sluice/expr/expression.h"

namespace sluice {

/// The Aggregate items a select list's window expressions need, and the select items rewritten
/// over them.
class WindowInputs {
 public:
  /// `aggregate_items`: the Aggregate's items so far (the select items without windows); an
  /// input that is the same expression as one of them reuses it, the others are added after.
  explicit WindowInputs(std::vector<expr::ExprPtr> aggregate_items);

  /// `item` (holding a window expression) with each of its inputs replaced by a reference to
  /// its Aggregate item, which Resolve() turns into a column.
  expr::ExprPtr Extract(const expr::ExprPtr& item);

  /// The Aggregate's items: the given ones, then the added inputs, each named as Spark names it
  /// (count(*) is `count(1)`).
  std::vector<expr::ExprPtr> aggregate_items() const;

  /// `extracted` with each reference to Aggregate item `i` replaced by `column(i)`.
  expr::ExprPtr Resolve(const expr::ExprPtr& extracted,
                        const std::function<expr::ExprPtr(size_t)>& column) const;

 private:
  expr::ExprPtr Input(const expr::ExprPtr& e);

  std::vector<expr::ExprPtr> items_;
};

}  // namespace sluice
