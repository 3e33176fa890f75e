// The syntax tree of a SQL query, as the parser reads it and before any name is resolved. The
// planner (api/sql_query_planner) turns it into a DataFrame with the same calls the DataFrame
// API makes, so both front ends share one analyzer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/expr/expression.h"

namespace sluice::sql {

struct Query;
using QueryPtr = std::shared_ptr<const Query>;
struct FromItem;
using FromItemPtr = std::shared_ptr<const FromItem>;

/// One item of a FROM clause: a table or view by name, a subquery, a join of two items, an
/// inline VALUES table or a table-valued function (`range(10)`).
struct FromItem {
  enum class Kind { kTable, kSubquery, kJoin, kValues, kTableFunction };
  Kind kind = Kind::kTable;
  /// Byte offset of the item in the statement, for errors.
  size_t offset = 0;

  /// kTable: the name as written (`db.t`); kTableFunction: the function's name.
  std::string name;
  /// kSubquery.
  QueryPtr subquery;
  /// `AS alias` (empty: none) and the column names of `alias(a, b)`.
  std::string alias;
  std::vector<std::string> column_aliases;

  /// kJoin: both sides, PySpark's `how` ("inner", "left", "right", "full", "semi", "anti",
  /// "cross"), and either an ON condition or USING columns (or neither).
  FromItemPtr left;
  FromItemPtr right;
  std::string join_type;
  expr::ExprPtr condition;
  std::vector<std::string> using_columns;

  /// kValues: the rows; kTableFunction: the arguments.
  std::vector<std::vector<expr::ExprPtr>> rows;
  std::vector<expr::ExprPtr> arguments;
};

/// `SELECT ... FROM ... WHERE ... GROUP BY ... HAVING ...`.
struct SelectClause {
  bool distinct = false;
  /// Named expressions; `*` and `t.*` are expr::Star.
  std::vector<expr::ExprPtr> items;
  /// Null for a SELECT without FROM (one row).
  FromItemPtr from;
  expr::ExprPtr where;
  /// GROUP BY expressions; an integer literal is an ordinal of the select list, a name may be
  /// a select-list alias. `GROUP BY ALL` leaves `group_by_all` set and the list empty.
  std::vector<expr::ExprPtr> group_by;
  bool group_by_all = false;
  /// Whether the clause has a GROUP BY at all (an empty one is a syntax error).
  bool grouped = false;
  expr::ExprPtr having;
  size_t offset = 0;
};

/// `name [(columns)] AS (query)` of a WITH list.
struct CommonTableExpression {
  std::string name;
  std::vector<std::string> columns;
  QueryPtr query;
};

/// A query: a SELECT or a set operation of two queries, with its WITH, ORDER BY and LIMIT.
struct Query {
  enum class Kind { kSelect, kSetOperation, kNested };
  Kind kind = Kind::kSelect;
  size_t offset = 0;

  /// kSelect.
  std::shared_ptr<const SelectClause> select;
  /// kSetOperation: "UNION", "EXCEPT" or "INTERSECT"; `all` for the ALL form (UNION ALL keeps
  /// duplicates). kNested: `left` is the parenthesized query.
  std::string set_operator;
  bool all = false;
  QueryPtr left;
  QueryPtr right;

  /// WITH name AS (query), ...: visible in this query and the ones after it in the list.
  std::vector<CommonTableExpression> ctes;
  /// expr::SortOrder nodes.
  std::vector<expr::ExprPtr> order_by;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset_rows;
};

/// A subquery inside an expression: `(SELECT ...)` (scalar), `EXISTS (SELECT ...)`, or
/// `x IN (SELECT ...)` (`operand` holds x). Only the SQL planner understands it; anywhere else
/// binding it fails with UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.
class SubqueryExpr final : public expr::Expr {
 public:
  enum class Form { kScalar, kExists, kIn };

  SubqueryExpr(Form form, QueryPtr query, expr::ExprPtr operand, std::string text)
      : expr::Expr(expr::ExprKind::kSubquery,
                   operand ? std::vector<expr::ExprPtr>{operand} : std::vector<expr::ExprPtr>{}),
        form_(form),
        query_(std::move(query)),
        text_(std::move(text)) {}

  Form form() const { return form_; }
  const QueryPtr& query() const { return query_; }
  /// x of `x IN (SELECT ...)`, else null.
  expr::ExprPtr operand() const { return children().empty() ? nullptr : children()[0]; }
  std::string ToString() const override { return text_; }

 private:
  Form form_;
  QueryPtr query_;
  std::string text_;
};

}  // namespace sluice::sql
