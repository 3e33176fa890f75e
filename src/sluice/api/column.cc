#include "sluice/api/column.h"

#include <arrow/scalar.h>

#include "sluice/api/window_spec.h"
#include "sluice/types/ddl_parser.h"

namespace sluice {

namespace {

Column Call(std::string name, std::vector<Column> args) {
  std::vector<expr::ExprPtr> exprs;
  exprs.reserve(args.size());
  for (const auto& arg : args) exprs.push_back(arg.expr());
  return Column(expr::CallFunction(std::move(name), std::move(exprs)));
}

Column StringLiteral(const std::string& value) {
  return Column(expr::Lit(std::make_shared<arrow::StringScalar>(value)));
}

Column CastByName(const expr::ExprPtr& child, const std::string& type_name, bool is_try) {
  auto type = types::ParseDataType(type_name);
  if (!type.ok()) {
    return Column(std::make_shared<expr::InvalidExpr>(type.status(), child->ToString()));
  }
  return Column(std::make_shared<expr::Cast>(child, *type, is_try));
}

Column Sort(const Column& column, bool ascending, bool nulls_first) {
  return Column(std::make_shared<expr::SortOrder>(column.expr(), ascending, nulls_first));
}

}  // namespace

Column::Column(const char* name) : expr_(expr::Col(name)) {}
Column::Column(const std::string& name) : expr_(expr::Col(name)) {}
Column::Column(int value) : expr_(expr::Lit(arrow::MakeScalar(static_cast<int32_t>(value)))) {}
Column::Column(int64_t value) : expr_(expr::Lit(arrow::MakeScalar(value))) {}
Column::Column(double value) : expr_(expr::Lit(arrow::MakeScalar(value))) {}
Column::Column(bool value) : expr_(expr::Lit(arrow::MakeScalar(value))) {}

Column Column::alias(const std::string& name) const {
  return Column(std::make_shared<expr::Alias>(expr_, name));
}
Column Column::cast(const std::string& type_name) const {
  return CastByName(expr_, type_name, false);
}
Column Column::cast(std::shared_ptr<arrow::DataType> type) const {
  return Column(std::make_shared<expr::Cast>(expr_, std::move(type), false));
}
Column Column::try_cast(const std::string& type_name) const {
  return CastByName(expr_, type_name, true);
}

Column Column::isNull() const { return Call("isnull", {*this}); }
Column Column::isNotNull() const { return Call("isnotnull", {*this}); }
Column Column::isNaN() const { return Call("isnan", {*this}); }
Column Column::isin(std::vector<Column> values) const {
  values.insert(values.begin(), *this);
  return Call("in", std::move(values));
}
// PySpark's Column.between is (a >= low) AND (a <= high), and named so.
Column Column::between(const Column& low, const Column& high) const {
  return Call("and", {Call(">=", {*this, low}), Call("<=", {*this, high})});
}
Column Column::like(const std::string& pattern) const {
  return Call("like", {*this, StringLiteral(pattern)});
}
Column Column::ilike(const std::string& pattern) const {
  return Call("ilike", {*this, StringLiteral(pattern)});
}
Column Column::rlike(const std::string& pattern) const {
  return Call("rlike", {*this, StringLiteral(pattern)});
}
Column Column::startswith(const Column& prefix) const { return Call("startswith", {*this, prefix}); }
Column Column::endswith(const Column& suffix) const { return Call("endswith", {*this, suffix}); }
Column Column::contains(const Column& other) const { return Call("contains", {*this, other}); }
Column Column::substr(const Column& position, const Column& length) const {
  return Call("substring", {*this, position, length});
}
Column Column::eqNullSafe(const Column& other) const { return Call("<=>", {*this, other}); }
Column Column::getItem(const Column& key) const {
  return Column(std::make_shared<expr::Extract>(expr_, key.expr()));
}
Column Column::getField(const std::string& name) const {
  return Column(std::make_shared<expr::Extract>(expr_, StringLiteral(name).expr()));
}

Column Column::when(const Column& condition, const Column& value) const {
  std::vector<std::pair<expr::ExprPtr, expr::ExprPtr>> branches;
  if (expr_->kind() == expr::ExprKind::kCaseWhen) {
    const auto& existing = static_cast<const expr::CaseWhen&>(*expr_);
    for (size_t i = 0; i < existing.num_branches(); ++i) {
      branches.emplace_back(existing.condition(i), existing.value(i));
    }
  }
  branches.emplace_back(condition.expr(), value.expr());
  return Column(std::make_shared<expr::CaseWhen>(std::move(branches), nullptr));
}

Column Column::otherwise(const Column& value) const {
  std::vector<std::pair<expr::ExprPtr, expr::ExprPtr>> branches;
  if (expr_->kind() == expr::ExprKind::kCaseWhen) {
    const auto& existing = static_cast<const expr::CaseWhen&>(*expr_);
    for (size_t i = 0; i < existing.num_branches(); ++i) {
      branches.emplace_back(existing.condition(i), existing.value(i));
    }
  }
  return Column(std::make_shared<expr::CaseWhen>(std::move(branches), value.expr()));
}

Column Column::asc() const { return Sort(*this, true, true); }
Column Column::asc_nulls_first() const { return Sort(*this, true, true); }
Column Column::asc_nulls_last() const { return Sort(*this, true, false); }
Column Column::desc() const { return Sort(*this, false, false); }
Column Column::desc_nulls_first() const { return Sort(*this, false, true); }
Column Column::desc_nulls_last() const { return Sort(*this, false, false); }

Column Column::over(const WindowSpec& window) const {
  return Column(std::make_shared<expr::WindowExpr>(expr_, window.partition_by(),
                                                   window.order_by(), window.frame()));
}

Column Column::over() const { return over(WindowSpec()); }

Column Column::bitwiseAND(const Column& other) const { return Call("&", {*this, other}); }
Column Column::bitwiseOR(const Column& other) const { return Call("|", {*this, other}); }
Column Column::bitwiseXOR(const Column& other) const { return Call("^", {*this, other}); }

Column operator+(const Column& a, const Column& b) { return Call("+", {a, b}); }
Column operator-(const Column& a, const Column& b) { return Call("-", {a, b}); }
Column operator*(const Column& a, const Column& b) { return Call("*", {a, b}); }
Column operator/(const Column& a, const Column& b) { return Call("/", {a, b}); }
Column operator%(const Column& a, const Column& b) { return Call("%", {a, b}); }
Column operator-(const Column& a) { return Call("-", {a}); }
Column operator==(const Column& a, const Column& b) { return Call("=", {a, b}); }
Column operator!=(const Column& a, const Column& b) { return Call("!=", {a, b}); }
Column operator<(const Column& a, const Column& b) { return Call("<", {a, b}); }
Column operator<=(const Column& a, const Column& b) { return Call("<=", {a, b}); }
Column operator>(const Column& a, const Column& b) { return Call(">", {a, b}); }
Column operator>=(const Column& a, const Column& b) { return Call(">=", {a, b}); }
Column operator&&(const Column& a, const Column& b) { return Call("and", {a, b}); }
Column operator||(const Column& a, const Column& b) { return Call("or", {a, b}); }
Column operator!(const Column& a) { return Call("not", {a}); }

}  // namespace sluice
