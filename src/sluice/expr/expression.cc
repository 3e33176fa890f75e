#include "sluice/expr/expression.h"

#include "sluice/expr/cast_format.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/spark_type_names.h"

#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/formatting.h>

#include <array>
#include <cctype>
#include <string_view>

namespace sluice::expr {

namespace {

struct InfixOperator {
  std::string_view name;
  std::string_view symbol;
};

// Binary operators Spark prints infix, by function name.
constexpr std::array<InfixOperator, 17> kInfix = {{
    {"+", "+"},     {"-", "-"},   {"*", "*"},     {"/", "/"},   {"%", "%"},
    {"div", "div"}, {"=", "="},   {"==", "="},    {"<=>", "<=>"}, {"<", "<"},   {"<=", "<="},   {">", ">"},   {">=", ">="},
    {"and", "AND"}, {"or", "OR"}, {"&", "&"},     {"|", "|"},
}};

std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined.append(separator);
    joined.append(parts[i]);
  }
  return joined;
}

std::vector<std::string> ChildNames(const Expr& expr) {
  std::vector<std::string> names;
  names.reserve(expr.children().size());
  for (const auto& child : expr.children()) names.push_back(child->ToString());
  return names;
}

// java.math.BigDecimal.toString, which Spark uses to name a decimal literal: plain notation
// ("1.50", "0.000001") unless the adjusted exponent is below -6 ("1E-7", "-1.2E-7").
std::string JavaBigDecimalString(const arrow::Decimal128& value, int32_t scale) {
  std::string plain;
  AppendDecimal(value, scale, &plain);
  const bool negative = value < arrow::Decimal128(0);
  const arrow::Decimal128 magnitude = negative ? arrow::Decimal128(-value) : value;
  const std::string digits = magnitude.ToIntegerString();
  const int64_t adjusted = -static_cast<int64_t>(scale) + static_cast<int64_t>(digits.size()) - 1;
  if (scale >= 0 && adjusted >= -6) return plain;
  std::string text = negative ? "-" : "";
  text += digits[0];
  if (digits.size() > 1) text += "." + digits.substr(1);
  text += "E";
  if (adjusted > 0) text += "+";
  return text + std::to_string(adjusted);
}

}  // namespace

// Spark names some calls with the default value of an omitted trailing argument, e.g.
// substring(s, 1) is named `substring(s, 1, 2147483647)`.
struct DefaultArgument {
  std::string_view name;
  size_t written_args;
  std::string_view default_sql;
};

constexpr std::array<DefaultArgument, 17> kNamedDefaults = {{
    {"unix_timestamp", 1, "yyyy-MM-dd HH:mm:ss"},
    {"to_unix_timestamp", 1, "yyyy-MM-dd HH:mm:ss"},
    {"from_unixtime", 1, "yyyy-MM-dd HH:mm:ss"},
    {"round", 1, "0"},
    {"bround", 1, "0"},
    {"sort_array", 1, "true"},
    {"substring", 2, "2147483647"},
    {"substr", 2, "2147483647"},
    {"split", 2, "-1"},
    {"regexp_replace", 3, "1"},
    {"regexp_extract", 2, "1"},
    {"regexp_extract_all", 2, "1"},
    {"regexp_instr", 2, "0"},
    {"locate", 2, "1"},
    {"lpad", 2, " "},
    {"rpad", 2, " "},
    {"replace", 2, ""},
}};

std::string FormatCall(const std::string& name, const std::vector<std::string>& given_args,
                       bool distinct) {
  std::vector<std::string> args = given_args;
  for (const auto& rule : kNamedDefaults) {
    if (name == rule.name && args.size() == rule.written_args) {
      args.emplace_back(rule.default_sql);
    }
  }
  // Spark prints these functions' names in upper case.
  static constexpr std::array<std::string_view, 33> kUpperCaseNames = {
      "floor", "ceil",  "power", "sqrt",  "exp",     "log10",   "log2",   "log1p",
      "expm1", "sin",   "cos",   "tan",   "asin",    "acos",    "atan",   "atan2",
      "sinh",  "cosh",  "tanh",  "cbrt",  "cot",     "hypot",   "degrees", "radians",
      "signum", "e",    "pi",    "log",   "sec",     "csc",     "asinh",  "acosh", "atanh"};
  if (name == "log" && args.size() == 1) return "LOG(E(), " + args[0] + ")";
  // Spark leaves the schema and options out of the names of from_json and to_json.
  if (name == "from_json" && !args.empty()) return "from_json(" + args[0] + ")";
  if (name == "to_json" && !args.empty()) return "to_json(" + args[0] + ")";
  for (std::string_view upper : kUpperCaseNames) {
    // floor(p, 1) and ceil(p, -2), with a scale, keep their lower-case names.
    if (name == upper && !((name == "floor" || name == "ceil") && args.size() == 2)) {
      std::string upper_name(name);
      for (auto& c : upper_name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return upper_name + "(" + Join(args, ", ") + ")";
    }
  }
  if (name == "dateadd") return FormatCall("date_add", args, distinct);
  if (name == "position" && args.size() == 2) return FormatCall("locate", args, distinct);
  if ((name == "regexp_like" || name == "regexp") && args.size() == 2) {
    return (name == "regexp" ? "REGEXP(" : "REGEXP_LIKE(") + args[0] + ", " + args[1] + ")";
  }
  if (name == "like" && args.size() == 3) {
    return args[0] + " LIKE " + args[1] + " ESCAPE '" + args[2] + "'";
  }
  if (name == "ilike" && args.size() == 3) return "ilike(" + args[0] + ", " + args[1] + ")";
  if ((name == "trim" || name == "ltrim" || name == "rtrim") && args.size() == 2) {
    const char* side = name == "trim" ? "BOTH" : name == "ltrim" ? "LEADING" : "TRAILING";
    return "TRIM(" + std::string(side) + " " + args[0] + " FROM " + args[1] + ")";
  }
  if (args.size() == 2) {
    for (const auto& op : kInfix) {
      if (name == op.name) {
        return "(" + args[0] + " " + std::string(op.symbol) + " " + args[1] + ")";
      }
    }
    if (name == "[]") return args[0] + "[" + args[1] + "]";
    // Spark rewrites a != b to NOT (a = b), and names it so.
    if (name == "!=" || name == "<>") return "(NOT (" + args[0] + " = " + args[1] + "))";
    if (name == "^") return "(" + args[0] + " ^ " + args[1] + ")";
    if (name == "||") return "concat(" + args[0] + ", " + args[1] + ")";
    if (name == "like") return args[0] + " LIKE " + args[1];
    if (name == "ilike") return "ilike(" + args[0] + ", " + args[1] + ")";
    if (name == "rlike") return "RLIKE(" + args[0] + ", " + args[1] + ")";
  }
  if (args.size() == 1) {
    if (name == "not") return "(NOT " + args[0] + ")";
    // The operator -a is named `(- a)`; the function negative(a) keeps its name.
    if (name == "-") return "(- " + args[0] + ")";
    // Both `+a` and positive(a) are named `(+ a)`.
    if (name == "positive" || name == "+") return "(+ " + args[0] + ")";
    if (name == "~") return "~" + args[0];
    if (name == "isnull") return "(" + args[0] + " IS NULL)";
    if (name == "isnotnull") return "(" + args[0] + " IS NOT NULL)";
  }
  if (name == "in" && !args.empty()) {
    std::vector<std::string> rest(args.begin() + 1, args.end());
    return "(" + args[0] + " IN (" + Join(rest, ", ") + "))";
  }
  return name + "(" + (distinct ? "DISTINCT " : "") + Join(args, ", ") + ")";
}

std::string LiteralToString(const arrow::Scalar& value) {
  if (!value.is_valid) return "NULL";
  switch (value.type->id()) {
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
      return std::string(
          static_cast<const arrow::BaseBinaryScalar&>(value).view());
    case arrow::Type::BOOL:
      return static_cast<const arrow::BooleanScalar&>(value).value ? "true" : "false";
    case arrow::Type::DOUBLE: {
      std::string text;
      AppendJavaDouble(static_cast<const arrow::DoubleScalar&>(value).value, &text);
      return text;
    }
    case arrow::Type::FLOAT: {
      std::string text;
      AppendJavaFloat(static_cast<const arrow::FloatScalar&>(value).value, &text);
      return text;
    }
    case arrow::Type::DECIMAL128:
      return JavaBigDecimalString(
          static_cast<const arrow::Decimal128Scalar&>(value).value,
          static_cast<const arrow::Decimal128Type&>(*value.type).scale());
    case arrow::Type::DATE32:
      return "DATE '" + value.ToString() + "'";
    case arrow::Type::DURATION:
      return types::FormatDayTimeInterval(static_cast<const arrow::DurationScalar&>(value).value,
                                          types::DayTimeFieldsOf(*value.type));
    case arrow::Type::INTERVAL_MONTHS:
      return types::FormatYearMonthInterval(
          static_cast<const arrow::MonthIntervalScalar&>(value).value,
          types::YearMonthFieldsOf(*value.type));
    case arrow::Type::TIMESTAMP: {
      // Arrow prints an ISO form with a 'T'; Spark's SQL form uses a space.
      std::string text = value.ToString();
      auto t = text.find('T');
      if (t != std::string::npos) text[t] = ' ';
      if (!text.empty() && text.back() == 'Z') text.pop_back();
      // Spark prints the fraction of a second without trailing zeros.
      if (text.find('.') != std::string::npos) {
        while (text.back() == '0') text.pop_back();
        if (text.back() == '.') text.pop_back();
      }
      const auto& type = static_cast<const arrow::TimestampType&>(*value.type);
      return (type.timezone().empty() ? "TIMESTAMP_NTZ '" : "TIMESTAMP '") + text + "'";
    }
    case arrow::Type::BINARY: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string text = "X'";
      for (unsigned char c : static_cast<const arrow::BaseBinaryScalar&>(value).view()) {
        text.push_back(kHex[c >> 4]);
        text.push_back(kHex[c & 15]);
      }
      return text + "'";
    }
    default:
      return value.ToString();
  }
}

std::string ColumnRef::ToString() const {
  std::string text;
  for (size_t i = 0; i < name_parts_.size(); ++i) {
    if (i > 0) text.push_back('.');
    text.append(name_parts_[i]);
  }
  return text;
}

std::string Star::ToString() const {
  std::string text;
  for (const auto& part : target_) text.append(part).push_back('.');
  return text + "*";
}

std::string Literal::ToString() const { return LiteralToString(*value_); }

std::string Call::ToString() const { return FormatCall(name_, ChildNames(*this), distinct_); }

std::string Alias::ToString() const { return name_; }

ExprPtr Cast::TypedLiteral(std::string text, std::shared_ptr<arrow::DataType> type) {
  auto cast = std::make_shared<Cast>(Lit(std::make_shared<arrow::StringScalar>(std::move(text))),
                                     std::move(type));
  cast->typed_literal_ = true;
  return cast;
}

std::string Cast::ToString() const {
  if (typed_literal_) {
    // Before binding the zone is unknown: the literal as written.
    const auto& text = static_cast<const Literal&>(*child()).value();
    std::string type_name = types::SimpleString(*type_);
    for (auto& c : type_name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return type_name + " '" + LiteralToString(*text) + "'";
  }
  // Spark names a cast by its SQL form with the upper-case type name.
  std::string type_name = types::SimpleString(*type_);
  for (auto& c : type_name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return std::string(is_try_ ? "TRY_CAST(" : "CAST(") + child()->ToString() + " AS " +
         type_name + ")";
}

CaseWhen::CaseWhen(std::vector<std::pair<ExprPtr, ExprPtr>> branches, ExprPtr otherwise)
    : Expr(ExprKind::kCaseWhen,
           [&] {
             std::vector<ExprPtr> children;
             for (auto& [condition, value] : branches) {
               children.push_back(std::move(condition));
               children.push_back(std::move(value));
             }
             if (otherwise) children.push_back(std::move(otherwise));
             return children;
           }()),
      num_branches_(branches.size()) {}

ExprPtr CaseWhen::otherwise() const {
  return children().size() > 2 * num_branches_ ? children().back() : nullptr;
}

std::string CaseWhen::ToString() const {
  std::string text = "CASE";
  for (size_t i = 0; i < num_branches_; ++i) {
    text += " WHEN " + condition(i)->ToString() + " THEN " + value(i)->ToString();
  }
  if (auto e = otherwise()) text += " ELSE " + e->ToString();
  return text + " END";
}

std::string Extract::ToString() const {
  return child()->ToString() + "[" + key()->ToString() + "]";
}

std::string SortOrder::ToString() const {
  return child()->ToString() + (ascending_ ? " ASC" : " DESC") +
         (nulls_first_ ? " NULLS FIRST" : " NULLS LAST");
}

std::string WindowFrameBound::ToString() const {
  switch (kind) {
    case Kind::kUnboundedPreceding:
      return "UNBOUNDED PRECEDING";
    case Kind::kCurrentRow:
      return "CURRENT ROW";
    case Kind::kUnboundedFollowing:
      return "UNBOUNDED FOLLOWING";
    case Kind::kOffset:
      break;
  }
  // As Spark renders a bound: a negated value (SQL's `1 PRECEDING`) as PRECEDING, any other
  // value, negative numbers included, as FOLLOWING.
  if (offset->kind() == ExprKind::kCall && offset->children().size() == 1 &&
      static_cast<const Call&>(*offset).name() == "-") {
    return offset->children()[0]->ToString() + " PRECEDING";
  }
  return offset->ToString() + " FOLLOWING";
}

std::string WindowFrame::ToString() const {
  return std::string(type == Type::kRows ? "ROWS" : "RANGE") + " BETWEEN " + lower.ToString() +
         " AND " + upper.ToString();
}

namespace {

std::vector<ExprPtr> WindowChildren(const ExprPtr& function,
                                    const std::vector<ExprPtr>& partition_by,
                                    const std::vector<ExprPtr>& order_by) {
  std::vector<ExprPtr> children = {function};
  children.insert(children.end(), partition_by.begin(), partition_by.end());
  children.insert(children.end(), order_by.begin(), order_by.end());
  return children;
}

}  // namespace

WindowExpr::WindowExpr(ExprPtr function, std::vector<ExprPtr> partition_by,
                       std::vector<ExprPtr> order_by, std::optional<WindowFrame> frame,
                       std::string window_name)
    : Expr(ExprKind::kWindow, WindowChildren(function, partition_by, order_by)),
      num_partition_by_(partition_by.size()),
      frame_(std::move(frame)),
      window_name_(std::move(window_name)) {}

std::vector<ExprPtr> WindowExpr::partition_by() const {
  return {children().begin() + 1, children().begin() + 1 + num_partition_by_};
}

std::vector<ExprPtr> WindowExpr::order_by() const {
  return {children().begin() + 1 + num_partition_by_, children().end()};
}

ExprPtr WindowExpr::WithChildren(std::vector<ExprPtr> children) const {
  std::vector<ExprPtr> partition(children.begin() + 1,
                                 children.begin() + 1 + num_partition_by_);
  std::vector<ExprPtr> order(children.begin() + 1 + num_partition_by_, children.end());
  return std::make_shared<WindowExpr>(children[0], std::move(partition), std::move(order),
                                      frame_, window_name_);
}

std::string WindowExpr::ToString() const {
  if (!window_name_.empty()) return function()->ToString() + " OVER " + window_name_;
  std::vector<std::string> parts;
  auto list = [](const std::vector<ExprPtr>& exprs) {
    std::string text;
    for (const auto& e : exprs) text += (text.empty() ? "" : ", ") + e->ToString();
    return text;
  };
  if (num_partition_by_ > 0) parts.push_back("PARTITION BY " + list(partition_by()));
  if (children().size() > 1 + num_partition_by_) parts.push_back("ORDER BY " + list(order_by()));
  if (frame_) parts.push_back(frame_->ToString());
  std::string spec;
  for (const auto& part : parts) spec += (spec.empty() ? "" : " ") + part;
  return function()->ToString() + " OVER (" + spec + ")";
}

std::vector<std::string> SplitColumnName(const std::string& dotted_name) {
  std::vector<std::string> parts;
  std::string current;
  bool quoted = false;
  for (size_t i = 0; i < dotted_name.size(); ++i) {
    char c = dotted_name[i];
    if (c == '`') {
      if (quoted && i + 1 < dotted_name.size() && dotted_name[i + 1] == '`') {
        current.push_back('`');
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      parts.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  parts.push_back(std::move(current));
  return parts;
}

ExprPtr Col(std::string dotted_name) {
  if (dotted_name == "*") return std::make_shared<Star>();
  auto parts = SplitColumnName(dotted_name);
  if (parts.size() > 1 && parts.back() == "*") {
    parts.pop_back();
    return std::make_shared<Star>(std::move(parts));
  }
  return std::make_shared<ColumnRef>(std::move(parts));
}

ExprPtr ColumnPath(std::vector<std::string> name_parts) {
  return std::make_shared<ColumnRef>(std::move(name_parts));
}

ExprPtr Lit(std::shared_ptr<arrow::Scalar> value) {
  return std::make_shared<Literal>(std::move(value));
}

ExprPtr CallFunction(std::string name, std::vector<ExprPtr> args, bool distinct) {
  return std::make_shared<Call>(std::move(name), std::move(args), distinct);
}

ExprPtr WithChildren(const ExprPtr& e, std::vector<ExprPtr> children) {
  switch (e->kind()) {
    case ExprKind::kCall: {
      const auto& call = static_cast<const Call&>(*e);
      return std::make_shared<Call>(call.name(), std::move(children), call.distinct());
    }
    case ExprKind::kAlias:
      return std::make_shared<Alias>(children[0], static_cast<const Alias&>(*e).name());
    case ExprKind::kCast: {
      const auto& cast = static_cast<const Cast&>(*e);
      // A typed literal's child is the constant text: nothing to rebuild.
      if (cast.typed_literal()) return e;
      return std::make_shared<Cast>(children[0], cast.type(), cast.is_try());
    }
    case ExprKind::kExtract:
      return std::make_shared<Extract>(children[0], children[1]);
    case ExprKind::kSortOrder: {
      const auto& order = static_cast<const SortOrder&>(*e);
      return std::make_shared<SortOrder>(children[0], order.ascending(), order.nulls_first());
    }
    case ExprKind::kCaseWhen: {
      const auto& case_when = static_cast<const CaseWhen&>(*e);
      std::vector<std::pair<ExprPtr, ExprPtr>> branches;
      for (size_t i = 0; i < case_when.num_branches(); ++i) {
        branches.emplace_back(children[2 * i], children[2 * i + 1]);
      }
      ExprPtr otherwise = case_when.otherwise() ? children.back() : nullptr;
      return std::make_shared<CaseWhen>(std::move(branches), std::move(otherwise));
    }
    case ExprKind::kWindow:
      return static_cast<const WindowExpr&>(*e).WithChildren(std::move(children));
    default:
      return e;
  }
}

ExprPtr ReplaceSubexpressions(const ExprPtr& e, const std::function<bool(const Expr&)>& matches,
                              const ExprPtr& replacement) {
  if (matches(*e)) return replacement;
  std::vector<ExprPtr> children;
  bool changed = false;
  for (const auto& child : e->children()) {
    children.push_back(ReplaceSubexpressions(child, matches, replacement));
    changed = changed || children.back() != child;
  }
  if (!changed) return e;
  return WithChildren(e, std::move(children));
}

}  // namespace sluice::expr
