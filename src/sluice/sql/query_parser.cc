#include "sluice/sql/query_parser.h"

#include <map>

#include <arrow/scalar.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"

namespace sluice::sql {

namespace {

using Kind = SqlToken::Kind;

bool StartsSelect(const SqlToken& token) {
  return token.IsKeyword("SELECT") || token.IsKeyword("VALUES") || token.IsKeyword("TABLE") ||
         token.IsKeyword("FROM");
}

// Replaces each `OVER name` in `e` by the window `name` defines in the WINDOW clause.
arrow::Result<expr::ExprPtr> ResolveWindowNames(
    const expr::ExprPtr& e, const std::map<std::string, expr::ExprPtr>& windows) {
  std::vector<expr::ExprPtr> children;
  bool changed = false;
  for (const auto& child : e->children()) {
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveWindowNames(child, windows));
    changed = changed || resolved != child;
    children.push_back(std::move(resolved));
  }
  auto rebuilt = changed ? expr::WithChildren(e, std::move(children)) : e;
  if (rebuilt->kind() != expr::ExprKind::kWindow) return rebuilt;
  const auto& window = static_cast<const expr::WindowExpr&>(*rebuilt);
  if (window.window_name().empty()) return rebuilt;
  auto found = windows.find(AsciiLower(window.window_name()));
  if (found == windows.end()) {
    return SparkError("MISSING_WINDOW_SPECIFICATION",
                      "Window specification " + window.window_name() +
                          " is not defined in the WINDOW clause for " +
                          window.function()->ToString() + ".");
  }
  const auto& definition = static_cast<const expr::WindowExpr&>(*found->second);
  return std::make_shared<expr::WindowExpr>(window.function(), definition.partition_by(),
                                            definition.order_by(), definition.frame());
}

}  // namespace

QueryParser::QueryParser(std::string_view input, const std::vector<SqlToken>& tokens)
    : expressions_(input, tokens) {
  expressions_.set_subquery_reader(this);
}

bool QueryParser::AtQuery() const {
  const SqlToken& token = expressions_.Peek();
  return StartsSelect(token) || token.IsKeyword("WITH") || token.IsSymbol("(");
}

arrow::Result<QueryPtr> QueryParser::ParseQuery() {
  auto& p = expressions_;
  const size_t offset = p.Peek().offset;
  std::vector<CommonTableExpression> ctes;
  if (p.AcceptKeyword("WITH")) {
    if (p.Peek().IsKeyword("RECURSIVE")) {
      return p.SyntaxError(p.Peek(), ": recursive common table expressions are not supported");
    }
    do {
      CommonTableExpression cte;
      ARROW_ASSIGN_OR_RAISE(cte.name, p.ParseIdentifier());
      // `name (a, b) AS (query)`: column names; `name (query)`: AS may be left out.
      const SqlToken& inside = p.Peek(1);
      if (p.Peek().IsSymbol("(") && !StartsSelect(inside) && !inside.IsKeyword("WITH") &&
          !inside.IsSymbol("(")) {
        ARROW_ASSIGN_OR_RAISE(cte.columns, ParseIdentifierList());
      }
      p.AcceptKeyword("AS");
      ARROW_RETURN_NOT_OK(p.ExpectSymbol("("));
      ARROW_ASSIGN_OR_RAISE(cte.query, ParseQuery());
      ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
      ctes.push_back(std::move(cte));
    } while (p.AcceptSymbol(","));
  }
  ARROW_ASSIGN_OR_RAISE(auto term, ParseSetOperations(0));
  // The clauses after the term apply to its result: after a set operation, to the whole of it.
  auto query = std::make_shared<Query>(*term);
  query->offset = offset;
  query->ctes = std::move(ctes);
  if (p.AcceptKeyword("ORDER") || p.AcceptKeyword("SORT")) {
    ARROW_RETURN_NOT_OK(p.ExpectKeyword("BY"));
    do {
      ARROW_ASSIGN_OR_RAISE(auto key, p.ParseSortItem());
      query->order_by.push_back(std::move(key));
    } while (p.AcceptSymbol(","));
  }
  if (p.AcceptKeyword("LIMIT")) {
    if (!p.AcceptKeyword("ALL")) {
      ARROW_ASSIGN_OR_RAISE(query->limit, ParseRowCount("LIMIT"));
    }
  }
  if (p.AcceptKeyword("OFFSET")) {
    ARROW_ASSIGN_OR_RAISE(query->offset_rows, ParseRowCount("OFFSET"));
  }
  return query;
}

arrow::Result<int64_t> QueryParser::ParseRowCount(const char* clause) {
  auto& p = expressions_;
  const SqlToken& token = p.Peek();
  ARROW_ASSIGN_OR_RAISE(auto value, p.ParseExpression());
  if (value->kind() == expr::ExprKind::kLiteral) {
    const auto& scalar = *static_cast<const expr::Literal&>(*value).value();
    if (scalar.is_valid && arrow::is_integer(scalar.type->id())) {
      auto as_int64 = scalar.CastTo(arrow::int64());
      if (as_int64.ok()) {
        int64_t count = static_cast<const arrow::Int64Scalar&>(**as_int64).value;
        if (count >= 0) return count;
      }
    }
  }
  return SqlParseError(p.input(), token.offset, "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                       std::string("The ") + clause + " expression \"" + value->ToString() +
                           "\" is invalid: it must be a non-negative integer literal.");
}

// Set operations by precedence: INTERSECT binds tighter than UNION, EXCEPT and MINUS, as in
// Spark (spark.sql.legacy.setopsPrecedence.enabled=false); both are left-associative.
arrow::Result<QueryPtr> QueryParser::ParseSetOperations(int level) {
  auto& p = expressions_;
  if (level == 2) return ParseQueryPrimary();
  ARROW_ASSIGN_OR_RAISE(auto left, ParseSetOperations(level + 1));
  while (true) {
    const SqlToken& token = p.Peek();
    std::string op;
    if (level == 0 && (token.IsKeyword("UNION") || token.IsKeyword("EXCEPT") ||
                       token.IsKeyword("MINUS"))) {
      op = token.IsKeyword("UNION") ? "UNION" : "EXCEPT";
    } else if (level == 1 && token.IsKeyword("INTERSECT")) {
      op = "INTERSECT";
    } else {
      return left;
    }
    p.Next();
    bool all = p.AcceptKeyword("ALL");
    if (!all) p.AcceptKeyword("DISTINCT");
    ARROW_ASSIGN_OR_RAISE(auto right, ParseSetOperations(level + 1));
    auto node = std::make_shared<Query>();
    node->kind = Query::Kind::kSetOperation;
    node->offset = left->offset;
    node->set_operator = op;
    node->all = all;
    node->left = std::move(left);
    node->right = std::move(right);
    left = std::move(node);
  }
}

arrow::Result<QueryPtr> QueryParser::ParseQueryPrimary() {
  auto& p = expressions_;
  const SqlToken& token = p.Peek();
  auto query = std::make_shared<Query>();
  query->offset = token.offset;
  if (p.AcceptSymbol("(")) {
    ARROW_ASSIGN_OR_RAISE(auto inner, ParseQuery());
    ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
    query->kind = Query::Kind::kNested;
    query->left = std::move(inner);
    return query;
  }
  if (token.IsKeyword("SELECT") || token.IsKeyword("FROM")) {
    ARROW_ASSIGN_OR_RAISE(query->select, ParseSelect());
    return query;
  }
  auto select = std::make_shared<SelectClause>();
  select->offset = token.offset;
  select->items.push_back(std::make_shared<expr::Star>());
  if (token.IsKeyword("VALUES")) {
    ARROW_ASSIGN_OR_RAISE(select->from, ParseValues());
  } else if (p.AcceptKeyword("TABLE")) {
    auto item = std::make_shared<FromItem>();
    item->offset = p.Peek().offset;
    ARROW_ASSIGN_OR_RAISE(item->name, p.ParseIdentifier());
    while (p.AcceptSymbol(".")) {
      ARROW_ASSIGN_OR_RAISE(auto part, p.ParseIdentifier());
      item->name += "." + part;
    }
    select->from = std::move(item);
  } else {
    return p.SyntaxError(token);
  }
  query->select = std::move(select);
  return query;
}

arrow::Result<std::shared_ptr<SelectClause>> QueryParser::ParseSelect() {
  auto& p = expressions_;
  auto select = std::make_shared<SelectClause>();
  select->offset = p.Peek().offset;
  // Spark also reads `FROM t SELECT ...`.
  if (p.Peek().IsKeyword("FROM")) {
    p.Next();
    ARROW_ASSIGN_OR_RAISE(select->from, ParseFromClause());
  }
  ARROW_RETURN_NOT_OK(p.ExpectKeyword("SELECT"));
  if (p.AcceptKeyword("DISTINCT")) {
    select->distinct = true;
  } else {
    p.AcceptKeyword("ALL");
  }
  do {
    ARROW_ASSIGN_OR_RAISE(auto item, p.ParseNamedExpression());
    select->items.push_back(std::move(item));
  } while (p.AcceptSymbol(","));
  if (!select->from && p.AcceptKeyword("FROM")) {
    ARROW_ASSIGN_OR_RAISE(select->from, ParseFromClause());
  }
  ARROW_RETURN_NOT_OK(ParseSelectTail(*select));
  return select;
}

arrow::Status QueryParser::ParseSelectTail(SelectClause& select) {
  auto& p = expressions_;
  if (p.AcceptKeyword("WHERE")) {
    ARROW_ASSIGN_OR_RAISE(select.where, p.ParseExpression());
  }
  if (p.Peek().IsKeyword("GROUP") && p.Peek(1).IsKeyword("BY")) {
    p.Next();
    p.Next();
    select.grouped = true;
    if (p.Peek().IsKeyword("ALL") && !p.Peek(1).IsSymbol("(")) {
      p.Next();
      select.group_by_all = true;
    } else {
      do {
        ARROW_ASSIGN_OR_RAISE(auto key, p.ParseExpression());
        select.group_by.push_back(std::move(key));
      } while (p.AcceptSymbol(","));
    }
    const SqlToken& token = p.Peek();
    if (token.IsKeyword("WITH") || token.IsKeyword("GROUPING")) {
      return p.SyntaxError(token, ": ROLLUP, CUBE and GROUPING SETS are not supported");
    }
  }
  if (p.AcceptKeyword("HAVING")) {
    ARROW_ASSIGN_OR_RAISE(select.having, p.ParseExpression());
  }
  std::map<std::string, expr::ExprPtr> windows;
  if (p.AcceptKeyword("WINDOW")) {
    do {
      ARROW_ASSIGN_OR_RAISE(auto name, p.ParseIdentifier());
      ARROW_RETURN_NOT_OK(p.ExpectKeyword("AS"));
      // A definition has no function of its own (a null literal stands in): each `OVER name`
      // brings its own.
      auto no_function = expr::Lit(arrow::MakeNullScalar(arrow::null()));
      expr::ExprPtr definition;
      if (p.AcceptSymbol("(")) {
        ARROW_ASSIGN_OR_RAISE(definition, p.ParseWindowSpec(std::move(no_function)));
        ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
      } else {  // `w2 AS w1`
        ARROW_ASSIGN_OR_RAISE(auto base, p.ParseIdentifier());
        definition = std::make_shared<expr::WindowExpr>(
            std::move(no_function), std::vector<expr::ExprPtr>{}, std::vector<expr::ExprPtr>{},
            std::nullopt, std::move(base));
      }
      ARROW_ASSIGN_OR_RAISE(definition, ResolveWindowNames(definition, windows));
      windows[AsciiLower(name)] = std::move(definition);
    } while (p.AcceptSymbol(","));
  }
  for (auto& item : select.items) {
    ARROW_ASSIGN_OR_RAISE(item, ResolveWindowNames(item, windows));
  }
  if (p.Peek().IsKeyword("QUALIFY")) {
    return p.SyntaxError(p.Peek(), ": QUALIFY is not supported");
  }
  return arrow::Status::OK();
}

arrow::Result<FromItemPtr> QueryParser::ParseFromClause() {
  auto& p = expressions_;
  ARROW_ASSIGN_OR_RAISE(auto item, ParseJoinedItem());
  // `FROM a, b` is a cross join (an inner join without condition).
  while (p.Peek().IsSymbol(",")) {
    const size_t offset = p.Next().offset;
    ARROW_ASSIGN_OR_RAISE(auto right, ParseJoinedItem());
    auto join = std::make_shared<FromItem>();
    join->kind = FromItem::Kind::kJoin;
    join->offset = offset;
    join->join_type = "inner";
    join->left = std::move(item);
    join->right = std::move(right);
    item = std::move(join);
  }
  return item;
}

std::string QueryParser::AcceptJoinType() {
  auto& p = expressions_;
  auto accept_join = [&](size_t words, std::string how) -> std::string {
    if (!p.Peek(words).IsKeyword("JOIN")) return "";
    for (size_t i = 0; i <= words; ++i) p.Next();
    return how;
  };
  const SqlToken& first = p.Peek();
  const SqlToken& second = p.Peek(1);
  if (first.IsKeyword("JOIN")) return accept_join(0, "inner");
  if (first.IsKeyword("INNER")) return accept_join(1, "inner");
  if (first.IsKeyword("CROSS")) return accept_join(1, "cross");
  if (first.IsKeyword("SEMI")) return accept_join(1, "semi");
  if (first.IsKeyword("ANTI")) return accept_join(1, "anti");
  for (auto [word, how] : {std::pair<std::string_view, const char*>{"LEFT", "left"},
                           {"RIGHT", "right"},
                           {"FULL", "full"}}) {
    if (!first.IsKeyword(word)) continue;
    if (second.IsKeyword("OUTER")) return accept_join(2, how);
    if (word == "LEFT" && second.IsKeyword("SEMI")) return accept_join(2, "semi");
    if (word == "LEFT" && second.IsKeyword("ANTI")) return accept_join(2, "anti");
    return accept_join(1, how);
  }
  return "";
}

arrow::Result<FromItemPtr> QueryParser::ParseJoinedItem() {
  auto& p = expressions_;
  ARROW_ASSIGN_OR_RAISE(auto item, ParseFromPrimary());
  while (true) {
    const SqlToken& token = p.Peek();
    if (token.IsKeyword("NATURAL")) {
      return p.SyntaxError(token, ": NATURAL JOIN is not supported; use JOIN ... USING");
    }
    if (token.IsKeyword("LATERAL") || p.Peek(1).IsKeyword("LATERAL")) {
      return p.SyntaxError(token, ": LATERAL joins are not supported");
    }
    std::string how = AcceptJoinType();
    if (how.empty()) return item;
    auto join = std::make_shared<FromItem>();
    join->kind = FromItem::Kind::kJoin;
    join->offset = token.offset;
    join->join_type = how;
    join->left = std::move(item);
    ARROW_ASSIGN_OR_RAISE(join->right, ParseFromPrimary());
    if (p.AcceptKeyword("ON")) {
      ARROW_ASSIGN_OR_RAISE(join->condition, p.ParseExpression());
    } else if (p.AcceptKeyword("USING")) {
      ARROW_ASSIGN_OR_RAISE(join->using_columns, ParseIdentifierList());
    }
    item = std::move(join);
  }
}

arrow::Result<std::vector<std::string>> QueryParser::ParseIdentifierList() {
  auto& p = expressions_;
  ARROW_RETURN_NOT_OK(p.ExpectSymbol("("));
  std::vector<std::string> names;
  do {
    ARROW_ASSIGN_OR_RAISE(auto name, p.ParseIdentifier());
    names.push_back(std::move(name));
  } while (p.AcceptSymbol(","));
  ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
  return names;
}

arrow::Result<FromItemPtr> QueryParser::ParseFromPrimary() {
  auto& p = expressions_;
  const SqlToken& token = p.Peek();
  std::shared_ptr<FromItem> item;
  if (token.IsSymbol("(")) {
    const SqlToken& inside = p.Peek(1);
    p.Next();
    if (StartsSelect(inside) || inside.IsKeyword("WITH") || inside.IsSymbol("(")) {
      item = std::make_shared<FromItem>();
      item->kind = FromItem::Kind::kSubquery;
      item->offset = token.offset;
      ARROW_ASSIGN_OR_RAISE(item->subquery, ParseQuery());
      ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
    } else {
      // A parenthesized join: (a JOIN b ON ...).
      ARROW_ASSIGN_OR_RAISE(auto inner, ParseFromClause());
      ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
      item = std::make_shared<FromItem>(*inner);
    }
  } else if (token.IsKeyword("VALUES")) {
    ARROW_ASSIGN_OR_RAISE(auto values, ParseValues());
    item = std::make_shared<FromItem>(*values);
  } else if (token.kind == Kind::kWord || token.kind == Kind::kQuotedIdentifier) {
    item = std::make_shared<FromItem>();
    item->offset = token.offset;
    ARROW_ASSIGN_OR_RAISE(item->name, p.ParseIdentifier());
    if (token.kind == Kind::kWord && p.Peek().IsSymbol("(")) {
      // A table-valued function: range(10), range(1, 10, 2).
      item->kind = FromItem::Kind::kTableFunction;
      item->name = AsciiLower(item->name);
      p.Next();
      if (!p.AcceptSymbol(")")) {
        do {
          ARROW_ASSIGN_OR_RAISE(auto argument, p.ParseExpression());
          item->arguments.push_back(std::move(argument));
        } while (p.AcceptSymbol(","));
        ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
      }
    } else {
      // A backquoted part keeps its dots: `a.b`.c names table c of database a.b; the name is
      // re-read by the catalog with its quotes.
      item->name = token.kind == Kind::kQuotedIdentifier ? token.text : token.value;
      while (p.AcceptSymbol(".")) {
        const SqlToken& part = p.Peek();
        ARROW_RETURN_NOT_OK(p.ParseIdentifier().status());
        item->name += "." + part.text;
      }
    }
  } else {
    return p.SyntaxError(token);
  }
  ARROW_RETURN_NOT_OK(ParseAlias(*item));
  return item;
}

arrow::Result<FromItemPtr> QueryParser::ParseValues() {
  auto& p = expressions_;
  auto item = std::make_shared<FromItem>();
  item->kind = FromItem::Kind::kValues;
  item->offset = p.Next().offset;  // VALUES
  do {
    std::vector<expr::ExprPtr> row;
    if (p.AcceptSymbol("(")) {
      do {
        ARROW_ASSIGN_OR_RAISE(auto value, p.ParseExpression());
        row.push_back(std::move(value));
      } while (p.AcceptSymbol(","));
      ARROW_RETURN_NOT_OK(p.ExpectSymbol(")"));
    } else {
      ARROW_ASSIGN_OR_RAISE(auto value, p.ParseExpression());
      row.push_back(std::move(value));
    }
    if (!item->rows.empty() && row.size() != item->rows.front().size()) {
      return SqlParseError(p.input(), item->offset, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH",
                           "Invalid inline table. Inline table expected " +
                               std::to_string(item->rows.front().size()) +
                               " columns but found " + std::to_string(row.size()) +
                               " columns in row " + std::to_string(item->rows.size()) + ".");
    }
    item->rows.push_back(std::move(row));
  } while (p.AcceptSymbol(","));
  return item;
}

arrow::Status QueryParser::ParseAlias(FromItem& item) {
  auto& p = expressions_;
  bool explicit_alias = p.AcceptKeyword("AS");
  if (!explicit_alias && !CanBeImplicitAlias(p.Peek())) return arrow::Status::OK();
  ARROW_ASSIGN_OR_RAISE(item.alias, p.ParseIdentifier());
  if (p.Peek().IsSymbol("(")) {
    ARROW_ASSIGN_OR_RAISE(item.column_aliases, ParseIdentifierList());
  }
  return arrow::Status::OK();
}

arrow::Result<QueryPtr> ParseQuery(std::string_view text) {
  const auto tokens = TokenizeSql(text);
  QueryParser parser(text, tokens);
  ARROW_ASSIGN_OR_RAISE(auto query, parser.ParseQuery());
  parser.expressions().AcceptSymbol(";");
  ARROW_RETURN_NOT_OK(parser.expressions().ExpectEnd());
  return query;
}

}  // namespace sluice::sql
