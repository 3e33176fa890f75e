#include "sluice/plan/generate.h"

#include <algorithm>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

const expr::Expr& Unaliased(const expr::Expr& e) {
  if (e.kind() == expr::ExprKind::kAlias) {
    return Unaliased(*static_cast<const expr::Alias&>(e).child());
  }
  return e;
}

}  // namespace

bool IsGeneratorCall(const expr::Expr& e) {
  const expr::Expr& target = Unaliased(e);
  if (target.kind() != expr::ExprKind::kCall) return false;
  const std::string name = Lower(static_cast<const expr::Call&>(target).name());
  return name == "explode" || name == "explode_outer" || name == "posexplode" ||
         name == "posexplode_outer" || name == "inline" || name == "inline_outer";
}

arrow::Result<std::shared_ptr<const Generate>> Generate::Make(PlanPtr child,
                                                              const expr::ExprPtr& generator,
                                                              const AnalysisContext& context) {
  std::string alias;
  if (generator->kind() == expr::ExprKind::kAlias) {
    alias = static_cast<const expr::Alias&>(*generator).name();
  }
  const auto& call = static_cast<const expr::Call&>(Unaliased(*generator));
  const std::string name = Lower(call.name());
  const bool outer = name.size() > 6 && name.substr(name.size() - 6) == "_outer";
  const bool with_position = name.rfind("posexplode", 0) == 0;
  const bool is_inline = name.rfind("inline", 0) == 0;
  std::vector<expr::BoundExprPtr> args;
  for (const auto& child_expr : call.children()) {
    ARROW_ASSIGN_OR_RAISE(auto arg, expr::Bind(*child_expr, ScopeOf(*child, context)));
    args.push_back(std::move(arg));
  }
  expr::CallSite site{name, args, context.config};
  ARROW_RETURN_NOT_OK(expr::CheckArgCount(site, 1, 1, "1"));
  const auto& type = args[0]->type();
  expr::AttributeList generated;
  auto add = [&](std::string column, std::shared_ptr<arrow::DataType> column_type,
                 bool nullable) {
    generated.push_back({std::move(column), std::move(column_type), nullable || outer,
                         context.ids->Next(), {}});
  };
  if (with_position) add("pos", arrow::int32(), false);
  if (is_inline) {
    const bool struct_elements =
        type->id() == arrow::Type::LIST &&
        static_cast<const arrow::ListType&>(*type).value_type()->id() == arrow::Type::STRUCT;
    if (!struct_elements) {
      return expr::UnexpectedInputType(site, 0, "\"ARRAY<STRUCT>\"");
    }
    const auto& element = static_cast<const arrow::ListType&>(*type).value_type();
    for (const auto& field : element->fields()) add(field->name(), field->type(), true);
  } else if (type->id() == arrow::Type::LIST) {
    const auto& list = static_cast<const arrow::ListType&>(*type);
    add(alias.empty() ? "col" : alias, list.value_type(), list.value_field()->nullable());
  } else if (type->id() == arrow::Type::MAP) {
    const auto& map = static_cast<const arrow::MapType&>(*type);
    add("key", map.key_type(), false);
    add("value", map.item_type(), map.item_field()->nullable());
  } else {
    return expr::UnexpectedInputType(site, 0, "(\"ARRAY\" or \"MAP\")");
  }
  std::vector<std::string> arg_names{args[0]->sql()};
  std::string sql = expr::FormatCall(name, arg_names, false);
  expr::AttributeList output = child->output();
  output.insert(output.end(), generated.begin(), generated.end());
  return std::make_shared<Generate>(std::move(child), args[0], outer, with_position, is_inline,
                                    std::move(sql), std::move(output));
}

expr::AttributeList Generate::generated() const {
  const size_t child_columns = children()[0]->output().size();
  return expr::AttributeList(output().begin() + child_columns, output().end());
}

std::string Generate::Describe() const {
  return "Generate " + sql_ + ", " + (outer_ ? "true" : "false") + ", [" +
         DescribeAttributes(generated()) + "]";
}

arrow::Result<PlanPtr> ProjectWithGenerator(PlanPtr child, const std::vector<expr::ExprPtr>& exprs,
                                            const AnalysisContext& context) {
  int position = -1;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (!IsGeneratorCall(*exprs[i])) continue;
    if (position >= 0) {
      return SparkError("UNSUPPORTED_GENERATOR.MULTI_GENERATOR",
                        "The generator is not supported: only one generator allowed per SELECT "
                        "clause but found 2: \"" + exprs[position]->ToString() + "\", \"" +
                            exprs[i]->ToString() + "\".");
    }
    position = static_cast<int>(i);
  }
  ARROW_ASSIGN_OR_RAISE(auto generate, Generate::Make(std::move(child), exprs[position], context));
  std::vector<expr::ExprPtr> list;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (static_cast<int>(i) != position) {
      list.push_back(exprs[i]);
      continue;
    }
    for (const auto& a : generate->generated()) {
      list.push_back(std::make_shared<expr::ColumnRef>(std::vector<std::string>{a.name}, a.id));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto project, Project::Make(generate, list, context));
  return PlanPtr(project);
}

}  // namespace sluice::plan
