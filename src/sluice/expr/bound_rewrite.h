// Rewriting bound expressions: the same expression over another input.
#pragma once

#include <functional>

#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

/// `e` with every column it reads replaced by `column(that column)`: the same computation
/// over another input, e.g. a condition on a projection's output moved below the projection
/// by putting the projected expressions in place of its columns. Returns null when
/// `column` returns null for any column read.
BoundExprPtr SubstituteColumns(const BoundExprPtr& e,
                               const std::function<BoundExprPtr(const BoundColumn&)>& column);

/// `e` with its children replaced by `children` (as many, of the same types): the same node
/// over other arguments.
BoundExprPtr WithChildren(const BoundExprPtr& e, std::vector<BoundExprPtr> children);

/// The columns `e` reads, by index, each once in order of first reading.
std::vector<int> ColumnsRead(const BoundExpr& e);

/// Appends the conjuncts of `e` to `out`, left to right: its operands while it is an AND,
/// theirs while they are, else `e` itself.
void SplitConjuncts(const BoundExprPtr& e, std::vector<BoundExprPtr>* out);

}  // namespace sluice::expr
