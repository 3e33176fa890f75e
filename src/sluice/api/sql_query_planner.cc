#include "sluice/api/sql_query_planner.h"

#include <string>
#include <utility>
#include <vector>

#include <arrow/scalar.h>
#include <arrow/table.h>

#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/api/session_state.h"
#include "sluice/api/window_inputs.h"
#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/plan/project.h"
#include "sluice/sql/sql_lexer.h"

namespace sluice {

namespace {

using expr::ExprKind;
using expr::ExprPtr;
using sql::FromItem;
using sql::Query;
using sql::SelectClause;
using sql::SubqueryExpr;

// Names given to helper columns the planner adds and removes again; a user's query cannot
// reach them by accident.
std::string HiddenName(const char* role, size_t index) {
  return "__sql_" + std::string(role) + "_" + std::to_string(index);
}

std::vector<ExprPtr> Conjuncts(const ExprPtr& condition) {
  if (condition->kind() == ExprKind::kCall) {
    const auto& call = static_cast<const expr::Call&>(*condition);
    if (call.name() == "and") {
      std::vector<ExprPtr> parts = Conjuncts(call.children()[0]);
      auto right = Conjuncts(call.children()[1]);
      parts.insert(parts.end(), right.begin(), right.end());
      return parts;
    }
  }
  return {condition};
}

ExprPtr AndAll(const std::vector<ExprPtr>& parts) {
  ExprPtr result;
  for (const auto& part : parts) {
    result = result ? expr::CallFunction("and", {result, part}) : part;
  }
  return result;
}

bool ContainsSubquery(const expr::Expr& e) {
  if (e.kind() == ExprKind::kSubquery) return true;
  for (const auto& child : e.children()) {
    if (ContainsSubquery(*child)) return true;
  }
  return false;
}

// The expression a select item computes, without its alias.
ExprPtr Unaliased(const ExprPtr& item) {
  if (item->kind() == ExprKind::kAlias) return static_cast<const expr::Alias&>(*item).child();
  return item;
}

// An integer literal's value (an ordinal in GROUP BY / ORDER BY), else nullopt.
std::optional<int64_t> IntegerLiteral(const ExprPtr& e) {
  if (e->kind() != ExprKind::kLiteral) return std::nullopt;
  const auto& scalar = *static_cast<const expr::Literal&>(*e).value();
  if (!scalar.is_valid || !arrow::is_integer(scalar.type->id())) return std::nullopt;
  auto value = scalar.CastTo(arrow::int64());
  if (!value.ok()) return std::nullopt;
  return static_cast<const arrow::Int64Scalar&>(**value).value;
}

// A bare column name (`a`, not `t.a`), else nullptr.
const expr::ColumnRef* BareName(const ExprPtr& e) {
  if (e->kind() != ExprKind::kColumn) return nullptr;
  const auto& column = static_cast<const expr::ColumnRef&>(*e);
  return column.name_parts().size() == 1 ? &column : nullptr;
}

std::vector<Column> Columns(const std::vector<ExprPtr>& exprs) {
  std::vector<Column> columns;
  columns.reserve(exprs.size());
  for (const auto& e : exprs) columns.emplace_back(e);
  return columns;
}

class Planner {
 public:
  explicit Planner(const SparkSession& session)
      : session_(session), state_(session.state()) {}

  arrow::Result<DataFrame> PlanQuery(const Query& query) {
    // A WITH list is visible to the rest of the list and to the query, not outside it.
    const size_t ctes_before = ctes_.size();
    for (const auto& cte : query.ctes) {
      ARROW_ASSIGN_OR_RAISE(auto df, PlanQuery(*cte.query));
      if (!cte.columns.empty()) {
        ARROW_ASSIGN_OR_RAISE(df, Checked(df.toDF(cte.columns)));
      }
      ctes_.emplace_back(AsciiLowerName(cte.name), std::move(df));
    }
    auto result = PlanQueryBody(query);
    ctes_.erase(ctes_.begin() + static_cast<std::ptrdiff_t>(ctes_before), ctes_.end());
    return result;
  }

 private:
  static std::string AsciiLowerName(const std::string& name) { return sql::AsciiLower(name); }

  arrow::Result<DataFrame> Checked(DataFrame df) {
    ARROW_RETURN_NOT_OK(df.status());
    return df;
  }

  bool Resolves(const DataFrame& df, const ExprPtr& e) {
    if (!df.ok()) return false;
    auto context = state_->analysis_context();
    return expr::Bind(*e, plan::ScopeOf(*df.plan(), context)).ok();
  }

  arrow::Result<DataFrame> PlanQueryBody(const Query& query) {
    switch (query.kind) {
      case Query::Kind::kSelect:
        return PlanSelect(*query.select, query);
      case Query::Kind::kNested: {
        ARROW_ASSIGN_OR_RAISE(auto inner, PlanQuery(*query.left));
        return ApplyOrderAndLimit(std::move(inner), query);
      }
      case Query::Kind::kSetOperation: {
        ARROW_ASSIGN_OR_RAISE(auto left, PlanQuery(*query.left));
        ARROW_ASSIGN_OR_RAISE(auto right, PlanQuery(*query.right));
        ARROW_ASSIGN_OR_RAISE(auto combined, PlanSetOperation(query, left, right));
        return ApplyOrderAndLimit(std::move(combined), query);
      }
    }
    return arrow::Status::Invalid("unknown query kind");
  }

  // UNION [ALL] by position; EXCEPT and INTERSECT (DISTINCT) as Spark rewrites them: an anti or
  // semi join on null-safe equality of every column, of the left side's distinct rows.
  arrow::Result<DataFrame> PlanSetOperation(const Query& query, const DataFrame& left,
                                            const DataFrame& right) {
    if (query.set_operator == "UNION") {
      DataFrame all = left.union_(right);
      return Checked(query.all ? all : all.distinct());
    }
    if (query.all) {
      return SparkError("UNSUPPORTED_FEATURE.SET_OPERATION",
                        "The feature is not supported: " + query.set_operator +
                            " ALL. Use " + query.set_operator + " (DISTINCT).");
    }
    const auto left_columns = left.columns();
    const auto right_columns = right.columns();
    if (left_columns.size() != right_columns.size()) {
      return SparkError("NUM_COLUMNS_MISMATCH",
                        query.set_operator + " can only be performed on inputs with the same "
                        "number of columns, but the first input has " +
                            std::to_string(left_columns.size()) + " columns and the second input "
                            "has " + std::to_string(right_columns.size()) + " columns.");
    }
    std::vector<std::string> renamed;
    for (size_t i = 0; i < right_columns.size(); ++i) renamed.push_back(HiddenName("right", i));
    DataFrame other = right.toDF(renamed);
    DataFrame distinct = left.distinct();
    ARROW_RETURN_NOT_OK(distinct.status());
    std::vector<ExprPtr> equal;
    for (size_t i = 0; i < renamed.size(); ++i) {
      const auto& attribute = distinct.plan()->output()[i];
      equal.push_back(expr::CallFunction(
          "<=>", {std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                                    attribute.id),
                  expr::Col(renamed[i])}));
    }
    return Checked(distinct.join(other, Column(AndAll(equal)),
                                 query.set_operator == "EXCEPT" ? "anti" : "semi"));
  }

  arrow::Result<DataFrame> ApplyOrderAndLimit(DataFrame df, const Query& query) {
    if (!query.order_by.empty()) {
      std::vector<Column> keys;
      for (const auto& key : query.order_by) {
        ARROW_ASSIGN_OR_RAISE(auto resolved, OrdinalSortKey(key, df));
        keys.emplace_back(resolved);
      }
      df = df.orderBy(std::move(keys));
    }
    return ApplyLimit(std::move(df), query);
  }

  arrow::Result<DataFrame> ApplyLimit(DataFrame df, const Query& query) {
    if (query.offset_rows && *query.offset_rows > 0) {
      return SparkError("UNSUPPORTED_FEATURE.OFFSET", "The feature is not supported: OFFSET.");
    }
    if (query.limit) df = df.limit(*query.limit);
    return Checked(std::move(df));
  }

  // ORDER BY n names the n-th output column.
  arrow::Result<ExprPtr> OrdinalSortKey(const ExprPtr& key, const DataFrame& df) {
    const auto& order = static_cast<const expr::SortOrder&>(*key);
    auto ordinal = IntegerLiteral(order.child());
    if (!ordinal) return key;
    const auto& output = df.plan()->output();
    if (*ordinal < 1 || *ordinal > static_cast<int64_t>(output.size())) {
      return SparkError("ORDER_BY_POS_OUT_OF_RANGE",
                        "ORDER BY position " + std::to_string(*ordinal) +
                            " is not in select list (valid range is [1, " +
                            std::to_string(output.size()) + "]).");
    }
    const auto& attribute = output[*ordinal - 1];
    return ExprPtr(std::make_shared<expr::SortOrder>(
        std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                          attribute.id),
        order.ascending(), order.nulls_first()));
  }

  // ---- FROM ------------------------------------------------------------------------------

  arrow::Result<DataFrame> PlanFrom(const FromItem& item) {
    DataFrame df = DataFrame(state_, arrow::Status::OK());
    std::string default_alias;
    switch (item.kind) {
      case FromItem::Kind::kTable: {
        ARROW_ASSIGN_OR_RAISE(df, PlanTable(item.name));
        // A table's columns can be qualified by its name: t.a.
        auto dot = item.name.rfind('.');
        default_alias = dot == std::string::npos ? item.name : item.name.substr(dot + 1);
        if (default_alias.size() >= 2 && default_alias.front() == '`') {
          default_alias = default_alias.substr(1, default_alias.size() - 2);
        }
        break;
      }
      case FromItem::Kind::kSubquery: {
        ARROW_ASSIGN_OR_RAISE(df, PlanQuery(*item.subquery));
        break;
      }
      case FromItem::Kind::kJoin: {
        ARROW_ASSIGN_OR_RAISE(df, PlanJoin(item));
        break;
      }
      case FromItem::Kind::kValues: {
        ARROW_ASSIGN_OR_RAISE(df, PlanValues(item));
        break;
      }
      case FromItem::Kind::kTableFunction: {
        ARROW_ASSIGN_OR_RAISE(df, PlanTableFunction(item));
        break;
      }
    }
    if (!item.column_aliases.empty()) {
      if (item.column_aliases.size() != df.columns().size()) {
        return SparkError("ASSIGNMENT_ARITY_MISMATCH",
                          "The number of columns in the alias list (" +
                              std::to_string(item.column_aliases.size()) +
                              ") does not match the number of columns of the relation (" +
                              std::to_string(df.columns().size()) + ").");
      }
      df = df.toDF(item.column_aliases);
    }
    const std::string& alias = item.alias.empty() ? default_alias : item.alias;
    if (!alias.empty()) df = df.alias(alias);
    return Checked(std::move(df));
  }

  arrow::Result<DataFrame> PlanTable(const std::string& name) {
    const std::string lower = AsciiLowerName(name);
    for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
      if (it->first == lower) return it->second;
    }
    return Checked(DataFrameReader(state_).table(name));
  }

  arrow::Result<DataFrame> PlanJoin(const FromItem& item) {
    ARROW_ASSIGN_OR_RAISE(auto left, PlanFrom(*item.left));
    ARROW_ASSIGN_OR_RAISE(auto right, PlanFrom(*item.right));
    if (!item.using_columns.empty()) {
      return Checked(left.join(right, item.using_columns, item.join_type));
    }
    if (!item.condition) {
      if (item.join_type == "inner" || item.join_type == "cross") {
        return Checked(left.crossJoin(right));
      }
      return Checked(left.join(right, Column(expr::Lit(arrow::MakeScalar(true))),
                               item.join_type));
    }
    if (ContainsSubquery(*item.condition)) {
      return SparkError("UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY",
                        "Unsupported subquery expression: subqueries are not allowed in a "
                        "join condition: " + item.condition->ToString() + ".");
    }
    return Checked(left.join(right, Column(item.condition), item.join_type));
  }

  // VALUES rows become one-row projections united by position; columns are col1, col2, ...
  arrow::Result<DataFrame> PlanValues(const FromItem& item) {
    DataFrame one_row = session_.range(1);
    std::optional<DataFrame> result;
    for (const auto& row : item.rows) {
      std::vector<Column> values;
      for (size_t i = 0; i < row.size(); ++i) {
        values.push_back(Column(row[i]).alias("col" + std::to_string(i + 1)));
      }
      DataFrame projected = one_row.select(std::move(values));
      result = result ? result->union_(projected) : projected;
    }
    return Checked(*result);
  }

  arrow::Result<DataFrame> PlanTableFunction(const FromItem& item) {
    if (item.name != "range") {
      return SparkError("UNRESOLVABLE_TABLE_VALUED_FUNCTION",
                        "Could not resolve `" + item.name +
                            "` to a table-valued function. The table-valued function of Sluice "
                            "is range.");
    }
    std::vector<int64_t> values;
    for (const auto& argument : item.arguments) {
      auto value = IntegerLiteral(argument);
      if (!value) {
        return SparkError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                          "The arguments of range must be integer literals, but got " +
                              argument->ToString() + ".");
      }
      values.push_back(*value);
    }
    switch (values.size()) {
      case 1:
        return Checked(session_.range(values[0]));
      case 2:
        return Checked(session_.range(values[0], values[1]));
      case 3:
        return Checked(session_.range(values[0], values[1], values[2]));
      default:
        return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                          "The `range` requires [1, 2, 3] parameters but the actual number is " +
                              std::to_string(values.size()) + ".");
    }
  }

  // ---- subqueries --------------------------------------------------------------------------

  // Runs an uncorrelated scalar subquery and returns its value as a literal: Spark evaluates
  // a scalar subquery once, before the query that uses it.
  arrow::Result<ExprPtr> ScalarSubqueryValue(const SubqueryExpr& subquery) {
    ARROW_ASSIGN_OR_RAISE(auto df, PlanQuery(*subquery.query()));
    if (df.columns().size() != 1) {
      return SparkError("INVALID_SUBQUERY_EXPRESSION.SCALAR_SUBQUERY_RETURN_MORE_THAN_ONE_OUTPUT_COLUMN",
                        "Invalid subquery: scalar subquery must return only one column, but got " +
                            std::to_string(df.columns().size()) + ".");
    }
    if (df.isStreaming()) {
      return SparkError("UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY",
                        "Unsupported subquery expression: a scalar subquery over a stream: " +
                            subquery.ToString() + ".");
    }
    ARROW_ASSIGN_OR_RAISE(auto table, df.limit(2).collect());
    if (table->num_rows() > 1) {
      return SparkError("SCALAR_SUBQUERY_TOO_MANY_ROWS",
                        "More than one row returned by a subquery used as an expression.");
    }
    const auto& column = table->column(0);
    if (table->num_rows() == 0) {
      return expr::Lit(arrow::MakeNullScalar(column->type()));
    }
    ARROW_ASSIGN_OR_RAISE(auto value, column->GetScalar(0));
    return expr::Lit(std::move(value));
  }

  // Replaces every scalar subquery in `e` by its value; EXISTS and IN subqueries are left
  // for the WHERE planning (and refused by the binder anywhere else).
  arrow::Result<ExprPtr> InlineScalarSubqueries(const ExprPtr& e) {
    if (!ContainsSubquery(*e)) return e;
    if (e->kind() == ExprKind::kSubquery) {
      const auto& subquery = static_cast<const SubqueryExpr&>(*e);
      if (subquery.form() == SubqueryExpr::Form::kScalar) return ScalarSubqueryValue(subquery);
      return e;
    }
    std::vector<const SubqueryExpr*> found;
    CollectScalarSubqueries(*e, found);
    ExprPtr result = e;
    for (const SubqueryExpr* subquery : found) {
      ARROW_ASSIGN_OR_RAISE(auto value, ScalarSubqueryValue(*subquery));
      result = expr::ReplaceSubexpressions(
          result, [subquery](const expr::Expr& node) { return &node == subquery; }, value);
    }
    return result;
  }

  static void CollectScalarSubqueries(const expr::Expr& e, std::vector<const SubqueryExpr*>& out) {
    if (e.kind() == ExprKind::kSubquery) {
      const auto& subquery = static_cast<const SubqueryExpr&>(e);
      if (subquery.form() == SubqueryExpr::Form::kScalar) out.push_back(&subquery);
      return;
    }
    for (const auto& child : e.children()) CollectScalarSubqueries(*child, out);
  }

  // A WHERE conjunct `[NOT] EXISTS (q)` or `x [NOT] IN (q)` as a semi (anti) join of `input`
  // with q: uncorrelated, or correlated by conditions of q's WHERE that name outer columns.
  arrow::Result<DataFrame> PlanPredicateSubquery(const DataFrame& input, const SubqueryExpr& sub,
                                                 bool negated) {
    const Query& query = *sub.query();
    std::vector<ExprPtr> condition;
    // An uncorrelated subquery plans on its own. One that does not may be a correlated simple
    // SELECT ... FROM ... WHERE: the conjuncts of its WHERE that do not resolve inside it join
    // it to the outer query.
    auto whole = PlanQuery(query);
    DataFrame inner(state_, arrow::Status::OK());
    std::vector<ExprPtr> correlated;
    if (whole.ok()) {
      inner = *std::move(whole);
    } else {
      const bool simple = query.kind == Query::Kind::kSelect && query.ctes.empty() &&
                          query.select->from && !query.select->grouped &&
                          !query.select->distinct && !query.select->having &&
                          query.order_by.empty() && !query.limit;
      if (!simple) return whole.status();
      ARROW_ASSIGN_OR_RAISE(inner, PlanFrom(*query.select->from));
      if (query.select->where) {
        for (const auto& part : Conjuncts(query.select->where)) {
          if (ContainsSubquery(*part) || Resolves(inner, part)) {
            ARROW_ASSIGN_OR_RAISE(inner, PlanWhere(inner, part));
          } else {
            correlated.push_back(part);
          }
        }
      }
      if (correlated.empty()) return whole.status();
    }
    if (sub.form() == SubqueryExpr::Form::kIn) {
      ExprPtr value;
      if (correlated.empty()) {
        if (inner.columns().size() != 1) {
          return SparkError("INVALID_SUBQUERY_EXPRESSION",
                            "The IN subquery must return one column, but returns " +
                                std::to_string(inner.columns().size()) + ": " +
                                sub.ToString() + ".");
        }
        const std::string name = HiddenName("in", next_hidden_++);
        inner = inner.toDF({name});
        value = expr::Col(name);
      } else {
        if (query.select->items.size() != 1) {
          return SparkError("INVALID_SUBQUERY_EXPRESSION",
                            "The IN subquery must return one column: " + sub.ToString() + ".");
        }
        value = Unaliased(query.select->items[0]);
      }
      ExprPtr equal = expr::CallFunction("=", {sub.operand(), value});
      // NOT IN is false (not null) only when no value equals x and none is null: the anti
      // join drops a row whose comparison is true or unknown, as Spark's null-aware rewrite.
      if (negated) equal = expr::CallFunction("or", {equal, expr::CallFunction("isnull", {equal})});
      condition.push_back(equal);
    }
    condition.insert(condition.end(), correlated.begin(), correlated.end());
    const std::string how = negated ? "anti" : "semi";
    if (condition.empty()) {
      return Checked(input.join(inner, Column(expr::Lit(arrow::MakeScalar(true))), how));
    }
    return Checked(input.join(inner, Column(AndAll(condition)), how));
  }

  // Filters `input` by one WHERE conjunct, as a semi/anti join when it is a predicate
  // subquery.
  arrow::Result<DataFrame> PlanWhere(const DataFrame& input, const ExprPtr& conjunct) {
    ExprPtr part = conjunct;
    bool negated = false;
    if (part->kind() == ExprKind::kCall &&
        static_cast<const expr::Call&>(*part).name() == "not" &&
        part->children()[0]->kind() == ExprKind::kSubquery) {
      negated = true;
      part = part->children()[0];
    }
    if (part->kind() == ExprKind::kSubquery) {
      const auto& sub = static_cast<const SubqueryExpr&>(*part);
      if (sub.form() != SubqueryExpr::Form::kScalar) {
        return PlanPredicateSubquery(input, sub, negated);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto condition, InlineScalarSubqueries(conjunct));
    return Checked(input.filter(Column(condition)));
  }

  // ---- SELECT ------------------------------------------------------------------------------

  arrow::Result<DataFrame> PlanSelect(const SelectClause& select, const Query& query) {
    DataFrame input = select.from ? DataFrame(state_, arrow::Status::OK()) : session_.range(1);
    if (select.from) {
      ARROW_ASSIGN_OR_RAISE(input, PlanFrom(*select.from));
    } else {
      // SELECT without FROM reads one row with no columns.
      input = input.select(std::vector<Column>{});
    }
    if (select.where) {
      for (const auto& conjunct : Conjuncts(select.where)) {
        ARROW_ASSIGN_OR_RAISE(input, PlanWhere(input, conjunct));
      }
    }
    std::vector<ExprPtr> items;
    for (const auto& item : select.items) {
      ARROW_ASSIGN_OR_RAISE(auto inlined, InlineScalarSubqueries(item));
      items.push_back(std::move(inlined));
    }
    const auto& registry = *state_->registry;
    bool aggregated = select.grouped || (select.having != nullptr);
    for (const auto& item : items) {
      aggregated = aggregated || expr::ContainsAggregate(*item, registry);
    }
    if (aggregated) return PlanAggregateSelect(input, select, items, query);
    return PlanProjectSelect(input, select, items, query);
  }

  // SELECT without aggregates: the projection, with ORDER BY keys that are not in the select
  // list computed as hidden columns before the sort and dropped after it.
  arrow::Result<DataFrame> PlanProjectSelect(const DataFrame& input, const SelectClause& select,
                                             std::vector<ExprPtr> items, const Query& query) {
    DataFrame projected = input.select(Columns(items));
    ARROW_RETURN_NOT_OK(projected.status());
    if (select.distinct) projected = projected.distinct();
    if (query.order_by.empty()) return ApplyLimit(std::move(projected), query);
    std::vector<Column> keys;
    std::vector<Column> hidden;
    for (const auto& key : query.order_by) {
      ARROW_ASSIGN_OR_RAISE(auto resolved, OrdinalSortKey(key, projected));
      const auto& order = static_cast<const expr::SortOrder&>(*resolved);
      if (Resolves(projected, order.child()) || select.distinct) {
        keys.emplace_back(resolved);
        continue;
      }
      const std::string name = HiddenName("sort", next_hidden_++);
      hidden.push_back(Column(order.child()).alias(name));
      keys.emplace_back(std::make_shared<expr::SortOrder>(expr::Col(name), order.ascending(),
                                                          order.nulls_first()));
    }
    if (hidden.empty()) {
      return ApplyLimit(projected.orderBy(std::move(keys)), query);
    }
    // The hidden keys are computed from the input next to the select list.
    std::vector<Column> with_hidden = Columns(items);
    with_hidden.insert(with_hidden.end(), hidden.begin(), hidden.end());
    DataFrame sorted = input.select(std::move(with_hidden)).orderBy(std::move(keys));
    ARROW_RETURN_NOT_OK(sorted.status());
    ARROW_ASSIGN_OR_RAISE(auto limited, ApplyLimit(std::move(sorted), query));
    return DropHidden(limited, hidden.size());
  }

  // Drops the last `count` columns, keeping the others' attributes.
  arrow::Result<DataFrame> DropHidden(const DataFrame& df, size_t count) {
    const auto& output = df.plan()->output();
    std::vector<Column> visible;
    for (size_t i = 0; i + count < output.size(); ++i) {
      visible.emplace_back(std::make_shared<expr::ColumnRef>(
          std::vector<std::string>{output[i].name}, output[i].id));
    }
    return Checked(df.select(std::move(visible)));
  }

  // The GROUP BY keys: ordinals and select-list aliases stand for the select items' expressions
  // (an alias only when no input column has that name, as spark.sql.groupByAliases).
  arrow::Result<std::vector<ExprPtr>> GroupingKeys(const DataFrame& input,
                                                   const SelectClause& select,
                                                   const std::vector<ExprPtr>& items) {
    std::vector<ExprPtr> keys;
    const auto& registry = *state_->registry;
    if (select.group_by_all) {
      for (const auto& item : items) {
        if (!expr::ContainsAggregate(*item, registry)) keys.push_back(Unaliased(item));
      }
      return keys;
    }
    for (const auto& key : select.group_by) {
      if (auto ordinal = IntegerLiteral(key)) {
        if (*ordinal < 1 || *ordinal > static_cast<int64_t>(items.size())) {
          return SparkError("GROUP_BY_POS_OUT_OF_RANGE",
                            "GROUP BY position " + std::to_string(*ordinal) +
                                " is not in select list (valid range is [1, " +
                                std::to_string(items.size()) + "]).");
        }
        ExprPtr item = Unaliased(items[*ordinal - 1]);
        if (expr::ContainsAggregate(*item, registry)) {
          return SparkError("GROUP_BY_POS_AGGREGATE",
                            "GROUP BY " + std::to_string(*ordinal) +
                                " refers to an expression " + item->ToString() +
                                " that contains an aggregate function. Aggregate functions are "
                                "not allowed in GROUP BY.");
        }
        keys.push_back(std::move(item));
        continue;
      }
      if (const auto* name = BareName(key); name != nullptr && !Resolves(input, key)) {
        bool found = false;
        for (const auto& item : items) {
          if (item->kind() == ExprKind::kAlias &&
              sql::AsciiLower(static_cast<const expr::Alias&>(*item).name()) ==
                  sql::AsciiLower(name->name_parts()[0])) {
            keys.push_back(Unaliased(item));
            found = true;
            break;
          }
        }
        if (found) continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto inlined, InlineScalarSubqueries(key));
      keys.push_back(std::move(inlined));
    }
    return keys;
  }

  // SELECT with GROUP BY or aggregates: one Aggregate whose output is the select list (plus
  // hidden aggregates that HAVING and ORDER BY need), then HAVING, DISTINCT, ORDER BY, LIMIT,
  // and a projection dropping the hidden columns.
  arrow::Result<DataFrame> PlanAggregateSelect(const DataFrame& input, const SelectClause& select,
                                               std::vector<ExprPtr> items, const Query& query) {
    ARROW_ASSIGN_OR_RAISE(auto keys, GroupingKeys(input, select, items));
    for (const auto& item : items) {
      if (expr::ContainsWindow(*item)) {
        return PlanAggregateWindowSelect(input, select, std::move(items), keys, query);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto aggregated, Aggregate(input, keys, items));
    size_t hidden = 0;
    ExprPtr having;
    if (select.having) {
      ARROW_ASSIGN_OR_RAISE(having, InlineScalarSubqueries(select.having));
      // HAVING names the output (aliases) when it can; otherwise it is computed per group.
      if (!Resolves(aggregated, having)) {
        const std::string name = HiddenName("having", next_hidden_++);
        items.push_back(std::make_shared<expr::Alias>(having, name));
        ++hidden;
        having = expr::Col(name);
      }
    }
    std::vector<ExprPtr> sort_keys;
    for (const auto& key : query.order_by) {
      ARROW_ASSIGN_OR_RAISE(auto resolved, OrdinalSortKey(key, aggregated));
      const auto& order = static_cast<const expr::SortOrder&>(*resolved);
      if (Resolves(aggregated, order.child()) || select.distinct) {
        sort_keys.push_back(resolved);
        continue;
      }
      const std::string name = HiddenName("sort", next_hidden_++);
      items.push_back(std::make_shared<expr::Alias>(order.child(), name));
      ++hidden;
      sort_keys.push_back(std::make_shared<expr::SortOrder>(expr::Col(name), order.ascending(),
                                                            order.nulls_first()));
    }
    if (hidden > 0) {
      ARROW_ASSIGN_OR_RAISE(aggregated, Aggregate(input, keys, items));
    }
    if (having) aggregated = aggregated.filter(Column(having));
    if (select.distinct) aggregated = aggregated.distinct();
    if (!sort_keys.empty()) aggregated = aggregated.orderBy(Columns(sort_keys));
    ARROW_ASSIGN_OR_RAISE(aggregated, ApplyLimit(std::move(aggregated), query));
    if (hidden == 0) return aggregated;
    return DropHidden(aggregated, hidden);
  }

  // SELECT with aggregates and window functions (window_inputs.h): the Aggregate computes the
  // select items without windows and the window functions' inputs; HAVING filters its rows;
  // the select list is a projection over them, where the window functions run.
  arrow::Result<DataFrame> PlanAggregateWindowSelect(const DataFrame& input,
                                                     const SelectClause& select,
                                                     std::vector<ExprPtr> items,
                                                     const std::vector<ExprPtr>& keys,
                                                     const Query& query) {
    std::vector<ExprPtr> plain_items;
    std::vector<int> plain(items.size(), -1);  // an item's position in the Aggregate
    for (size_t i = 0; i < items.size(); ++i) {
      if (expr::ContainsWindow(*items[i])) continue;
      plain[i] = static_cast<int>(plain_items.size());
      plain_items.push_back(items[i]);
    }
    WindowInputs inputs(std::move(plain_items));
    std::vector<ExprPtr> windowed(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      if (plain[i] < 0) windowed[i] = inputs.Extract(items[i]);
    }
    std::vector<ExprPtr> aggregate_items = inputs.aggregate_items();
    ExprPtr having;
    if (select.having) {
      ARROW_ASSIGN_OR_RAISE(having, InlineScalarSubqueries(select.having));
      aggregate_items.push_back(std::make_shared<expr::Alias>(having, HiddenName("having", 0)));
      having = expr::Col(HiddenName("having", 0));
    }
    ARROW_ASSIGN_OR_RAISE(auto aggregated, Aggregate(input, keys, aggregate_items));
    if (having) aggregated = aggregated.filter(Column(having));
    // The select list over the Aggregate's rows: columns by id (a hidden input may share its
    // name with an item), named as Spark names them (`RANK() OVER (ORDER BY count(1) ...)`).
    const auto& output = aggregated.plan()->output();
    auto reference = [&](size_t position) -> ExprPtr {
      return std::make_shared<expr::ColumnRef>(
          std::vector<std::string>{output[position].name}, output[position].id);
    };
    std::vector<ExprPtr> final_items;
    for (size_t i = 0; i < items.size(); ++i) {
      final_items.push_back(plain[i] >= 0 ? reference(plain[i])
                                          : inputs.Resolve(windowed[i], reference));
    }
    SelectClause projection;
    projection.distinct = select.distinct;
    return PlanProjectSelect(aggregated, projection, std::move(final_items), query);
  }

  arrow::Result<DataFrame> Aggregate(const DataFrame& input, const std::vector<ExprPtr>& keys,
                                     const std::vector<ExprPtr>& items) {
    return Checked(AggregateSelectList(input, Columns(keys), Columns(items)));
  }

  const SparkSession& session_;
  std::shared_ptr<SessionState> state_;
  /// Common table expressions in scope, innermost last, by lower-case name.
  std::vector<std::pair<std::string, DataFrame>> ctes_;
  size_t next_hidden_ = 0;
};

}  // namespace

DataFrame PlanSqlQuery(const SparkSession& session, const sql::Query& query) {
  Planner planner(session);
  auto result = planner.PlanQuery(query);
  if (!result.ok()) return DataFrame(session.state(), result.status());
  return *std::move(result);
}

}  // namespace sluice
