#include "sluice/sql/expression_parser.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/sql/sql_literals.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_types.h"

namespace sluice::sql {

namespace {

using expr::ExprPtr;
using Kind = SqlToken::Kind;

// Words that never name a column without backquotes: they continue or close an expression.
constexpr std::array<std::string_view, 15> kReservedWords = {
    "AND", "OR", "NOT", "IS", "IN", "BETWEEN", "LIKE", "ILIKE",
    "RLIKE", "REGEXP", "WHEN", "THEN", "ELSE", "END", "AS"};

// Words that start a clause of a statement or belong to the syntax after an expression, and so
// are never taken as an alias written without AS.
constexpr std::array<std::string_view, 37> kClauseWords = {
    "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "SORT", "CLUSTER", "DISTRIBUTE", "LIMIT",
    "OFFSET", "WINDOW", "QUALIFY", "UNION", "EXCEPT", "INTERSECT", "MINUS", "JOIN", "INNER",
    "LEFT", "RIGHT", "FULL", "CROSS", "SEMI", "ANTI", "NATURAL", "LATERAL", "ON", "USING",
    "PIVOT", "UNPIVOT", "OVER", "FILTER", "IGNORE", "RESPECT", "ESCAPE", "WITHIN", "TABLESAMPLE"};

template <size_t N>
bool IsOneOf(const SqlToken& token, const std::array<std::string_view, N>& words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view word) { return token.IsKeyword(word); });
}

bool IsNumber(const SqlToken& token) {
  return token.kind == Kind::kInteger || token.kind == Kind::kNumber;
}

bool IsName(const SqlToken& token) {
  return token.kind == Kind::kWord || token.kind == Kind::kQuotedIdentifier;
}

struct BinaryOperator {
  std::string_view symbol;  // a symbol token, or an upper-case keyword
  std::string_view name;    // the call built for it
};

// Binary operators by precedence level, lowest first (Spark's valueExpression alternatives).
constexpr int kBinaryLevels = 7;
const std::vector<BinaryOperator>& OperatorsAt(int level) {
  static const std::array<std::vector<BinaryOperator>, kBinaryLevels> kLevels = {{
      {{"=", "="}, {"==", "="}, {"<=>", "<=>"}, {"!=", "!="}, {"<>", "!="}, {"<", "<"},
       {"<=", "<="}, {">", ">"}, {">=", ">="}},
      {{"|", "|"}},
      {{"^", "^"}},
      {{"&", "&"}},
      {{"<<", "shiftleft"}, {">>", "shiftright"}, {">>>", "shiftrightunsigned"}},
      {{"+", "+"}, {"-", "-"}, {"||", "concat"}},
      {{"*", "*"}, {"/", "/"}, {"%", "%"}, {"DIV", "div"}},
  }};
  return kLevels[level];
}

}  // namespace

/// Counts one level of parser recursion for as long as it lives.
struct ExpressionParser::DepthGuard {
  explicit DepthGuard(int* counter) : counter_(counter) { ++*counter_; }
  ~DepthGuard() { --*counter_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  int* counter_;
};

#define SLUICE_GUARD_NESTING()                                             \
  DepthGuard depth_guard(&recursion_);                                     \
  if (recursion_ > kMaxNesting) {                                          \
    return SyntaxError(Peek(), ": the expression is nested too deeply");   \
  }

ExpressionParser::ExpressionParser(std::string_view input, const std::vector<SqlToken>& tokens,
                                   size_t position)
    : input_(input), tokens_(tokens), position_(position) {}

const SqlToken& ExpressionParser::Peek(size_t ahead) const {
  return tokens_[std::min(position_ + ahead, tokens_.size() - 1)];
}

const SqlToken& ExpressionParser::Next() {
  const SqlToken& token = tokens_[std::min(position_, tokens_.size() - 1)];
  if (position_ + 1 < tokens_.size()) ++position_;
  return token;
}

bool ExpressionParser::AcceptKeyword(std::string_view keyword) {
  if (!Peek().IsKeyword(keyword)) return false;
  Next();
  return true;
}

bool ExpressionParser::AcceptSymbol(std::string_view symbol) {
  if (!Peek().IsSymbol(symbol)) return false;
  Next();
  return true;
}

arrow::Status ExpressionParser::ExpectKeyword(std::string_view keyword) {
  if (AcceptKeyword(keyword)) return arrow::Status::OK();
  return SyntaxError(Peek(), ": missing '" + std::string(keyword) + "'");
}

arrow::Status ExpressionParser::ExpectSymbol(std::string_view symbol) {
  if (AcceptSymbol(symbol)) return arrow::Status::OK();
  return SyntaxError(Peek(), ": missing '" + std::string(symbol) + "'");
}

arrow::Status ExpressionParser::SyntaxError(const SqlToken& token,
                                            const std::string& detail) const {
  return SqlSyntaxError(input_, token, detail);
}

arrow::Status ExpressionParser::ExpectEnd() const {
  const SqlToken& token = Peek();
  if (token.kind == Kind::kEnd) return arrow::Status::OK();
  if (token.kind == Kind::kInvalid) return SyntaxError(token);
  return SyntaxError(token, ": extra input '" + token.text + "'");
}

const expr::ColumnRef* ExpressionParser::AsColumnPath(const ExprPtr& node) {
  if (node->kind() != expr::ExprKind::kColumn) return nullptr;
  auto column = static_cast<const expr::ColumnRef*>(node.get());
  return column->attribute_id() ? nullptr : column;
}

ExprPtr ExpressionParser::StringLiteral(std::string value) {
  return expr::Lit(std::make_shared<arrow::StringScalar>(std::move(value)));
}

ExprPtr ExpressionParser::BoolLiteral(bool value) {
  return expr::Lit(std::make_shared<arrow::BooleanScalar>(value));
}

arrow::Result<ExprPtr> ExpressionParser::Track(ExprPtr node) {
  int depth = 1;
  for (const auto& child : node->children()) {
    auto found = depths_.find(child);
    depth = std::max(depth, (found == depths_.end() ? 1 : found->second) + 1);
  }
  if (depth > kMaxTreeDepth) return SyntaxError(Peek(), ": the expression is nested too deeply");
  if (depth > 1) depths_[node] = depth;
  return node;
}

arrow::Result<ExprPtr> ExpressionParser::MakeCall(std::string name, std::vector<ExprPtr> args,
                                                  bool distinct) {
  return Track(expr::CallFunction(std::move(name), std::move(args), distinct));
}

// ---- boolean and predicate levels ----------------------------------------------------------

arrow::Result<ExprPtr> ExpressionParser::ParseExpression() {
  // Every cycle of the recursion passes a guard: ParsePostfix, or a prefix NOT, -, +, ~.
  return ParseOr();
}

arrow::Result<ExprPtr> ExpressionParser::ParseOr() {
  ARROW_ASSIGN_OR_RAISE(auto left, ParseAnd());
  while (AcceptKeyword("OR")) {
    ARROW_ASSIGN_OR_RAISE(auto right, ParseAnd());
    ARROW_ASSIGN_OR_RAISE(left, MakeCall("or", {std::move(left), std::move(right)}));
  }
  return left;
}

arrow::Result<ExprPtr> ExpressionParser::ParseAnd() {
  ARROW_ASSIGN_OR_RAISE(auto left, ParseNot());
  while (AcceptKeyword("AND")) {
    ARROW_ASSIGN_OR_RAISE(auto right, ParseNot());
    ARROW_ASSIGN_OR_RAISE(left, MakeCall("and", {std::move(left), std::move(right)}));
  }
  return left;
}

arrow::Result<ExprPtr> ExpressionParser::ParseNot() {
  if (Peek().IsKeyword("NOT") || Peek().IsSymbol("!")) {
    SLUICE_GUARD_NESTING();
    Next();
    ARROW_ASSIGN_OR_RAISE(auto operand, ParseNot());
    return MakeCall("not", {std::move(operand)});
  }
  return ParsePredicate();
}

arrow::Result<ExprPtr> ExpressionParser::ParsePredicate() {
  const size_t left_offset = Peek().offset;
  ARROW_ASSIGN_OR_RAISE(auto left, ParseBinary(0));
  bool negated = false;
  const SqlToken& after_not = Peek(1);
  if ((Peek().IsKeyword("NOT") || Peek().IsSymbol("!")) &&
      (after_not.IsKeyword("BETWEEN") || after_not.IsKeyword("IN") ||
       after_not.IsKeyword("LIKE") || after_not.IsKeyword("ILIKE") ||
       after_not.IsKeyword("RLIKE") || after_not.IsKeyword("REGEXP"))) {
    Next();
    negated = true;
  }
  const SqlToken& keyword = Peek();
  ExprPtr result;
  if (AcceptKeyword("BETWEEN")) {
    ARROW_ASSIGN_OR_RAISE(auto lower, ParseBinary(0));
    ARROW_RETURN_NOT_OK(ExpectKeyword("AND"));
    ARROW_ASSIGN_OR_RAISE(auto upper, ParseBinary(0));
    ARROW_ASSIGN_OR_RAISE(result, MakeCall("between", {left, lower, upper}));
  } else if (AcceptKeyword("IN")) {
    ARROW_RETURN_NOT_OK(ExpectSymbol("("));
    if (Peek().IsKeyword("SELECT") || Peek().IsKeyword("WITH")) {
      ARROW_ASSIGN_OR_RAISE(result,
                            ParseSubquery(SubqueryExpr::Form::kIn, left, left_offset));
      return negated ? MakeCall("not", {result}) : result;
    }
    std::vector<ExprPtr> args = {left};
    do {
      ARROW_ASSIGN_OR_RAISE(auto value, ParseExpression());
      args.push_back(std::move(value));
    } while (AcceptSymbol(","));
    ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
    ARROW_ASSIGN_OR_RAISE(result, MakeCall("in", std::move(args)));
  } else if (keyword.IsKeyword("LIKE") || keyword.IsKeyword("ILIKE")) {
    Next();
    if ((Peek().IsKeyword("ANY") || Peek().IsKeyword("SOME") || Peek().IsKeyword("ALL")) &&
        Peek(1).IsSymbol("(")) {
      return SyntaxError(Peek(), ": LIKE ANY/SOME/ALL is not supported");
    }
    ARROW_ASSIGN_OR_RAISE(auto pattern, ParseBinary(0));
    std::vector<ExprPtr> args = {left, pattern};
    if (AcceptKeyword("ESCAPE")) {
      const SqlToken& escape = Peek();
      if (escape.kind != Kind::kString) return SyntaxError(escape);
      Next();
      if (escape.value.size() != 1) {
        return SqlParseError(input_, escape.offset, "INVALID_ESC",
                             "Invalid escape string: " + escape.text +
                                 ". The escape string must contain only one character.");
      }
      args.push_back(StringLiteral(escape.value));
    }
    ARROW_ASSIGN_OR_RAISE(result, MakeCall(AsciiLower(keyword.text), std::move(args)));
  } else if (AcceptKeyword("RLIKE") || AcceptKeyword("REGEXP")) {
    ARROW_ASSIGN_OR_RAISE(auto pattern, ParseBinary(0));
    ARROW_ASSIGN_OR_RAISE(result, MakeCall("rlike", {left, pattern}));
  } else if (!negated && AcceptKeyword("IS")) {
    const bool is_not = AcceptKeyword("NOT");
    if (AcceptKeyword("NULL") || AcceptKeyword("UNKNOWN")) {
      return MakeCall(is_not ? "isnotnull" : "isnull", {left});
    }
    if (Peek().IsKeyword("TRUE") || Peek().IsKeyword("FALSE")) {
      // As Spark: a IS TRUE is a <=> true, a IS NOT TRUE is NOT (a <=> true).
      ARROW_ASSIGN_OR_RAISE(result,
                            MakeCall("<=>", {left, BoolLiteral(Next().IsKeyword("TRUE"))}));
    } else if (AcceptKeyword("DISTINCT")) {
      ARROW_RETURN_NOT_OK(ExpectKeyword("FROM"));
      ARROW_ASSIGN_OR_RAISE(auto right, ParseBinary(0));
      ARROW_ASSIGN_OR_RAISE(result, MakeCall("<=>", {left, right}));
      negated = !is_not;  // IS DISTINCT FROM is NOT (a <=> b)
      return negated ? MakeCall("not", {result}) : result;
    } else {
      return SyntaxError(Peek());
    }
    negated = is_not;
  } else {
    return left;
  }
  return negated ? MakeCall("not", {result}) : result;
}

// ---- arithmetic, bitwise and comparison levels -------------------------------------------

arrow::Result<ExprPtr> ExpressionParser::ParseBinary(int level) {
  if (level >= kBinaryLevels) return ParseUnary();
  ARROW_ASSIGN_OR_RAISE(auto left, ParseBinary(level + 1));
  while (true) {
    const SqlToken& token = Peek();
    const BinaryOperator* match = nullptr;
    for (const auto& op : OperatorsAt(level)) {
      if (token.IsSymbol(op.symbol) || token.IsKeyword(op.symbol)) match = &op;
    }
    if (match == nullptr) return left;
    Next();
    ARROW_ASSIGN_OR_RAISE(auto right, ParseBinary(level + 1));
    ARROW_ASSIGN_OR_RAISE(left, MakeCall(std::string(match->name), {left, right}));
  }
}

arrow::Result<ExprPtr> ExpressionParser::ParseUnary() {
  const SqlToken& token = Peek();
  // As Spark's grammar: a minus directly before a number is part of the literal.
  if (token.IsSymbol("-") && IsNumber(Peek(1))) return ParsePostfix(true);
  const char* name = token.IsSymbol("-")   ? "-"
                     : token.IsSymbol("+") ? "positive"
                     : token.IsSymbol("~") ? "~"
                                           : nullptr;
  if (name == nullptr) return ParsePostfix(false);
  SLUICE_GUARD_NESTING();
  Next();
  ARROW_ASSIGN_OR_RAISE(auto operand, ParseUnary());
  return MakeCall(name, {std::move(operand)});
}

arrow::Result<ExprPtr> ExpressionParser::ParsePostfix(bool negative_number) {
  SLUICE_GUARD_NESTING();
  ARROW_ASSIGN_OR_RAISE(auto base, ParsePrimary(negative_number));
  while (true) {
    if (AcceptSymbol("[")) {
      ARROW_ASSIGN_OR_RAISE(auto key, ParseExpression());
      ARROW_RETURN_NOT_OK(ExpectSymbol("]"));
      ARROW_ASSIGN_OR_RAISE(base, Track(std::make_shared<expr::Extract>(base, key)));
    } else if (AcceptSymbol(".")) {
      const auto* path = AsColumnPath(base);
      if (Peek().IsSymbol("*")) {
        if (path == nullptr) return SyntaxError(Peek());
        Next();
        return Track(std::make_shared<expr::Star>(path->name_parts()));
      }
      if (!IsName(Peek())) return SyntaxError(Peek());
      std::string field = Next().value;
      if (path != nullptr) {
        auto parts = path->name_parts();
        parts.push_back(field);
        if (Peek().IsSymbol("(")) {  // a qualified function name: db.f(...)
          std::string name;
          for (const auto& part : parts) name += (name.empty() ? "" : ".") + AsciiLower(part);
          ARROW_ASSIGN_OR_RAISE(base, ParseFunctionCall(std::move(name)));
        } else {
          base = expr::ColumnPath(std::move(parts));
        }
      } else {
        ARROW_ASSIGN_OR_RAISE(
            base, Track(std::make_shared<expr::Extract>(base, StringLiteral(std::move(field)))));
      }
    } else if (AcceptSymbol("::")) {
      ARROW_ASSIGN_OR_RAISE(auto type, ParseTypeUntil(false));
      ARROW_ASSIGN_OR_RAISE(base, Track(std::make_shared<expr::Cast>(base, std::move(type))));
    } else {
      return base;
    }
  }
}

// ---- primary expressions -----------------------------------------------------------------

arrow::Result<ExprPtr> ExpressionParser::ParsePrimary(bool negative_number) {
  if (negative_number) Next();  // the minus sign
  const SqlToken& token = Peek();
  switch (token.kind) {
    case Kind::kInteger:
    case Kind::kNumber: {
      Next();
      auto value = MakeNumericLiteral(token.text, negative_number);
      if (!value.ok()) return WithSqlContext(value.status(), input_, token.offset);
      return expr::Lit(*value);
    }
    case Kind::kString: {
      std::string value;  // adjacent strings are one literal, as in Spark
      while (Peek().kind == Kind::kString) value += Next().value;
      return StringLiteral(std::move(value));
    }
    case Kind::kQuotedIdentifier:
      Next();
      if (Peek().IsSymbol("(")) return ParseFunctionCall(AsciiLower(token.value));
      return expr::ColumnPath({token.value});
    case Kind::kWord:
      return ParseWordPrimary();
    case Kind::kSymbol:
      if (token.IsSymbol("(")) return ParseParenthesized();
      if (token.IsSymbol("*")) {
        Next();
        return std::make_shared<expr::Star>();
      }
      return SyntaxError(token);
    default:
      return SyntaxError(token);
  }
}

arrow::Result<ExprPtr> ExpressionParser::ParseWordPrimary() {
  const SqlToken& word = Peek();
  const SqlToken& next = Peek(1);
  if (word.IsKeyword("CASE")) return ParseCase();
  if (word.IsKeyword("EXISTS") && next.IsSymbol("(") &&
      (Peek(2).IsKeyword("SELECT") || Peek(2).IsKeyword("WITH"))) {
    Next();  // EXISTS
    Next();  // (
    return ParseSubquery(SubqueryExpr::Form::kExists, nullptr, word.offset);
  }
  if (IsOneOf(word, kReservedWords)) return SyntaxError(word);
  if (word.IsKeyword("INTERVAL") &&
      (next.kind == Kind::kString || IsNumber(next) ||
       ((next.IsSymbol("-") || next.IsSymbol("+")) && IsNumber(Peek(2))))) {
    return ParseIntervalLiteral();
  }
  if (next.kind == Kind::kString) return ParseTypedLiteral();
  if ((word.IsKeyword("CAST") || word.IsKeyword("TRY_CAST")) && next.IsSymbol("(")) {
    return ParseCast(word.IsKeyword("TRY_CAST"));
  }
  if (!next.IsSymbol("(")) {
    if (word.IsKeyword("TRUE") || word.IsKeyword("FALSE")) {
      return BoolLiteral(Next().IsKeyword("TRUE"));
    }
    if (word.IsKeyword("NULL")) {
      Next();
      return expr::Lit(std::make_shared<arrow::NullScalar>());
    }
  }
  if (next.IsSymbol("->")) return SyntaxError(next, ": lambda functions are not supported");
  Next();
  if (next.IsSymbol("(")) return ParseFunctionCall(AsciiLower(word.text));
  return expr::ColumnPath({word.text});
}

arrow::Result<ExprPtr> ExpressionParser::ParseTypedLiteral() {
  const SqlToken& word = Next();
  const SqlToken& value = Next();
  const std::string type = AsciiUpper(word.text);
  auto invalid = [&] {
    return SqlParseError(input_, word.offset, "INVALID_TYPED_LITERAL",
                         "The value of the typed literal \"" + type + "\" is invalid: '" +
                             value.value + "'.");
  };
  if (type == "DATE") {
    auto days = ParseDateText(value.value);
    if (!days) return invalid();
    return expr::Lit(std::make_shared<arrow::Date32Scalar>(*days));
  }
  if (type == "TIMESTAMP" || type == "TIMESTAMP_LTZ") {
    // The session time zone is known only when binding, which folds this into a literal.
    if (!ParseTimestampText(value.value, /*allow_zone=*/true)) return invalid();
    return expr::Cast::TypedLiteral(value.value, types::TimestampLtzType());
  }
  if (type == "TIMESTAMP_NTZ") {
    auto micros = ParseTimestampText(value.value, /*allow_zone=*/false);
    if (!micros) return invalid();
    return expr::Lit(std::make_shared<arrow::TimestampScalar>(*micros, types::TimestampNtzType()));
  }
  if (type == "X") {
    auto bytes = ParseHexText(value.value);
    if (!bytes) return invalid();
    return expr::Lit(std::make_shared<arrow::BinaryScalar>(std::move(*bytes)));
  }
  return SqlParseError(input_, word.offset, "UNSUPPORTED_TYPED_LITERAL",
                       "Literals of the type \"" + type +
                           "\" are not supported. Supported types are DATE, TIMESTAMP_NTZ, "
                           "TIMESTAMP_LTZ, TIMESTAMP, INTERVAL, X.");
}

arrow::Result<ExprPtr> ExpressionParser::ParseCase() {
  Next();  // CASE
  ExprPtr operand;  // the simple form CASE x WHEN v ... compares x = v
  if (!Peek().IsKeyword("WHEN")) {
    ARROW_ASSIGN_OR_RAISE(operand, ParseExpression());
  }
  std::vector<std::pair<ExprPtr, ExprPtr>> branches;
  while (AcceptKeyword("WHEN")) {
    ARROW_ASSIGN_OR_RAISE(auto condition, ParseExpression());
    if (operand) {
      ARROW_ASSIGN_OR_RAISE(condition, MakeCall("=", {operand, condition}));
    }
    ARROW_RETURN_NOT_OK(ExpectKeyword("THEN"));
    ARROW_ASSIGN_OR_RAISE(auto value, ParseExpression());
    branches.emplace_back(std::move(condition), std::move(value));
  }
  if (branches.empty()) return SyntaxError(Peek(), ": missing 'WHEN'");
  ExprPtr otherwise;
  if (AcceptKeyword("ELSE")) {
    ARROW_ASSIGN_OR_RAISE(otherwise, ParseExpression());
  }
  ARROW_RETURN_NOT_OK(ExpectKeyword("END"));
  return Track(std::make_shared<expr::CaseWhen>(std::move(branches), std::move(otherwise)));
}

arrow::Result<ExprPtr> ExpressionParser::ParseCast(bool is_try) {
  Next();  // CAST / TRY_CAST
  ARROW_RETURN_NOT_OK(ExpectSymbol("("));
  ARROW_ASSIGN_OR_RAISE(auto child, ParseExpression());
  ARROW_RETURN_NOT_OK(ExpectKeyword("AS"));
  ARROW_ASSIGN_OR_RAISE(auto type, ParseTypeUntil(true));
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  return Track(std::make_shared<expr::Cast>(std::move(child), std::move(type), is_try));
}

arrow::Result<std::shared_ptr<arrow::DataType>> ExpressionParser::ParseTypeUntil(
    bool in_parentheses) {
  const size_t first = position_;
  if (!IsName(Peek())) return SyntaxError(Peek());
  size_t end = first;  // one past the last token of the type
  auto token = [&](size_t i) -> const SqlToken& {
    return tokens_[std::min(i, tokens_.size() - 1)];
  };
  if (in_parentheses) {
    // CAST(x AS type): the type runs to the parenthesis closing the CAST.
    int depth = 0;
    for (; token(end).kind != Kind::kEnd && token(end).kind != Kind::kInvalid; ++end) {
      if (token(end).IsSymbol("(")) ++depth;
      if (token(end).IsSymbol(")") && depth-- == 0) break;
    }
    if (!token(end).IsSymbol(")")) return SyntaxError(token(end), ": missing ')'");
  } else {
    // x::type: a name, then balanced <...> and (...), then an optional COLLATE name.
    end = first + 1;
    for (std::string_view open : {"<", "("}) {
      if (!token(end).IsSymbol(open)) continue;
      int depth = 0;
      do {
        const SqlToken& t = token(end);
        if (t.kind == Kind::kEnd || t.kind == Kind::kInvalid) {
          return SyntaxError(t, open == "<" ? ": missing '>'" : ": missing ')'");
        }
        if (t.kind == Kind::kSymbol) {
          for (char c : t.text) {
            if (c == open[0]) ++depth;
            if (c == (open == "<" ? '>' : ')')) --depth;
          }
        }
        ++end;
      } while (depth > 0);
    }
    if (token(end).IsKeyword("COLLATE") && IsName(token(end + 1))) end += 2;
  }
  const size_t start_offset = token(first).offset;
  const size_t end_offset = token(end - 1).end_offset();
  position_ = end;
  // The type parser places its caret in the type's text: place it in the whole input.
  auto type = types::ParseDataType(input_.substr(start_offset, end_offset - start_offset));
  if (!type.ok()) return WithSqlContext(type.status(), input_, start_offset);
  return type;
}

arrow::Result<ExprPtr> ExpressionParser::ParseParenthesized() {
  const size_t start_offset = Next().offset;  // (
  if (Peek().IsKeyword("SELECT") || Peek().IsKeyword("WITH")) {
    return ParseSubquery(SubqueryExpr::Form::kScalar, nullptr, start_offset);
  }
  ARROW_ASSIGN_OR_RAISE(auto first, ParseNamedExpression());
  std::vector<ExprPtr> fields = {first};
  while (AcceptSymbol(",")) {
    ARROW_ASSIGN_OR_RAISE(auto field, ParseNamedExpression());
    fields.push_back(std::move(field));
  }
  const SqlToken& close = Peek();
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  if (Peek().IsSymbol("->")) return SyntaxError(Peek(), ": lambda functions are not supported");
  if (fields.size() > 1) return MakeCall("struct", std::move(fields));  // (a, b) is a struct
  if (first->kind() == expr::ExprKind::kAlias) return SyntaxError(close);
  return first;
}

arrow::Result<ExprPtr> ExpressionParser::ParseSubquery(SubqueryExpr::Form form, ExprPtr operand,
                                                       size_t start_offset) {
  if (subqueries_ == nullptr) {
    return SyntaxError(Peek(), ": a subquery is only allowed inside a SQL statement");
  }
  SLUICE_GUARD_NESTING();
  ARROW_ASSIGN_OR_RAISE(auto query, subqueries_->ReadSubquery());
  const size_t end_offset = Peek().end_offset();
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  std::string text(input_.substr(start_offset, end_offset - start_offset));
  return Track(std::make_shared<SubqueryExpr>(form, std::move(query), std::move(operand),
                                              std::move(text)));
}

bool CanBeImplicitAlias(const SqlToken& token) {
  return token.kind == Kind::kQuotedIdentifier ||
         (token.kind == Kind::kWord && !IsOneOf(token, kReservedWords) &&
          !IsOneOf(token, kClauseWords));
}

arrow::Result<std::string> ExpressionParser::ParseIdentifier() {
  if (!IsName(Peek())) return SyntaxError(Peek());
  return Next().value;
}

// ---- entry points ------------------------------------------------------------------------

arrow::Result<ExprPtr> ExpressionParser::ParseNamedExpression() {
  ARROW_ASSIGN_OR_RAISE(auto value, ParseExpression());
  if (AcceptKeyword("AS")) {
    if (Peek().IsSymbol("(")) return SyntaxError(Peek(), ": multiple aliases are not supported");
    ARROW_ASSIGN_OR_RAISE(auto name, ParseIdentifier());
    return Track(std::make_shared<expr::Alias>(std::move(value), std::move(name)));
  }
  if (CanBeImplicitAlias(Peek())) {
    return Track(std::make_shared<expr::Alias>(std::move(value), Next().value));
  }
  return value;
}

arrow::Result<ExprPtr> ExpressionParser::ParseSortItem() {
  ARROW_ASSIGN_OR_RAISE(auto key, ParseExpression());
  bool ascending = true;
  if (AcceptKeyword("DESC")) {
    ascending = false;
  } else {
    AcceptKeyword("ASC");
  }
  bool nulls_first = ascending;
  if (AcceptKeyword("NULLS")) {
    if (AcceptKeyword("FIRST")) {
      nulls_first = true;
    } else if (AcceptKeyword("LAST")) {
      nulls_first = false;
    } else {
      return SyntaxError(Peek());
    }
  }
  return Track(std::make_shared<expr::SortOrder>(std::move(key), ascending, nulls_first));
}

#undef SLUICE_GUARD_NESTING

arrow::Result<expr::ExprPtr> ParseExpression(std::string_view text) {
  const auto tokens = TokenizeSql(text);
  ExpressionParser parser(text, tokens);
  ARROW_ASSIGN_OR_RAISE(auto result, parser.ParseNamedExpression());
  ARROW_RETURN_NOT_OK(parser.ExpectEnd());
  return result;
}

arrow::Result<expr::ExprPtr> ParseSortOrder(std::string_view text) {
  const auto tokens = TokenizeSql(text);
  ExpressionParser parser(text, tokens);
  ARROW_ASSIGN_OR_RAISE(auto result, parser.ParseSortItem());
  ARROW_RETURN_NOT_OK(parser.ExpectEnd());
  return result;
}

}  // namespace sluice::sql
