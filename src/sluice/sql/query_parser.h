// The parser of Spark SQL queries (SELECT, set operations, WITH, ORDER BY, LIMIT, FROM items
// and joins) into the syntax tree of query_ast.h.
#pragma once

#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/sql/expression_parser.h"
#include "sluice/sql/query_ast.h"

namespace sluice::sql {

/// A recursive-descent parser of queries over a token stream, reading expressions with an
/// ExpressionParser that shares its cursor (and reads subqueries back through this parser).
/// Not thread-safe; one parser reads one input; `input` and `tokens` must outlive it.
class QueryParser final : public SubqueryReader {
 public:
  QueryParser(std::string_view input, const std::vector<SqlToken>& tokens);

  /// A whole query: `[WITH ...] term [ORDER BY ...] [LIMIT n] [OFFSET n]`.
  arrow::Result<QueryPtr> ParseQuery();
  arrow::Result<QueryPtr> ReadSubquery() override { return ParseQuery(); }

  /// True when the next token starts a query (SELECT, WITH, VALUES, TABLE, FROM or `(`).
  bool AtQuery() const;

  /// The shared cursor and the expression grammar, for the statement parser.
  ExpressionParser& expressions() { return expressions_; }

 private:
  arrow::Result<QueryPtr> ParseSetOperations(int level);
  arrow::Result<QueryPtr> ParseQueryPrimary();
  arrow::Result<std::shared_ptr<SelectClause>> ParseSelect();
  arrow::Status ParseSelectTail(SelectClause& select);
  arrow::Result<FromItemPtr> ParseFromClause();
  arrow::Result<FromItemPtr> ParseJoinedItem();
  arrow::Result<FromItemPtr> ParseFromPrimary();
  arrow::Result<FromItemPtr> ParseValues();
  /// `[AS] alias [(a, b)]` after a FROM item, into `item`.
  arrow::Status ParseAlias(FromItem& item);
  /// INNER, LEFT [OUTER], ... JOIN at the cursor: PySpark's `how`, or "" when no join follows.
  std::string AcceptJoinType();
  arrow::Result<int64_t> ParseRowCount(const char* clause);
  arrow::Result<std::vector<std::string>> ParseIdentifierList();

  ExpressionParser expressions_;
};

/// Parses `text` as one query (a trailing `;` allowed).
arrow::Result<QueryPtr> ParseQuery(std::string_view text);

}  // namespace sluice::sql
