#include "sluice/sql/expression_parser.h"

#include <algorithm>
#include <array>
#include <utility>

#include <arrow/scalar.h>

#include "sluice/sql/sql_lexer.h"

// The syntax of function calls: DISTINCT/ALL, IGNORE NULLS, and the forms with keywords between
// the arguments (EXTRACT, POSITION, SUBSTRING, TRIM). Part of ExpressionParser.

namespace sluice::sql {

namespace {

using expr::ExprPtr;
using Kind = SqlToken::Kind;

// Units accepted as the bare first argument of the datetime functions that take one.
constexpr std::array<std::string_view, 11> kDatetimeUnits = {
    "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFYEAR",
    "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"};

}  // namespace

arrow::Result<ExprPtr> ExpressionParser::ParseFunctionCall(std::string name) {
  bool handled = false;
  ARROW_ASSIGN_OR_RAISE(auto special, ParseSpecialForm(name, &handled));
  if (handled) return special;
  ARROW_RETURN_NOT_OK(ExpectSymbol("("));
  bool distinct = false;
  const bool quantifier_is_column = Peek(1).IsSymbol(")") || Peek(1).IsSymbol(",");
  if (!quantifier_is_column && AcceptKeyword("DISTINCT")) {
    distinct = true;
  } else if (!quantifier_is_column) {
    AcceptKeyword("ALL");
  }
  const bool offset_function = name == "lag" || name == "lead" || name == "nth_value";
  const bool ignore_nulls_allowed = name == "first" || name == "last" || name == "any_value" ||
                                    name == "first_value" || name == "last_value" ||
                                    offset_function;
  bool ignore_nulls = false;
  std::vector<ExprPtr> args;
  if (!Peek().IsSymbol(")") || distinct) {
    do {
      ARROW_ASSIGN_OR_RAISE(auto arg,
                            name == "struct" ? ParseNamedExpression() : ParseExpression());
      if (Peek().IsSymbol("=>")) return SyntaxError(Peek(), ": named arguments are not supported");
      args.push_back(std::move(arg));
      if (ignore_nulls_allowed && Peek().IsKeyword("IGNORE") && Peek(1).IsKeyword("NULLS")) {
        position_ += 2;
        ignore_nulls = true;
      }
    } while (AcceptSymbol(","));
  }
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  if ((Peek().IsKeyword("IGNORE") || Peek().IsKeyword("RESPECT")) && Peek(1).IsKeyword("NULLS")) {
    if (Peek().IsKeyword("IGNORE")) {
      if (!ignore_nulls_allowed) {
        return SyntaxError(Peek(), ": IGNORE NULLS is not supported for " + name);
      }
      ignore_nulls = true;
    }
    position_ += 2;
  }
  if (ignore_nulls) {
    // The flag is the last argument: lag(v, offset, default, ignoreNulls), nth_value(v, n,
    // ignoreNulls); lag and lead get their defaults written out.
    if (name == "lag" || name == "lead") {
      if (args.size() < 2) args.push_back(expr::Lit(arrow::MakeScalar(int32_t{1})));
      if (args.size() < 3) args.push_back(expr::Lit(arrow::MakeNullScalar(arrow::null())));
    }
    args.push_back(BoolLiteral(true));
  }
  if (Peek().IsKeyword("FILTER") && Peek(1).IsSymbol("(")) {
    return ParseFilterClause(std::move(name), std::move(args), distinct);
  }
  if (Peek().IsKeyword("OVER")) {
    Next();
    ARROW_ASSIGN_OR_RAISE(auto call, MakeCall(std::move(name), std::move(args), distinct));
    return ParseOver(std::move(call));
  }
  if (Peek().IsKeyword("WITHIN")) {
    return SyntaxError(Peek(), ": WITHIN GROUP clauses are not supported");
  }
  const bool takes_unit = name == "timestampadd" || name == "dateadd" || name == "date_add" ||
                          name == "timestampdiff" || name == "datediff" || name == "date_diff";
  if (takes_unit && args.size() == 3) {
    const auto* unit = AsColumnPath(args[0]);
    if (unit != nullptr && unit->name_parts().size() == 1) {
      std::string upper = AsciiUpper(unit->name_parts()[0]);
      if (std::find(kDatetimeUnits.begin(), kDatetimeUnits.end(), upper) != kDatetimeUnits.end()) {
        args[0] = StringLiteral(upper);
      }
    }
  }
  return MakeCall(std::move(name), std::move(args), distinct);
}

// `OVER name` or `OVER (spec)`, after the function call.
arrow::Result<ExprPtr> ExpressionParser::ParseOver(ExprPtr function) {
  if (!Peek().IsSymbol("(")) {
    ARROW_ASSIGN_OR_RAISE(auto window_name, ParseIdentifier());
    return Track(std::make_shared<expr::WindowExpr>(std::move(function), std::vector<ExprPtr>{},
                                                    std::vector<ExprPtr>{}, std::nullopt,
                                                    std::move(window_name)));
  }
  Next();  // (
  ARROW_ASSIGN_OR_RAISE(auto window, ParseWindowSpec(std::move(function)));
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  return window;
}

arrow::Result<ExprPtr> ExpressionParser::ParseWindowSpec(ExprPtr function) {
  auto starts_clause = [&](const SqlToken& token) {
    return token.IsKeyword("PARTITION") || token.IsKeyword("DISTRIBUTE") ||
           token.IsKeyword("ORDER") || token.IsKeyword("SORT") || token.IsKeyword("ROWS") ||
           token.IsKeyword("RANGE");
  };
  std::string base_name;
  if (!Peek().IsSymbol(")") && !starts_clause(Peek())) {
    ARROW_ASSIGN_OR_RAISE(base_name, ParseIdentifier());
    if (!Peek().IsSymbol(")")) {
      return SyntaxError(Peek(), ": a named window cannot be refined in OVER");
    }
  }
  std::vector<ExprPtr> partition_by;
  if ((Peek().IsKeyword("PARTITION") || Peek().IsKeyword("DISTRIBUTE")) &&
      Peek(1).IsKeyword("BY")) {
    position_ += 2;
    do {
      ARROW_ASSIGN_OR_RAISE(auto key, ParseExpression());
      partition_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  std::vector<ExprPtr> order_by;
  if ((Peek().IsKeyword("ORDER") || Peek().IsKeyword("SORT")) && Peek(1).IsKeyword("BY")) {
    position_ += 2;
    do {
      ARROW_ASSIGN_OR_RAISE(auto key, ParseSortItem());
      order_by.push_back(std::move(key));
    } while (AcceptSymbol(","));
  }
  std::optional<expr::WindowFrame> frame;
  if (Peek().IsKeyword("ROWS") || Peek().IsKeyword("RANGE")) {
    expr::WindowFrame written;
    written.type =
        Next().IsKeyword("ROWS") ? expr::WindowFrame::Type::kRows : expr::WindowFrame::Type::kRange;
    if (AcceptKeyword("BETWEEN")) {
      ARROW_ASSIGN_OR_RAISE(written.lower, ParseFrameBound());
      ARROW_RETURN_NOT_OK(ExpectKeyword("AND"));
      ARROW_ASSIGN_OR_RAISE(written.upper, ParseFrameBound());
    } else {
      ARROW_ASSIGN_OR_RAISE(written.lower, ParseFrameBound());
      written.upper = expr::WindowFrameBound::CurrentRow();
    }
    frame = std::move(written);
  }
  return Track(std::make_shared<expr::WindowExpr>(std::move(function), std::move(partition_by),
                                                  std::move(order_by), std::move(frame),
                                                  std::move(base_name)));
}

// UNBOUNDED PRECEDING | UNBOUNDED FOLLOWING | CURRENT ROW | expr PRECEDING | expr FOLLOWING; a
// PRECEDING offset is kept negated, as Spark's parser does.
arrow::Result<expr::WindowFrameBound> ExpressionParser::ParseFrameBound() {
  if (Peek().IsKeyword("UNBOUNDED")) {
    Next();
    if (AcceptKeyword("PRECEDING")) return expr::WindowFrameBound::UnboundedPreceding();
    ARROW_RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
    return expr::WindowFrameBound::UnboundedFollowing();
  }
  if (Peek().IsKeyword("CURRENT") && Peek(1).IsKeyword("ROW")) {
    position_ += 2;
    return expr::WindowFrameBound::CurrentRow();
  }
  ARROW_ASSIGN_OR_RAISE(auto offset, ParseBinary(0));
  if (AcceptKeyword("PRECEDING")) {
    ARROW_ASSIGN_OR_RAISE(offset, MakeCall("-", {std::move(offset)}));
    return expr::WindowFrameBound::Offset(std::move(offset));
  }
  ARROW_RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
  return expr::WindowFrameBound::Offset(std::move(offset));
}

// `agg(args) FILTER (WHERE condition)` aggregates only the rows where the condition holds:
// each argument becomes `CASE WHEN condition THEN arg END` (count(*) counts `1`), which the
// aggregate skips as null, and the column is named as Spark names it:
// `count(1) FILTER (WHERE (a > 1))`.
arrow::Result<ExprPtr> ExpressionParser::ParseFilterClause(std::string name,
                                                           std::vector<ExprPtr> args,
                                                           bool distinct) {
  Next();  // FILTER
  ARROW_RETURN_NOT_OK(ExpectSymbol("("));
  ARROW_RETURN_NOT_OK(ExpectKeyword("WHERE"));
  ARROW_ASSIGN_OR_RAISE(auto condition, ParseExpression());
  ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
  if (args.empty()) return SyntaxError(Peek(), ": FILTER needs an aggregate with arguments");
  for (auto& arg : args) {
    if (arg->kind() == expr::ExprKind::kStar) {
      arg = expr::Lit(arrow::MakeScalar(int32_t{1}));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto unfiltered, MakeCall(name, args, distinct));
  for (auto& arg : args) {
    ARROW_ASSIGN_OR_RAISE(
        arg, Track(std::make_shared<expr::CaseWhen>(
                 std::vector<std::pair<ExprPtr, ExprPtr>>{{condition, arg}}, nullptr)));
  }
  ARROW_ASSIGN_OR_RAISE(auto filtered, MakeCall(std::move(name), std::move(args), distinct));
  return Track(std::make_shared<expr::Alias>(
      std::move(filtered),
      unfiltered->ToString() + " FILTER (WHERE " + condition->ToString() + ")"));
}

arrow::Result<ExprPtr> ExpressionParser::ParseSpecialForm(const std::string& name,
                                                          bool* handled) {
  // Forms with keywords between the arguments. Each is tried from the '('; when the keywords
  // are not there the call is parsed as an ordinary one from the same place.
  const size_t start = position_;
  auto fallback = [&]() -> arrow::Result<ExprPtr> {
    position_ = start;
    return nullptr;
  };
  if (name == "extract" && Peek(1).kind == Kind::kWord && Peek(2).IsKeyword("FROM")) {
    Next();
    std::string field = Next().text;
    Next();  // FROM
    ARROW_ASSIGN_OR_RAISE(auto source, ParseBinary(0));
    ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
    *handled = true;
    return MakeCall("extract", {StringLiteral(std::move(field)), std::move(source)});
  }
  if (name == "position" || name == "substring" || name == "substr") {
    Next();  // (
    auto first = ParseBinary(0);
    const bool keyword = name == "position" ? Peek().IsKeyword("IN") : Peek().IsKeyword("FROM");
    if (!first.ok() || !keyword) return fallback();
    Next();
    ARROW_ASSIGN_OR_RAISE(auto second, ParseBinary(0));
    std::vector<ExprPtr> args = {*first, second};
    if (name != "position" && AcceptKeyword("FOR")) {
      ARROW_ASSIGN_OR_RAISE(auto length, ParseBinary(0));
      args.push_back(std::move(length));
    }
    ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
    *handled = true;
    return MakeCall(name == "position" ? "locate" : name, std::move(args));
  }
  if (name == "trim") {
    Next();  // (
    std::string function = "trim";
    bool has_mode = false;
    if ((Peek().IsKeyword("BOTH") || Peek().IsKeyword("LEADING") || Peek().IsKeyword("TRAILING")) &&
        !Peek(1).IsSymbol(")") && !Peek(1).IsSymbol(",")) {
      has_mode = true;
      function = Peek().IsKeyword("LEADING")    ? "ltrim"
                 : Peek().IsKeyword("TRAILING") ? "rtrim"
                                                : "trim";
      Next();
    }
    ExprPtr trim_string;
    if (!Peek().IsKeyword("FROM")) {
      auto parsed = ParseBinary(0);
      if (!parsed.ok() && has_mode) return parsed.status();
      if (!parsed.ok() || !Peek().IsKeyword("FROM")) {
        if (has_mode) return SyntaxError(Peek(), ": missing 'FROM'");
        return fallback();
      }
      trim_string = *parsed;
    }
    Next();  // FROM
    ARROW_ASSIGN_OR_RAISE(auto source, ParseBinary(0));
    ARROW_RETURN_NOT_OK(ExpectSymbol(")"));
    *handled = true;
    // Spark's two-argument trim functions take the characters first: trim(trimStr, str).
    std::vector<ExprPtr> args;
    if (trim_string) args.push_back(std::move(trim_string));
    args.push_back(std::move(source));
    return MakeCall(std::move(function), std::move(args));
  }
  return nullptr;
}

}  // namespace sluice::sql
