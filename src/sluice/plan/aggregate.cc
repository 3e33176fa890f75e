#include "sluice/plan/aggregate.h"

#include <algorithm>
#include <map>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/plan/project.h"
#include "sluice/plan/scala_set_order.h"

namespace sluice::plan {

namespace {

void CollectColumns(const expr::BoundExprPtr& expr, std::vector<const expr::BoundColumn*>* out) {
  if (expr->kind() == expr::BoundKind::kColumn) {
    out->push_back(static_cast<const expr::BoundColumn*>(expr.get()));
  }
  for (const auto& child : expr->children()) CollectColumns(child, out);
}

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

expr::AttributeList OutputOf(const std::vector<expr::NamedExpr>& results,
                             const expr::AttributeList& intermediate,
                             const AnalysisContext& context) {
  expr::AttributeList output;
  for (const auto& named : results) {
    if (named.passthrough) {
      expr::Attribute kept = *named.passthrough;
      kept.name = named.name;
      kept.nullable = named.expr->nullable();
      output.push_back(std::move(kept));
    } else {
      output.push_back({named.name, named.expr->type(), named.expr->nullable(),
                        context.ids->Next(), {}, EventTimeDelayOf(*named.expr, intermediate)});
    }
  }
  return output;
}

// `e` with every subexpression outside aggregate calls that is written as a grouping
// expression (`a + 1` after GROUP BY a + 1) replaced by a reference to that key's column, as
// Spark matches select-list expressions to the grouping expressions.
expr::ExprPtr ReferenceGroupingExpressions(const expr::ExprPtr& e,
                                           const std::map<std::string, expr::ExprPtr>& keys,
                                           const expr::FunctionRegistry& registry) {
  if (e->kind() == expr::ExprKind::kCall &&
      registry.FindAggregate(Lower(static_cast<const expr::Call&>(*e).name())) != nullptr) {
    return e;
  }
  if (e->kind() != expr::ExprKind::kColumn && e->kind() != expr::ExprKind::kAlias) {
    auto key = keys.find(e->ToString());
    if (key != keys.end()) return key->second;
  }
  std::vector<expr::ExprPtr> children;
  bool changed = false;
  for (const auto& child : e->children()) {
    children.push_back(ReferenceGroupingExpressions(child, keys, registry));
    changed = changed || children.back() != child;
  }
  return changed ? expr::WithChildren(e, std::move(children)) : e;
}

// The unaliased text of each grouping expression that is not a plain column, with a reference
// to its column of the intermediate layout.
std::map<std::string, expr::ExprPtr> GroupingExpressionColumns(
    const std::vector<expr::ExprPtr>& keys, const std::vector<int>& key_position,
    const expr::AttributeList& intermediate) {
  std::map<std::string, expr::ExprPtr> columns;
  for (size_t k = 0; k < keys.size(); ++k) {
    expr::ExprPtr key = keys[k];
    if (key->kind() == expr::ExprKind::kAlias) {
      key = static_cast<const expr::Alias&>(*key).child();
    }
    if (key->kind() == expr::ExprKind::kColumn || key->kind() == expr::ExprKind::kStar) continue;
    const auto& attribute = intermediate[key_position[k]];
    columns.emplace(key->ToString(),
                    std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                                      attribute.id));
  }
  return columns;
}

arrow::Status CheckGroupable(const expr::NamedExpr& key) {
  if (expr::IsGroupableType(*key.expr->type())) return arrow::Status::OK();
  return SparkError("GROUP_EXPRESSION_TYPE_IS_NOT_ORDERABLE",
                    "The expression \"" + key.expr->sql() +
                        "\" cannot be used as a grouping expression because its data type \"" +
                        expr::SqlTypeName(*key.expr->type()) +
                        "\" is not an orderable data type.");
}

}  // namespace

arrow::Result<std::shared_ptr<const Aggregate>> Aggregate::Make(
    PlanPtr child, const std::vector<expr::ExprPtr>& keys,
    const std::vector<expr::ExprPtr>& aggregates, const AnalysisContext& context,
    bool keys_in_output) {
  const expr::BindScope child_scope = ScopeOf(*child, context);
  ARROW_ASSIGN_OR_RAISE(auto grouping, expr::BindSelectList(keys, child_scope));
  const int num_child = static_cast<int>(child->output().size());
  expr::AttributeList intermediate = child->output();
  std::vector<Source> sources(num_child);
  std::vector<int> key_position(grouping.size());
  for (size_t k = 0; k < grouping.size(); ++k) {
    ARROW_RETURN_NOT_OK(CheckGroupable(grouping[k]));
    const auto& key = grouping[k].expr;
    if (key->kind() == expr::BoundKind::kColumn) {
      const int j = static_cast<const expr::BoundColumn&>(*key).index();
      if (sources[j].kind == Source::Kind::kNull) sources[j] = {Source::Kind::kKey, static_cast<int>(k)};
      key_position[k] = j;
    } else {
      intermediate.push_back({grouping[k].name, key->type(), key->nullable(),
                              context.ids->Next(), {}});
      sources.push_back({Source::Kind::kKey, static_cast<int>(k)});
      key_position[k] = static_cast<int>(intermediate.size()) - 1;
    }
  }

  std::vector<expr::AggregateFunctionPtr> functions;
  std::map<std::string, int> function_positions;
  expr::BindScope scope = child_scope;
  scope.attributes = &intermediate;
  scope.aggregate_handler = [&](const expr::Call& call, std::vector<expr::BoundExprPtr> args)
      -> arrow::Result<expr::BoundExprPtr> {
    const std::string name = Lower(call.name());
    for (const auto& arg : args) {
      std::vector<const expr::BoundColumn*> columns;
      CollectColumns(arg, &columns);
      for (const auto* column : columns) {
        if (column->index() >= num_child) {
          return SparkError("NESTED_AGGREGATE_FUNCTION",
                            "It is not allowed to use an aggregate function in the argument of "
                            "another aggregate function. Please use the inner aggregate "
                            "function in a sub-query.");
        }
      }
    }
    // Calls are shared by their full argument list: first(a) and first(a, true) have the same
    // name but are different aggregates.
    std::vector<std::string> arg_sql;
    for (const auto& arg : args) arg_sql.push_back(arg->sql());
    const std::string identity = expr::FormatCall(name, arg_sql, call.distinct());
    const expr::AggregateResolver* resolver = context.registry->FindAggregate(name);
    ARROW_ASSIGN_OR_RAISE(auto function,
                          (*resolver)(expr::CallSite{name, std::move(args), context.config},
                                      call.distinct()));
    auto found = function_positions.find(identity);
    int position;
    if (found != function_positions.end()) {
      position = found->second;
    } else {
      intermediate.push_back({function->sql(), function->result_type(), function->nullable(),
                              context.ids->Next(), {}});
      position = static_cast<int>(intermediate.size()) - 1;
      sources.push_back({Source::Kind::kAggregate, static_cast<int>(functions.size())});
      function_positions.emplace(identity, position);
      functions.push_back(std::move(function));
    }
    const auto& attribute = intermediate[position];
    return std::make_shared<expr::BoundColumn>(position, attribute.type, attribute.nullable,
                                               attribute.name);
  };
  std::vector<expr::ExprPtr> aggregate_list = aggregates;
  if (keys.size() == grouping.size()) {
    const auto key_columns = GroupingExpressionColumns(keys, key_position, intermediate);
    if (!key_columns.empty()) {
      for (auto& e : aggregate_list) {
        e = ReferenceGroupingExpressions(e, key_columns, *context.registry);
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto listed, expr::BindSelectList(aggregate_list, scope));
  for (const auto& named : listed) {
    std::vector<const expr::BoundColumn*> columns;
    CollectColumns(named.expr, &columns);
    for (const auto* column : columns) {
      if (column->index() < num_child && sources[column->index()].kind != Source::Kind::kKey) {
        if (grouping.empty()) {
          return SparkError("MISSING_GROUP_BY",
                            "The query does not include a GROUP BY clause. Add GROUP BY or "
                            "turn it into the window functions using OVER clauses.");
        }
        return SparkError("MISSING_AGGREGATION",
                          "The non-aggregating expression \"" + column->sql() +
                              "\" is based on columns which are not participating in the GROUP "
                              "BY clause. Add the columns or the expression to the GROUP BY, "
                              "aggregate the expression, or use \"any_value(" + column->sql() +
                              ")\" if you do not care which of the values within a group is "
                              "returned.");
      }
    }
  }

  std::vector<expr::NamedExpr> results;
  if (keys_in_output) {
    for (size_t k = 0; k < grouping.size(); ++k) {
      const auto& attribute = intermediate[key_position[k]];
      auto column = std::make_shared<expr::BoundColumn>(key_position[k], attribute.type,
                                                        attribute.nullable, grouping[k].name);
      results.push_back({column, grouping[k].name, attribute});
    }
  }
  for (auto& named : listed) results.push_back(std::move(named));
  auto output = OutputOf(results, intermediate, context);
  return std::make_shared<Aggregate>(std::move(child), std::move(grouping), std::move(functions),
                                     std::move(intermediate), std::move(sources),
                                     std::move(results), std::move(output));
}

arrow::Result<std::shared_ptr<const Aggregate>> Aggregate::MakeDeduplicate(
    PlanPtr child, const std::vector<std::string>& subset, const AnalysisContext& context,
    Deduplication deduplication) {
  const auto& attributes = child->output();
  const bool case_sensitive = context.config->case_sensitive();
  std::vector<std::string> names = subset;
  if (names.empty()) {
    for (const auto& attribute : attributes) names.push_back(attribute.name);
  }
  // The keys in Spark's order, which its checkpoints record: the names as `toSet.toSeq`
  // orders them, each taking every column it names. A column named twice is a key once.
  std::vector<int> key_columns;
  for (const auto& name : ScalaSetOrder(names)) {
    bool found = false;
    for (size_t j = 0; j < attributes.size(); ++j) {
      const bool same = case_sensitive ? attributes[j].name == name
                                       : Lower(attributes[j].name) == Lower(name);
      if (!same) continue;
      found = true;
      if (std::find(key_columns.begin(), key_columns.end(), static_cast<int>(j)) ==
          key_columns.end()) {
        key_columns.push_back(static_cast<int>(j));
      }
    }
    if (!found) return expr::UnresolvedColumnError(name, attributes);
  }
  std::vector<expr::NamedExpr> grouping;
  std::vector<Source> sources(attributes.size());
  for (int j : key_columns) {
    const auto& a = attributes[static_cast<size_t>(j)];
    expr::NamedExpr key{std::make_shared<expr::BoundColumn>(j, a.type, a.nullable, a.name),
                        a.name, a};
    ARROW_RETURN_NOT_OK(CheckGroupable(key));
    sources[static_cast<size_t>(j)] = {Source::Kind::kKey, static_cast<int>(grouping.size())};
    grouping.push_back(std::move(key));
  }
  std::vector<expr::AggregateFunctionPtr> functions;
  std::vector<expr::NamedExpr> results;
  const expr::AggregateResolver* first = context.registry->FindAggregate("first");
  for (size_t j = 0; j < attributes.size(); ++j) {
    const auto& a = attributes[j];
    auto column = std::make_shared<expr::BoundColumn>(static_cast<int>(j), a.type, a.nullable,
                                                      a.name);
    results.push_back({column, a.name, a});
    if (sources[j].kind == Source::Kind::kKey) continue;
    ARROW_ASSIGN_OR_RAISE(auto function,
                          (*first)(expr::CallSite{"first", {column}, context.config}, false));
    sources[j] = {Source::Kind::kAggregate, static_cast<int>(functions.size())};
    functions.push_back(std::move(function));
  }
  expr::AttributeList output = attributes;
  return std::make_shared<Aggregate>(std::move(child), std::move(grouping), std::move(functions),
                                     attributes, std::move(sources), std::move(results),
                                     std::move(output), deduplication);
}

std::optional<int> Aggregate::event_time_key() const {
  const auto& input = children()[0]->output();
  for (size_t k = 0; k < grouping_.size(); ++k) {
    const auto& key = grouping_[k].expr;
    if (key->kind() != expr::BoundKind::kColumn) continue;
    const auto& attribute = input[static_cast<const expr::BoundColumn&>(*key).index()];
    if (attribute.event_time_delay_ms) return static_cast<int>(k);
  }
  return std::nullopt;
}

std::string Aggregate::Describe() const {
  std::string text = "Aggregate [";
  for (size_t k = 0; k < grouping_.size(); ++k) {
    if (k > 0) text.append(", ");
    text.append(grouping_[k].expr->sql());
  }
  text += "], [";
  for (size_t i = 0; i < results_.size(); ++i) {
    if (i > 0) text += ", ";
    text += results_[i].expr->sql();
    if (results_[i].expr->sql() != results_[i].name) text += " AS " + results_[i].name;
    text.append("#").append(std::to_string(output()[i].id));
  }
  text.append("]");
  return text;
}

}  // namespace sluice::plan
