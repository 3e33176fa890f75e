#include "sluice/api/window_spec.h"

#include <arrow/scalar.h>

namespace sluice {

namespace {

std::vector<expr::ExprPtr> Exprs(const std::vector<Column>& columns) {
  std::vector<expr::ExprPtr> exprs;
  for (const auto& column : columns) exprs.push_back(column.expr());
  return exprs;
}

// Spark's boundaries: 0 is CURRENT ROW and the extreme longs are unbounded; a row offset is an
// integer literal, a range offset a long one (they are named alike: `-1 FOLLOWING`).
expr::WindowFrameBound Bound(int64_t value, expr::WindowFrame::Type type) {
  if (value == Window::currentRow) return expr::WindowFrameBound::CurrentRow();
  if (value == Window::unboundedPreceding) return expr::WindowFrameBound::UnboundedPreceding();
  if (value == Window::unboundedFollowing) return expr::WindowFrameBound::UnboundedFollowing();
  const bool fits_int = value >= std::numeric_limits<int32_t>::min() &&
                        value <= std::numeric_limits<int32_t>::max();
  auto literal = type == expr::WindowFrame::Type::kRows && fits_int
                     ? expr::Lit(arrow::MakeScalar(static_cast<int32_t>(value)))
                     : expr::Lit(arrow::MakeScalar(value));
  return expr::WindowFrameBound::Offset(std::move(literal));
}

}  // namespace

WindowSpec WindowSpec::partitionBy(std::vector<Column> columns) const {
  WindowSpec spec = *this;
  spec.partition_by_ = Exprs(columns);
  return spec;
}

WindowSpec WindowSpec::orderBy(std::vector<Column> columns) const {
  WindowSpec spec = *this;
  spec.order_by_ = Exprs(columns);
  return spec;
}

WindowSpec WindowSpec::rowsBetween(int64_t start, int64_t end) const {
  return Between(expr::WindowFrame::Type::kRows, start, end);
}

WindowSpec WindowSpec::rangeBetween(int64_t start, int64_t end) const {
  return Between(expr::WindowFrame::Type::kRange, start, end);
}

WindowSpec WindowSpec::Between(expr::WindowFrame::Type type, int64_t start, int64_t end) const {
  WindowSpec spec = *this;
  spec.frame_ = expr::WindowFrame{type, Bound(start, type), Bound(end, type)};
  return spec;
}

}  // namespace sluice
