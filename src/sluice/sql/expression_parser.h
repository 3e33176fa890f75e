// The parser of Spark SQL expressions: the text of F.expr("..."), selectExpr, filter("...") and
// the expressions inside SQL statements, producing unresolved expression trees.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/expression.h"
#include "sluice/sql/query_ast.h"
#include "sluice/sql/sql_lexer.h"

namespace sluice::sql {

/// Parses one expression, optionally with an alias (`a + 1 AS x`, `a + 1 x`), as Spark's
/// CatalystSqlParser.parseExpression: operators become calls by their Spark names ("+", "=",
/// "and", "isnull", "in", "like", ...), function names are lower-cased, `a.b.c` is one column
/// path, literals are typed Arrow scalars as Spark types them. Errors are PARSE_SYNTAX_ERROR
/// (with "== SQL ==" and a caret under the offending token) or the class of a bad literal or
/// type name. Never crashes or hangs, whatever the input; expressions nested more than
/// ExpressionParser::kMaxNesting levels are rejected.
arrow::Result<expr::ExprPtr> ParseExpression(std::string_view text);

/// Parses a sort key `expr [ASC | DESC] [NULLS FIRST | NULLS LAST]` into an expr::SortOrder,
/// with Spark's defaults: ASC NULLS FIRST, DESC NULLS LAST. No alias is allowed.
arrow::Result<expr::ExprPtr> ParseSortOrder(std::string_view text);

/// True when `token` may be an alias written without AS: a name that is neither an operator word
/// (AND, IS, ...) nor a word that starts a clause or a join (FROM, WHERE, JOIN, LEFT, ON, ...).
bool CanBeImplicitAlias(const SqlToken& token);

/// Reads the query of a subquery written inside an expression, from the same tokens; the
/// statement parser provides it, so the expression parser alone refuses subqueries.
class SubqueryReader {
 public:
  virtual ~SubqueryReader() = default;
  /// Parses a query starting at the parser's current token, leaving the parser after it.
  virtual arrow::Result<QueryPtr> ReadSubquery() = 0;
};

/// A recursive-descent parser of expressions over a token stream, so that a statement parser
/// can parse the expressions inside its clauses from the same tokens. Not thread-safe; one
/// parser reads one input. `input` and `tokens` (TokenizeSql(input)) must outlive it.
class ExpressionParser {
 public:
  /// Limit of nested parentheses, function calls and prefix operators: deeper input is a syntax
  /// error rather than a stack overflow.
  static constexpr int kMaxNesting = 200;
  /// Limit of the depth of the built tree (a chain `a OR b OR ...` is as deep as it is long),
  /// which bounds the recursion of everything that walks or destroys the tree later.
  static constexpr int kMaxTreeDepth = 4000;

  ExpressionParser(std::string_view input, const std::vector<SqlToken>& tokens,
                   size_t position = 0);

  /// Lets expressions hold subqueries, read by `reader` (which must outlive the parser).
  void set_subquery_reader(SubqueryReader* reader) { subqueries_ = reader; }

  /// An expression without alias (Spark's `expression` rule).
  arrow::Result<expr::ExprPtr> ParseExpression();
  /// An expression with an optional alias, `expr [AS] name` (Spark's `namedExpression`). A word
  /// that starts a clause (FROM, WHERE, GROUP, ORDER, ...) is never taken as an implicit alias.
  arrow::Result<expr::ExprPtr> ParseNamedExpression();
  /// A sort key, `expr [ASC|DESC] [NULLS FIRST|LAST]` (Spark's `sortItem`).
  arrow::Result<expr::ExprPtr> ParseSortItem();
  /// The inside of a window specification's parentheses: `[name] [PARTITION BY ...]
  /// [ORDER BY ...] [ROWS|RANGE frame]`, as a WindowExpr over `function`.
  arrow::Result<expr::ExprPtr> ParseWindowSpec(expr::ExprPtr function);
  /// OK at the end of input, otherwise a syntax error naming the extra token.
  arrow::Status ExpectEnd() const;

  /// Index of the next unread token.
  size_t position() const { return position_; }
  /// The next unread token (kEnd at the end).
  const SqlToken& Peek(size_t ahead = 0) const;
  /// A PARSE_SYNTAX_ERROR at `token`; `detail` is empty or starts with ": ".
  arrow::Status SyntaxError(const SqlToken& token, const std::string& detail = "") const;
  /// The input being parsed.
  std::string_view input() const { return input_; }

  // The cursor, shared with a statement parser reading the clauses around the expressions.
  /// Consumes and returns the next token (kEnd stays put at the end).
  const SqlToken& Next();
  bool AcceptKeyword(std::string_view keyword);
  bool AcceptSymbol(std::string_view symbol);
  /// A syntax error "missing 'KEYWORD'" unless the next token is `keyword`.
  arrow::Status ExpectKeyword(std::string_view keyword);
  arrow::Status ExpectSymbol(std::string_view symbol);
  /// A name, plain or backquoted.
  arrow::Result<std::string> ParseIdentifier();

 private:
  /// Registers a built node, failing when the tree gets deeper than kMaxTreeDepth.
  arrow::Result<expr::ExprPtr> Track(expr::ExprPtr node);
  arrow::Result<expr::ExprPtr> MakeCall(std::string name, std::vector<expr::ExprPtr> args,
                                        bool distinct = false);
  /// A column path that can still grow by `.field` (as Spark extends an UnresolvedAttribute),
  /// or nullptr.
  static const expr::ColumnRef* AsColumnPath(const expr::ExprPtr& node);
  static expr::ExprPtr StringLiteral(std::string value);
  static expr::ExprPtr BoolLiteral(bool value);

  arrow::Result<expr::ExprPtr> ParseOr();
  arrow::Result<expr::ExprPtr> ParseAnd();
  arrow::Result<expr::ExprPtr> ParseNot();
  arrow::Result<expr::ExprPtr> ParsePredicate();
  arrow::Result<expr::ExprPtr> ParseBinary(int level);
  arrow::Result<expr::ExprPtr> ParseUnary();
  arrow::Result<expr::ExprPtr> ParsePostfix(bool negative_number);
  arrow::Result<expr::ExprPtr> ParsePrimary(bool negative_number);
  arrow::Result<expr::ExprPtr> ParseWordPrimary();
  arrow::Result<expr::ExprPtr> ParseTypedLiteral();
  arrow::Result<expr::ExprPtr> ParseIntervalLiteral();
  arrow::Result<expr::ExprPtr> ParseCase();
  arrow::Result<expr::ExprPtr> ParseCast(bool is_try);
  arrow::Result<expr::ExprPtr> ParseParenthesized();
  arrow::Result<expr::ExprPtr> ParseFunctionCall(std::string name);
  arrow::Result<expr::ExprPtr> ParseFilterClause(std::string name,
                                                 std::vector<expr::ExprPtr> args, bool distinct);
  arrow::Result<expr::ExprPtr> ParseSpecialForm(const std::string& name, bool* handled);
  arrow::Result<expr::ExprPtr> ParseOver(expr::ExprPtr function);
  arrow::Result<expr::WindowFrameBound> ParseFrameBound();
  arrow::Result<std::shared_ptr<arrow::DataType>> ParseTypeUntil(bool in_parentheses);
  /// A subquery expression whose `(` was read: the query, then `)`. Its name is the text from
  /// byte `start_offset` to the `)`. A syntax error without a SubqueryReader.
  arrow::Result<expr::ExprPtr> ParseSubquery(SubqueryExpr::Form form, expr::ExprPtr operand,
                                             size_t start_offset);

  struct DepthGuard;

  std::string_view input_;
  const std::vector<SqlToken>& tokens_;
  size_t position_;
  int recursion_ = 0;
  /// Depth of every node built so far that has children; holding the nodes keeps their
  /// addresses from being reused by later nodes while parsing.
  std::unordered_map<expr::ExprPtr, int> depths_;
  SubqueryReader* subqueries_ = nullptr;
};

}  // namespace sluice::sql
