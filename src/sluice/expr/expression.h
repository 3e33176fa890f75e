#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/scalar.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

namespace sluice::expr {

class Expr;
/// Expressions are immutable and shared between plans.
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind {
  kColumn,      // a column reference by name parts: `a`, `t.a`, `s.field`
  kStar,        // `*` or `t.*` / `s.*`
  kLiteral,     // a typed constant
  kCall,        // a function call, including operators (`+` is a call of "+")
  kAlias,       // `expr AS name`
  kCast,        // `CAST(expr AS type)` / `try_cast`
  kCaseWhen,    // `CASE WHEN c THEN v ... ELSE e END`
  kExtract,     // `expr[key]` / `expr.field` on a non-column expression
  kSortOrder,   // `expr ASC|DESC NULLS FIRST|LAST`, only inside sort and window specs
  kInvalid,     // an expression that could not be built (bad type name, parse error)
  kSubquery,    // `(SELECT ...)`, `EXISTS (...)`, `x IN (SELECT ...)`: SQL only (sql/query_ast.h)
  kWindow,      // `function OVER (PARTITION BY ... ORDER BY ... frame)`
};

/// An unresolved expression, as built by the API (Column) and the SQL parser: names are not yet
/// bound to columns and functions are looked up by name. The binder turns it into a BoundExpr
/// against an input schema. Immutable; safe to share between threads.
class Expr {
 public:
  virtual ~Expr() = default;

  ExprKind kind() const { return kind_; }
  const std::vector<ExprPtr>& children() const { return children_; }

  /// The name Spark gives a column computed by this expression when it has no alias, e.g.
  /// `(a + 1)`, `upper(b)`, `CAST(a AS BIGINT)`, `count(1)`.
  virtual std::string ToString() const = 0;

 protected:
  Expr(ExprKind kind, std::vector<ExprPtr> children)
      : kind_(kind), children_(std::move(children)) {}

 private:
  ExprKind kind_;
  std::vector<ExprPtr> children_;
};

/// A column reference. `name_parts` is the dotted path (`t`, `a`, `field`); resolution decides
/// which prefix is a qualifier, which a column, which struct fields. `attribute_id` is set when the
/// column came from a specific DataFrame (`df["a"]`), which disambiguates self-joins.
class ColumnRef final : public Expr {
 public:
  explicit ColumnRef(std::vector<std::string> name_parts,
                     std::optional<int64_t> attribute_id = std::nullopt)
      : Expr(ExprKind::kColumn, {}),
        name_parts_(std::move(name_parts)),
        attribute_id_(attribute_id) {}

  const std::vector<std::string>& name_parts() const { return name_parts_; }
  std::optional<int64_t> attribute_id() const { return attribute_id_; }
  std::string ToString() const override;

 private:
  std::vector<std::string> name_parts_;
  std::optional<int64_t> attribute_id_;
};

/// `*` (empty target) or `target.*`, expanded by the binder into the matching columns or fields.
class Star final : public Expr {
 public:
  explicit Star(std::vector<std::string> target = {})
      : Expr(ExprKind::kStar, {}), target_(std::move(target)) {}
  const std::vector<std::string>& target() const { return target_; }
  std::string ToString() const override;

 private:
  std::vector<std::string> target_;
};

/// A constant of a fixed type; a null literal has a null scalar of its type (NullType for `NULL`).
class Literal final : public Expr {
 public:
  explicit Literal(std::shared_ptr<arrow::Scalar> value)
      : Expr(ExprKind::kLiteral, {}), value_(std::move(value)) {}
  const std::shared_ptr<arrow::Scalar>& value() const { return value_; }
  std::string ToString() const override;

 private:
  std::shared_ptr<arrow::Scalar> value_;
};

/// A call of a function or operator by its Spark name (lower case): "+", "=", "and", "upper".
/// `distinct` marks aggregate calls such as `count(DISTINCT a)`.
class Call final : public Expr {
 public:
  Call(std::string name, std::vector<ExprPtr> args, bool distinct = false)
      : Expr(ExprKind::kCall, std::move(args)), name_(std::move(name)), distinct_(distinct) {}
  const std::string& name() const { return name_; }
  bool distinct() const { return distinct_; }
  std::string ToString() const override;

 private:
  std::string name_;
  bool distinct_;
};

/// Gives its child an output name.
class Alias final : public Expr {
 public:
  Alias(ExprPtr child, std::string name)
      : Expr(ExprKind::kAlias, {std::move(child)}), name_(std::move(name)) {}
  const ExprPtr& child() const { return children()[0]; }
  const std::string& name() const { return name_; }
  std::string ToString() const override;

 private:
  std::string name_;
};

/// `CAST(child AS type)`; `try_cast` yields null instead of failing under ANSI.
class Cast final : public Expr {
 public:
  Cast(ExprPtr child, std::shared_ptr<arrow::DataType> type, bool is_try = false)
      : Expr(ExprKind::kCast, {std::move(child)}), type_(std::move(type)), is_try_(is_try) {}
  const ExprPtr& child() const { return children()[0]; }
  const std::shared_ptr<arrow::DataType>& type() const { return type_; }
  bool is_try() const { return is_try_; }
  /// True for a typed literal whose value depends on the session (`TIMESTAMP '2024-01-01
  /// 10:00:00'` is read in the session time zone): the binder folds it into a literal, named
  /// as Spark names that literal (`TIMESTAMP '...'` in the session time zone), not as a cast.
  bool typed_literal() const { return typed_literal_; }
  std::string ToString() const override;

  /// A typed literal of `type` written as the string `text`, converted when bound.
  static ExprPtr TypedLiteral(std::string text, std::shared_ptr<arrow::DataType> type);

 private:
  std::shared_ptr<arrow::DataType> type_;
  bool is_try_;
  bool typed_literal_ = false;
};

/// `CASE WHEN c1 THEN v1 ... [ELSE e] END`; children are c1, v1, c2, v2, ..., [e].
class CaseWhen final : public Expr {
 public:
  CaseWhen(std::vector<std::pair<ExprPtr, ExprPtr>> branches, ExprPtr otherwise);
  size_t num_branches() const { return num_branches_; }
  const ExprPtr& condition(size_t i) const { return children()[2 * i]; }
  const ExprPtr& value(size_t i) const { return children()[2 * i + 1]; }
  /// The ELSE value, or nullptr.
  ExprPtr otherwise() const;
  std::string ToString() const override;

 private:
  size_t num_branches_;
};

/// `child[key]` for arrays (0-based) and maps, or `child.field` for structs, when the child is not
/// a plain column path (those are resolved by ColumnRef).
class Extract final : public Expr {
 public:
  Extract(ExprPtr child, ExprPtr key)
      : Expr(ExprKind::kExtract, {std::move(child), std::move(key)}) {}
  const ExprPtr& child() const { return children()[0]; }
  const ExprPtr& key() const { return children()[1]; }
  std::string ToString() const override;
};

/// A sort key: `child ASC NULLS FIRST` by default, `DESC` puts nulls last, as in Spark.
class SortOrder final : public Expr {
 public:
  SortOrder(ExprPtr child, bool ascending, bool nulls_first)
      : Expr(ExprKind::kSortOrder, {std::move(child)}),
        ascending_(ascending),
        nulls_first_(nulls_first) {}
  const ExprPtr& child() const { return children()[0]; }
  bool ascending() const { return ascending_; }
  bool nulls_first() const { return nulls_first_; }
  std::string ToString() const override;

 private:
  bool ascending_;
  bool nulls_first_;
};

/// One end of a window frame: UNBOUNDED PRECEDING, CURRENT ROW, UNBOUNDED FOLLOWING, or an
/// offset from the current row (a row count for ROWS, a distance in the order key's values for
/// RANGE), negative before it, as Spark's rowsBetween(-1, 1) says.
struct WindowFrameBound {
  enum class Kind { kUnboundedPreceding, kCurrentRow, kUnboundedFollowing, kOffset };
  Kind kind = Kind::kCurrentRow;
  /// For kOffset: a constant expression (`-1`, or `-(1)` as SQL's `1 PRECEDING` is written).
  ExprPtr offset;

  static WindowFrameBound UnboundedPreceding() { return {Kind::kUnboundedPreceding, nullptr}; }
  static WindowFrameBound CurrentRow() { return {Kind::kCurrentRow, nullptr}; }
  static WindowFrameBound UnboundedFollowing() { return {Kind::kUnboundedFollowing, nullptr}; }
  static WindowFrameBound Offset(ExprPtr offset) { return {Kind::kOffset, std::move(offset)}; }
  /// Spark's rendering: `UNBOUNDED PRECEDING`, `CURRENT ROW`, `-1 FOLLOWING`, `1 PRECEDING`.
  std::string ToString() const;
};

/// ROWS or RANGE BETWEEN lower AND upper.
struct WindowFrame {
  enum class Type { kRows, kRange };
  Type type = Type::kRows;
  WindowFrameBound lower;
  WindowFrameBound upper;
  std::string ToString() const;
};

/// `function OVER (PARTITION BY ... ORDER BY ... frame)`: a ranking, offset or aggregate
/// function computed over the rows of the current row's partition. Children are the function
/// call, then the partition expressions, then the order keys (SortOrder or plain expressions).
/// Without a frame the function's default applies (Spark's: the whole partition without ORDER
/// BY, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with it). `window_name` is set for SQL's
/// `OVER w` until the WINDOW clause's definition replaces it.
class WindowExpr final : public Expr {
 public:
  WindowExpr(ExprPtr function, std::vector<ExprPtr> partition_by, std::vector<ExprPtr> order_by,
             std::optional<WindowFrame> frame, std::string window_name = {});
  const ExprPtr& function() const { return children()[0]; }
  std::vector<ExprPtr> partition_by() const;
  std::vector<ExprPtr> order_by() const;
  size_t num_partition_by() const { return num_partition_by_; }
  const std::optional<WindowFrame>& frame() const { return frame_; }
  const std::string& window_name() const { return window_name_; }
  /// The same window over other children (function, partition expressions, order keys).
  ExprPtr WithChildren(std::vector<ExprPtr> children) const;
  /// `function OVER (spec)` as written; the bound window node gives Spark's full name.
  std::string ToString() const override;

 private:
  size_t num_partition_by_;
  std::optional<WindowFrame> frame_;
  std::string window_name_;
};

/// Stands for an expression the API could not build (a type name or expression text that did not
/// parse): the API has no exceptions, so the error surfaces when the expression is bound.
class InvalidExpr final : public Expr {
 public:
  explicit InvalidExpr(arrow::Status error, std::string text)
      : Expr(ExprKind::kInvalid, {}), error_(std::move(error)), text_(std::move(text)) {}
  const arrow::Status& error() const { return error_; }
  std::string ToString() const override { return text_; }

 private:
  arrow::Status error_;
  std::string text_;
};

// Builders, for the API and the parser.
ExprPtr Col(std::string dotted_name);
ExprPtr ColumnPath(std::vector<std::string> name_parts);
ExprPtr Lit(std::shared_ptr<arrow::Scalar> value);
ExprPtr CallFunction(std::string name, std::vector<ExprPtr> args, bool distinct = false);

/// `e` rebuilt over `children` (one per child of `e`, in order) for the kinds of expression
/// that hold others (calls, aliases, casts, extract, sort orders, CASE); any other kind is
/// returned unchanged.
ExprPtr WithChildren(const ExprPtr& e, std::vector<ExprPtr> children);

/// `e` with every subexpression for which `matches` holds replaced by `replacement` (what a
/// replaced one contains is not visited). Rebuilds the kinds of expression that hold others
/// (calls, aliases, casts, extract, sort orders, CASE); a match under any other kind stays.
/// Used by the analyzer's rewrites of window() and session_window().
ExprPtr ReplaceSubexpressions(const ExprPtr& e, const std::function<bool(const Expr&)>& matches,
                              const ExprPtr& replacement);

/// Splits a column name on dots outside backticks: "a.`b.c`" -> {"a", "b.c"}.
std::vector<std::string> SplitColumnName(const std::string& dotted_name);

/// Formats a call the way Spark names it, given its arguments' names: infix operators as
/// `(a + b)`, `(NOT a)`, `(a IS NULL)`, `(a IN (1, 2))`, functions as `upper(b)`,
/// `count(DISTINCT a)`. Shared by unresolved and bound expressions.
std::string FormatCall(const std::string& name, const std::vector<std::string>& args,
                       bool distinct);

/// Renders a literal value the way Spark names a literal column: 1, 1L is `1`, 'x' is `x`,
/// 1.5D is `1.5`, 1e308 is `1.0E308` (Java's Double.toString), 1.50BD is `1.50`, NULL, true,
/// DATE '2024-01-01', TIMESTAMP '...' (in UTC here: the binder renders timestamps in the
/// session time zone).
std::string LiteralToString(const arrow::Scalar& value);

}  // namespace sluice::expr
