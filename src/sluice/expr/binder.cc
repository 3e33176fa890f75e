#include "sluice/expr/binder.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>

#include <arrow/array.h>
#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace {

bool NamesEqual(std::string_view a, std::string_view b, bool case_sensitive) {
  if (case_sensitive) return a == b;
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string QualifiedName(const Attribute& attribute) {
  std::string name;
  for (const auto& part : attribute.qualifier) name += QuoteIdentifier(part) + ".";
  return name + QuoteIdentifier(attribute.name);
}

// Extracts field `index` of a struct value, nulls where the struct itself is null.
Kernel StructFieldKernel(int index) {
  return [index](const std::vector<arrow::Datum>& args, const EvalContext& context,
                 int64_t) -> arrow::Result<arrow::Datum> {
    if (args[0].is_scalar()) {
      const auto& scalar = args[0].scalar_as<arrow::StructScalar>();
      const auto& field_type = scalar.type->field(index)->type();
      if (!scalar.is_valid) return arrow::Datum(arrow::MakeNullScalar(field_type));
      return arrow::Datum(scalar.value[index]);
    }
    const auto array = std::static_pointer_cast<arrow::StructArray>(args[0].make_array());
    ARROW_ASSIGN_OR_RAISE(auto field, array->GetFlattenedField(index, context.pool));
    return arrow::Datum(field);
  };
}

arrow::Result<BoundExprPtr> StructField(BoundExprPtr input, const std::string& field_name,
                                        const BindScope& scope) {
  if (input->type()->id() != arrow::Type::STRUCT) {
    return SparkError("INVALID_EXTRACT_BASE_FIELD_TYPE",
                      "Can't extract a value from \"" + input->sql() +
                          "\". Need a complex type [STRUCT, ARRAY, MAP] but got \"" +
                          SqlTypeName(*input->type()) + "\".");
  }
  const auto& type = static_cast<const arrow::StructType&>(*input->type());
  int found = -1;
  for (int i = 0; i < type.num_fields(); ++i) {
    if (NamesEqual(type.field(i)->name(), field_name, scope.config->case_sensitive())) {
      if (found >= 0) {
        return SparkError("AMBIGUOUS_REFERENCE_TO_FIELDS",
                          "Ambiguous reference to the field " + QuoteIdentifier(field_name) +
                              ". It appears 2 times in the schema.");
      }
      found = i;
    }
  }
  if (found < 0) {
    std::string fields;
    for (int i = 0; i < type.num_fields(); ++i) {
      fields += (i ? ", " : "") + QuoteIdentifier(type.field(i)->name());
    }
    return SparkError("FIELD_NOT_FOUND", "No such struct field " + QuoteIdentifier(field_name) +
                                             " in " + fields + ".");
  }
  const auto& field = type.field(found);
  std::string sql = input->sql() + "." + field->name();
  const bool nullable = input->nullable() || field->nullable();
  return std::make_shared<BoundCall>("get_struct_field", std::vector<BoundExprPtr>{input},
                                     field->type(), nullable, false, StructFieldKernel(found),
                                     std::move(sql));
}

struct ColumnMatch {
  size_t attribute;
  size_t consumed_parts;  // qualifier parts plus the column name
};

arrow::Result<BoundExprPtr> BindColumn(const ColumnRef& ref, const BindScope& scope) {
  const AttributeList& attributes = *scope.attributes;
  const auto& parts = ref.name_parts();
  const bool case_sensitive = scope.config->case_sensitive();
  std::vector<ColumnMatch> matches;
  if (ref.attribute_id()) {
    for (size_t i = 0; i < attributes.size(); ++i) {
      if (attributes[i].id == *ref.attribute_id()) matches.push_back({i, parts.size()});
    }
    if (matches.empty()) {
      return SparkError("MISSING_ATTRIBUTES.RESOLVED_ATTRIBUTE_APPEAR_IN_OPERATION",
                        "Resolved attribute(s) " + QuoteIdentifier(parts.back()) +
                            " missing from the input columns of the operator. Reference the "
                            "column through the DataFrame it belongs to after the operation.");
    }
  } else {
    // Qualified matches (t.a) take precedence over a column followed by struct fields (s.f).
    for (size_t i = 0; i < attributes.size(); ++i) {
      const auto& qualifier = attributes[i].qualifier;
      for (size_t q = 1; q <= qualifier.size() && q < parts.size(); ++q) {
        bool same = NamesEqual(attributes[i].name, parts[q], case_sensitive);
        for (size_t k = 0; same && k < q; ++k) {
          same = NamesEqual(qualifier[qualifier.size() - q + k], parts[k], case_sensitive);
        }
        if (same) matches.push_back({i, q + 1});
      }
    }
    if (matches.empty()) {
      for (size_t i = 0; i < attributes.size(); ++i) {
        if (NamesEqual(attributes[i].name, parts[0], case_sensitive)) matches.push_back({i, 1});
      }
    }
  }
  if (matches.empty()) return UnresolvedColumnError(ref.ToString(), attributes);
  if (matches.size() > 1) {
    std::string names;
    for (size_t i = 0; i < matches.size(); ++i) {
      names += (i ? ", " : "") + QualifiedName(attributes[matches[i].attribute]);
    }
    return SparkError("AMBIGUOUS_REFERENCE", "Reference " + QuoteIdentifier(ref.ToString()) +
                                                 " is ambiguous, could be: [" + names + "].");
  }
  const Attribute& attribute = attributes[matches[0].attribute];
  BoundExprPtr bound = std::make_shared<BoundColumn>(
      static_cast<int>(matches[0].attribute), attribute.type, attribute.nullable, attribute.name);
  for (size_t i = matches[0].consumed_parts; i < parts.size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(bound, StructField(bound, parts[i], scope));
  }
  return bound;
}

arrow::Result<BoundExprPtr> CastTo(BoundExprPtr expr, const std::shared_ptr<arrow::DataType>& type,
                                   const BindScope& scope) {
  return MakeCast(std::move(expr), type, CastKind::kImplicit, *scope.config);
}

// Evaluates an expression that reads no column (a cast of a literal) once, at bind time.
arrow::Result<std::shared_ptr<arrow::Scalar>> EvaluateConstant(const BoundExpr& expr,
                                                                const BindScope& scope) {
  const auto batch =
      arrow::RecordBatch::Make(arrow::schema({}), 1, std::vector<std::shared_ptr<arrow::Array>>{});
  EvalContext context;
  context.config = scope.config;
  ARROW_ASSIGN_OR_RAISE(auto value, expr.Evaluate(*batch, context));
  if (value.is_scalar()) return value.scalar();
  return value.make_array()->GetScalar(0);
}

// Spark's name for a literal. A timestamp is shown in the session time zone, as CAST(ts AS
// STRING) prints it: TIMESTAMP '2024-03-10 03:30:00'.
arrow::Result<std::string> LiteralSql(const std::shared_ptr<arrow::Scalar>& value,
                                      const BindScope& scope) {
  if (value->is_valid && value->type->id() == arrow::Type::TIMESTAMP) {
    const bool ntz = static_cast<const arrow::TimestampType&>(*value->type).timezone().empty();
    auto literal = std::make_shared<BoundLiteral>(value, "");
    ARROW_ASSIGN_OR_RAISE(auto text, MakeCast(std::move(literal), arrow::utf8(),
                                              CastKind::kExplicit, *scope.config));
    ARROW_ASSIGN_OR_RAISE(auto printed, EvaluateConstant(*text, scope));
    return (ntz ? "TIMESTAMP_NTZ '" : "TIMESTAMP '") + printed->ToString() + "'";
  }
  return LiteralToString(*value);
}

arrow::Result<BoundExprPtr> BindLiteral(std::shared_ptr<arrow::Scalar> value,
                                        const BindScope& scope) {
  ARROW_ASSIGN_OR_RAISE(auto sql, LiteralSql(value, scope));
  return std::make_shared<BoundLiteral>(std::move(value), std::move(sql));
}

bool IsIntegral(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
      return true;
    default:
      return false;
  }
}

const arrow::Decimal128Scalar* DecimalLiteralValue(const BoundExpr& expr) {
  if (expr.kind() != BoundKind::kLiteral) return nullptr;
  const auto& value = static_cast<const BoundLiteral&>(expr).value();
  if (!value->is_valid || value->type->id() != arrow::Type::DECIMAL128) return nullptr;
  return static_cast<const arrow::Decimal128Scalar*>(value.get());
}

// Spark's analyzer rewrites a comparison of an integral expression with a decimal literal
// (DecimalPrecision's integralAndDecimalLiteral): `i < 1.5` becomes `i < 2` (the literal rounded
// up or down to a bigint as the operator needs), and a literal beyond the bigint range decides
// the comparison outright (`i < 1e30BD` is `true`, even for a null i). Returns the rewritten
// arguments, or a boolean literal that replaces the whole comparison; nullptr when the rule does
// not apply.
BoundExprPtr RewriteIntegralDecimalComparison(const std::string& name,
                                              std::vector<BoundExprPtr>* args) {
  if (args->size() != 2) return nullptr;
  const bool less = name == "<" || name == "<=";
  const bool greater = name == ">" || name == ">=";
  if (!less && !greater) return nullptr;
  int literal_side;
  if (IsIntegral(*(*args)[0]->type()) && DecimalLiteralValue(*(*args)[1]) != nullptr) {
    literal_side = 1;
  } else if (DecimalLiteralValue(*(*args)[0]) != nullptr && IsIntegral(*(*args)[1]->type())) {
    literal_side = 0;
  } else {
    return nullptr;
  }
  // Normalized to `integral OP literal`: with the literal on the left the operator flips.
  const bool strict = name == "<" || name == ">";
  const bool integral_less = literal_side == 1 ? less : greater;  // i < lit, i <= lit
  const auto* literal = DecimalLiteralValue(*(*args)[literal_side]);
  const int32_t scale = static_cast<const arrow::Decimal128Type&>(*literal->type).scale();
  arrow::Decimal128 whole, fraction;
  literal->value.GetWholeAndFraction(scale, &whole, &fraction);
  const arrow::Decimal128 min_long(std::numeric_limits<int64_t>::min());
  const arrow::Decimal128 max_long(std::numeric_limits<int64_t>::max());
  const arrow::Decimal128 zero(0);
  const bool below_long = whole < min_long || (whole == min_long && fraction < zero);
  const bool above_long = whole > max_long || (whole == max_long && fraction > zero);
  auto boolean = [](bool value) -> BoundExprPtr {
    return std::make_shared<BoundLiteral>(std::make_shared<arrow::BooleanScalar>(value),
                                          value ? "true" : "false");
  };
  if (below_long) return boolean(!integral_less);
  if (above_long) return boolean(integral_less);
  const int64_t floor = static_cast<int64_t>(whole) - (fraction < zero ? 1 : 0);
  const int64_t ceil = static_cast<int64_t>(whole) + (fraction > zero ? 1 : 0);
  // i > lit and i <= lit use floor(lit); i >= lit and i < lit use ceil(lit).
  const bool use_floor = integral_less ? !strict : strict;
  const int64_t bound = use_floor ? floor : ceil;
  (*args)[literal_side] = std::make_shared<BoundLiteral>(
      std::make_shared<arrow::Int64Scalar>(bound), std::to_string(bound));
  return nullptr;
}

arrow::Status RequireBoolean(const BoundExpr& expr, const std::string& where) {
  const auto id = expr.type()->id();
  if (id == arrow::Type::BOOL || id == arrow::Type::NA) return arrow::Status::OK();
  return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    "Cannot resolve \"" + where +
                        "\" due to data type mismatch: the input requires the \"BOOLEAN\" type, "
                        "however \"" +
                        expr.sql() + "\" has the type \"" + SqlTypeName(*expr.type()) + "\".");
}

// The condition of the `index`-th branch of a CASE (or of an IF) must be boolean. An untyped
// NULL is allowed only where `allow_null` (IF, which Spark coerces; CASE rejects it).
arrow::Status RequireBooleanCondition(const BoundExpr& condition, size_t index, bool allow_null,
                                      const std::string& where) {
  const auto id = condition.type()->id();
  if (id == arrow::Type::BOOL || (allow_null && id == arrow::Type::NA)) {
    return arrow::Status::OK();
  }
  static constexpr const char* kOrdinals[] = {"first",  "second",  "third",  "fourth",
                                              "fifth",  "sixth",   "seventh", "eighth",
                                              "ninth",  "tenth"};
  const std::string ordinal =
      index < std::size(kOrdinals) ? kOrdinals[index] : std::to_string(index + 1) + "th";
  return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    "Cannot resolve \"" + where + "\" due to data type mismatch: The " + ordinal +
                        " parameter requires the \"BOOLEAN\" type, however \"" +
                        condition.sql() + "\" has the type \"" +
                        SqlTypeName(*condition.type()) + "\".");
}

std::string ArgumentSql(const std::string& name, const std::vector<BoundExprPtr>& args,
                        bool distinct) {
  std::vector<std::string> names;
  for (const auto& arg : args) names.push_back(arg->sql());
  return FormatCall(name, names, distinct);
}

arrow::Result<std::shared_ptr<arrow::DataType>> CommonTypeOf(
    const std::vector<BoundExprPtr>& values, const std::string& sql, const std::string& what) {
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& value : values) types.push_back(value->type());
  auto common = CommonType(types);
  if (common == nullptr) {
    std::string list;
    for (size_t i = 0; i < types.size(); ++i) {
      list += (i ? ", \"" : "\"") + SqlTypeName(*types[i]) + "\"";
    }
    return SparkError("DATATYPE_MISMATCH.DATA_DIFF_TYPES",
                      "Cannot resolve \"" + sql + "\" due to data type mismatch: Input to `" +
                          what + "` should all be the same type, but it's [" + list + "].");
  }
  return common;
}

arrow::Result<BoundExprPtr> BindCaseWhen(std::vector<BoundExprPtr> conditions,
                                         std::vector<BoundExprPtr> values, BoundExprPtr otherwise,
                                         std::string sql, const BindScope& scope) {
  std::vector<BoundExprPtr> all_values = values;
  if (otherwise) all_values.push_back(otherwise);
  ARROW_ASSIGN_OR_RAISE(auto type, CommonTypeOf(all_values, sql, "casewhen"));
  std::vector<BoundExprPtr> children;
  for (size_t i = 0; i < conditions.size(); ++i) {
    ARROW_RETURN_NOT_OK(RequireBooleanCondition(*conditions[i], i, /*allow_null=*/true, sql));
    ARROW_ASSIGN_OR_RAISE(auto condition, CastTo(conditions[i], arrow::boolean(), scope));
    ARROW_ASSIGN_OR_RAISE(auto value, CastTo(values[i], type, scope));
    children.push_back(std::move(condition));
    children.push_back(std::move(value));
  }
  if (otherwise) {
    ARROW_ASSIGN_OR_RAISE(auto value, CastTo(otherwise, type, scope));
    children.push_back(std::move(value));
  }
  return std::make_shared<BoundCaseWhen>(std::move(children), otherwise != nullptr, type,
                                         std::move(sql));
}

arrow::Result<BoundExprPtr> BindCall(const Call& call, const BindScope& scope);

// struct(a AS x, b) names its fields by the aliases: bind it as named_struct('x', a, 'b', b),
// keeping Spark's name for the call.
arrow::Result<BoundExprPtr> BindStructWithAliases(const Call& call, const BindScope& scope) {
  std::vector<ExprPtr> pairs;
  std::vector<std::string> names;
  int position = 0;
  for (const auto& child : call.children()) {
    ++position;
    std::string field;
    ExprPtr value = child;
    if (child->kind() == ExprKind::kAlias) {
      field = static_cast<const Alias&>(*child).name();
      value = static_cast<const Alias&>(*child).child();
    } else if (child->kind() == ExprKind::kColumn) {
      field = static_cast<const ColumnRef&>(*child).name_parts().back();
    } else {
      field = "col" + std::to_string(position);
    }
    ARROW_ASSIGN_OR_RAISE(auto bound_value, Bind(*value, scope));
    names.push_back(child->kind() == ExprKind::kAlias ? bound_value->sql() + " AS " + field
                                                      : bound_value->sql());
    pairs.push_back(Lit(std::make_shared<arrow::StringScalar>(field)));
    pairs.push_back(value);
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, BindCall(Call("named_struct", std::move(pairs)), scope));
  const auto& named = static_cast<const BoundCall&>(*bound);
  return std::make_shared<BoundCall>(
      "struct", named.children(), named.type(), named.nullable(), named.can_fail(),
      named.kernel(),
      FormatCall("struct", names, false));
}

arrow::Result<BoundExprPtr> BindCall(const Call& call, const BindScope& scope) {
  if (call.name() == "struct") {
    for (const auto& child : call.children()) {
      if (child->kind() == ExprKind::kAlias) return BindStructWithAliases(call, scope);
    }
  }
  std::vector<BoundExprPtr> args;
  for (const auto& child : call.children()) {
    if (child->kind() == ExprKind::kStar && call.name() == "count") {
      // count(*) counts rows: Spark rewrites it to count(1).
      args.push_back(std::make_shared<BoundLiteral>(arrow::MakeScalar(int32_t{1}), "1"));
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto arg, Bind(*child, scope));
    args.push_back(std::move(arg));
  }
  std::string name = call.name();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (auto decided = RewriteIntegralDecimalComparison(name, &args)) return decided;
  const std::string sql = ArgumentSql(name, args, call.distinct());
  // The unary operators `-a` and `+a` are the functions negative and positive.
  if (args.size() == 1 && (name == "-" || name == "+")) {
    name = name == "-" ? "negative" : "positive";
  }

  if ((name == "and" || name == "or") && args.size() == 2) {
    for (const auto& arg : args) ARROW_RETURN_NOT_OK(RequireBoolean(*arg, sql));
    ARROW_ASSIGN_OR_RAISE(auto left, CastTo(args[0], arrow::boolean(), scope));
    ARROW_ASSIGN_OR_RAISE(auto right, CastTo(args[1], arrow::boolean(), scope));
    return std::make_shared<BoundLogical>(name == "and" ? BoundKind::kAnd : BoundKind::kOr,
                                          std::move(left), std::move(right), sql);
  }
  if (name == "coalesce" || name == "nvl" || name == "ifnull") {
    if (args.empty() || (name != "coalesce" && args.size() != 2)) {
      CallSite site{name, args, scope.config};
      return CheckArgCount(site, name == "coalesce" ? 1 : 2,
                           name == "coalesce" ? SIZE_MAX : 2, name == "coalesce" ? "> 0" : "2");
    }
    ARROW_ASSIGN_OR_RAISE(auto type, CommonTypeOf(args, sql, name));
    std::vector<BoundExprPtr> cast;
    for (auto& arg : args) {
      ARROW_ASSIGN_OR_RAISE(auto converted, CastTo(arg, type, scope));
      cast.push_back(std::move(converted));
    }
    return std::make_shared<BoundCoalesce>(std::move(cast), type, sql);
  }
  if (name == "nullif") {
    // nullif(a, b) is Spark's IF(a = b, NULL, a), named as called.
    CallSite site{name, args, scope.config};
    ARROW_RETURN_NOT_OK(CheckArgCount(site, 2, 2, "2"));
    ARROW_ASSIGN_OR_RAISE(auto equal,
                          BindCall(Call("=", {call.children()[0], call.children()[1]}), scope));
    auto null = std::make_shared<BoundLiteral>(std::make_shared<arrow::NullScalar>(), "NULL");
    return BindCaseWhen({equal}, {null}, args[0], sql, scope);
  }
  if (name == "if" || name == "iff") {
    CallSite site{name, args, scope.config};
    ARROW_RETURN_NOT_OK(CheckArgCount(site, 3, 3, "3"));
    return BindCaseWhen({args[0]}, {args[1]}, args[2],
                        "(IF(" + args[0]->sql() + ", " + args[1]->sql() + ", " + args[2]->sql() +
                            "))",
                        scope);
  }
  if (const AggregateResolver* aggregate = scope.registry->FindAggregate(name)) {
    (void)aggregate;
    if (!scope.aggregate_handler) {
      return SparkError("INVALID_AGGREGATE_USE",
                        "The aggregate function " + sql +
                            " is not allowed here: use it in a groupBy().agg() or a select list "
                            "of aggregates, not inside a filter or another row-wise "
                            "expression.");
    }
    return scope.aggregate_handler(call, std::move(args));
  }
  const ScalarResolver* resolver = scope.registry->FindScalar(name);
  if (resolver == nullptr) {
    return SparkError("UNRESOLVED_ROUTINE",
                      "Cannot resolve routine " + QuoteIdentifier(call.name()) +
                          " on search path [`system`.`builtin`, `system`.`session`, "
                          "`spark_catalog`.`default`].");
  }
  if (call.distinct()) {
    return SparkError("INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX",
                      "The function " + QuoteIdentifier(name) +
                          " does not support DISTINCT.");
  }
  ARROW_ASSIGN_OR_RAISE(auto resolved, (*resolver)(CallSite{name, args, scope.config}));
  const bool rewritten = resolved.args != args;
  return std::make_shared<BoundCall>(name, std::move(resolved.args), resolved.return_type,
                                     resolved.nullable, resolved.can_fail,
                                     std::move(resolved.kernel),
                                     resolved.sql.empty() ? sql : std::move(resolved.sql),
                                     rewritten ? std::move(args) : std::vector<BoundExprPtr>{},
                                     resolved.costly_per_value);
}

}  // namespace

std::optional<std::string> StructFieldName(const BoundExpr& e) {
  if (e.kind() != BoundKind::kCall) return std::nullopt;
  const auto& call = static_cast<const BoundCall&>(e);
  if (call.function_name() != "get_struct_field" || call.children().size() != 1 ||
      call.children()[0]->type()->id() != arrow::Type::STRUCT) {
    return std::nullopt;
  }
  // Its SQL ends with "." and the field's name (see StructField); its input may have been
  // rewritten since, so the field is the struct's longest field name that ends it.
  const std::string& sql = call.sql();
  std::optional<std::string> name;
  for (const auto& field : call.children()[0]->type()->fields()) {
    const std::string suffix = "." + field->name();
    if (sql.size() >= suffix.size() &&
        sql.compare(sql.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        (!name || field->name().size() > name->size())) {
      name = field->name();
    }
  }
  return name;
}

const std::vector<std::string>& BinderFunctionNames() {
  static const std::vector<std::string> kNames = {"and",  "coalesce", "if", "iff",
                                                  "ifnull", "nullif", "nvl", "or"};
  return kNames;
}

arrow::Status UnresolvedColumnError(const std::string& name, const AttributeList& attributes) {
  if (attributes.empty()) {
    // Nothing in scope to suggest (a SELECT without FROM).
    return SparkError("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                      "A column, variable, or function parameter with name " +
                          QuoteIdentifier(name) + " cannot be resolved.");
  }
  std::vector<std::pair<size_t, std::string>> ranked;
  for (const auto& attribute : attributes) {
    ranked.emplace_back(EditDistance(name, attribute.name), QualifiedName(attribute));
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string suggestions;
  for (size_t i = 0; i < ranked.size() && i < 5; ++i) {
    suggestions += (i ? ", " : "") + ranked[i].second;
  }
  return SparkError("UNRESOLVED_COLUMN.WITH_SUGGESTION",
                    "A column, variable, or function parameter with name " +
                        QuoteIdentifier(name) +
                        " cannot be resolved. Did you mean one of the following? [" +
                        suggestions + "].");
}

arrow::Result<BoundExprPtr> Bind(const Expr& expr, const BindScope& scope) {
  switch (expr.kind()) {
    case ExprKind::kColumn:
      return BindColumn(static_cast<const ColumnRef&>(expr), scope);
    case ExprKind::kLiteral:
      return BindLiteral(static_cast<const Literal&>(expr).value(), scope);
    case ExprKind::kCall:
      return BindCall(static_cast<const Call&>(expr), scope);
    case ExprKind::kAlias:
      return Bind(*static_cast<const Alias&>(expr).child(), scope);
    case ExprKind::kCast: {
      const auto& cast = static_cast<const Cast&>(expr);
      ARROW_ASSIGN_OR_RAISE(auto child, Bind(*cast.child(), scope));
      const bool null_literal =
          child->kind() == BoundKind::kLiteral &&
          !static_cast<const BoundLiteral&>(*child).value()->is_valid;
      ARROW_ASSIGN_OR_RAISE(
          auto bound, MakeCast(std::move(child), cast.type(),
                               cast.is_try() ? CastKind::kTry : CastKind::kExplicit,
                               *scope.config));
      if (cast.typed_literal()) {
        ARROW_ASSIGN_OR_RAISE(auto value, EvaluateConstant(*bound, scope));
        return BindLiteral(std::move(value), scope);
      }
      // Spark folds a cast of NULL to an array, map or struct type into a NULL literal of that
      // type, named `NULL`: size(CAST(NULL AS ARRAY<INT>)) is `size(NULL)`.
      const auto target = cast.type()->id();
      if (null_literal && (target == arrow::Type::LIST || target == arrow::Type::LARGE_LIST ||
                           target == arrow::Type::MAP || target == arrow::Type::STRUCT)) {
        return std::make_shared<BoundLiteral>(arrow::MakeNullScalar(cast.type()), "NULL");
      }
      return bound;
    }
    case ExprKind::kCaseWhen: {
      const auto& case_when = static_cast<const CaseWhen&>(expr);
      std::vector<BoundExprPtr> conditions, values;
      std::string sql = "CASE";
      for (size_t i = 0; i < case_when.num_branches(); ++i) {
        ARROW_ASSIGN_OR_RAISE(auto condition, Bind(*case_when.condition(i), scope));
        ARROW_ASSIGN_OR_RAISE(auto value, Bind(*case_when.value(i), scope));
        sql += " WHEN " + condition->sql() + " THEN " + value->sql();
        conditions.push_back(std::move(condition));
        values.push_back(std::move(value));
      }
      BoundExprPtr otherwise;
      if (auto e = case_when.otherwise()) {
        ARROW_ASSIGN_OR_RAISE(otherwise, Bind(*e, scope));
        sql += " ELSE " + otherwise->sql();
      }
      // Unlike IF, CASE gets no coercion of an untyped NULL condition: Spark rejects it.
      for (size_t i = 0; i < conditions.size(); ++i) {
        ARROW_RETURN_NOT_OK(
            RequireBooleanCondition(*conditions[i], i, /*allow_null=*/false, sql + " END"));
      }
      return BindCaseWhen(std::move(conditions), std::move(values), std::move(otherwise),
                          sql + " END", scope);
    }
    case ExprKind::kExtract: {
      const auto& extract = static_cast<const Extract&>(expr);
      ARROW_ASSIGN_OR_RAISE(auto child, Bind(*extract.child(), scope));
      if (child->type()->id() == arrow::Type::STRUCT &&
          extract.key()->kind() == ExprKind::kLiteral) {
        const auto& key = *static_cast<const Literal&>(*extract.key()).value();
        if (key.type->id() == arrow::Type::STRING && key.is_valid) {
          return StructField(std::move(child),
                             std::string(static_cast<const arrow::StringScalar&>(key).view()),
                             scope);
        }
      }
      return BindCall(Call("[]", {extract.child(), extract.key()}), scope);
    }
    case ExprKind::kStar:
      return SparkError("INVALID_USAGE_OF_STAR_OR_REGEX",
                        "Invalid usage of '*' in expression `" + expr.ToString() +
                            "`: a star is only allowed in a select list or in count(*).");
    case ExprKind::kInvalid:
      return static_cast<const InvalidExpr&>(expr).error();
    case ExprKind::kSortOrder:
      return SparkError("INVALID_SQL_SYNTAX",
                        "A sort order `" + expr.ToString() + "` is only allowed in orderBy.");
    case ExprKind::kWindow:
      // Select lists plan their window expressions into Window nodes before binding.
      return SparkError("UNSUPPORTED_EXPR_FOR_OPERATOR",
                        "A query operator contains one or more unsupported expressions. "
                        "Consider to rewrite it to avoid window functions, aggregate functions, "
                        "and generator functions in the WHERE clause. Invalid expressions: [" +
                            expr.ToString() + "]");
    case ExprKind::kSubquery:
      // The SQL planner rewrites the subqueries it supports into joins before binding.
      return SparkError("UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY",
                        "Unsupported subquery expression: `" + expr.ToString() +
                            "`. Subqueries are supported as WHERE conditions (EXISTS, IN) and "
                            "as uncorrelated scalar subqueries in SELECT and WHERE.");
  }
  return arrow::Status::Invalid("unknown expression kind");
}

namespace {

// The innermost cast of a chain of casts written by the user over a column reference
// (`CAST(CAST(a AS BIGINT) AS INT)` gives `CAST(a AS BIGINT)`), or nullptr. Typed literals are
// not casts.
const Cast* CastOfColumn(const Expr& expr) {
  const Cast* innermost = nullptr;
  const Expr* current = &expr;
  while (current->kind() == ExprKind::kCast) {
    innermost = static_cast<const Cast*>(current);
    if (innermost->typed_literal()) return nullptr;
    current = innermost->child().get();
  }
  return current->kind() == ExprKind::kColumn ? innermost : nullptr;
}

}  // namespace

arrow::Result<std::vector<NamedExpr>> BindSelectList(const std::vector<ExprPtr>& exprs,
                                                     const BindScope& scope) {
  std::vector<NamedExpr> outputs;
  const AttributeList& attributes = *scope.attributes;
  for (const auto& expr : exprs) {
    if (expr->kind() == ExprKind::kStar) {
      const auto& target = static_cast<const Star&>(*expr).target();
      if (target.empty()) {
        for (size_t i = 0; i < attributes.size(); ++i) {
          const auto& a = attributes[i];
          outputs.push_back({std::make_shared<BoundColumn>(static_cast<int>(i), a.type,
                                                           a.nullable, a.name),
                             a.name, a});
        }
        continue;
      }
      // `t.*`: the columns qualified by t; otherwise `s.*`: the fields of struct column s.
      bool any = false;
      for (size_t i = 0; i < attributes.size(); ++i) {
        const auto& a = attributes[i];
        if (a.qualifier.size() >= target.size() &&
            std::equal(target.begin(), target.end(), a.qualifier.end() - target.size(),
                       [&](const std::string& x, const std::string& y) {
                         return NamesEqual(x, y, scope.config->case_sensitive());
                       })) {
          outputs.push_back({std::make_shared<BoundColumn>(static_cast<int>(i), a.type,
                                                           a.nullable, a.name),
                             a.name, a});
          any = true;
        }
      }
      if (any) continue;
      auto bound_base = BindColumn(ColumnRef(target), scope);
      if (!bound_base.ok() || (*bound_base)->type()->id() != arrow::Type::STRUCT) {
        return SparkError("CANNOT_RESOLVE_STAR_EXPAND",
                          "Cannot resolve " + QuoteIdentifier(expr->ToString()) +
                              " given input columns: the target is not a struct or table.");
      }
      const BoundExprPtr& base = *bound_base;
      for (const auto& field : base->type()->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto value, StructField(base, field->name(), scope));
        outputs.push_back({std::move(value), field->name(), std::nullopt});
      }
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto bound, Bind(*expr, scope));
    NamedExpr named{bound, bound->sql(), std::nullopt};
    if (expr->kind() == ExprKind::kAlias) {
      named.name = static_cast<const Alias&>(*expr).name();
    } else if (bound->kind() == BoundKind::kColumn) {
      const Attribute& a = attributes[static_cast<const BoundColumn&>(*bound).index()];
      named.name = a.name;
      // A column found case-insensitively is named as written (SELECT ID gives `ID`).
      if (expr->kind() == ExprKind::kColumn) {
        const auto& written = static_cast<const ColumnRef&>(*expr).name_parts().back();
        if (NamesEqual(written, a.name, false)) named.name = written;
      }
      named.passthrough = a;
    } else if (const Cast* innermost = CastOfColumn(*expr)) {
      // Spark names an unaliased cast of a column after the column, also through nested casts:
      // CAST(a AS INT) and CAST(CAST(a AS BIGINT) AS INT) are `a`. Over a struct field path the
      // innermost cast names the chain: CAST(CAST(s.f AS BIGINT) AS INT) is
      // `CAST(s.f AS BIGINT)`.
      ARROW_ASSIGN_OR_RAISE(auto column, Bind(*innermost->child(), scope));
      if (column->kind() == BoundKind::kColumn) {
        named.name = attributes[static_cast<const BoundColumn&>(*column).index()].name;
      } else {
        ARROW_ASSIGN_OR_RAISE(auto cast, Bind(*innermost, scope));
        named.name = cast->sql();
      }
    } else if (auto field = StructFieldName(*bound); field && expr->kind() == ExprKind::kColumn) {
      // A selected struct field path `s.f` is named by the field alone; a field of any other
      // expression keeps its full name: `named_struct(x, a).x`.
      named.name = *field;
    }
    outputs.push_back(std::move(named));
  }
  return outputs;
}

bool ContainsAggregate(const Expr& expr, const FunctionRegistry& registry) {
  // An aggregate over a window (`sum(a) OVER w`) is computed per row, not per group.
  if (expr.kind() == ExprKind::kWindow) return false;
  if (expr.kind() == ExprKind::kCall &&
      registry.FindAggregate(static_cast<const Call&>(expr).name()) != nullptr) {
    return true;
  }
  for (const auto& child : expr.children()) {
    if (ContainsAggregate(*child, registry)) return true;
  }
  return false;
}

bool ContainsWindow(const Expr& expr) {
  if (expr.kind() == ExprKind::kWindow) return true;
  for (const auto& child : expr.children()) {
    if (ContainsWindow(*child)) return true;
  }
  return false;
}

}  // namespace sluice::expr
