#include "sluice/plan/join.h"

#include <algorithm>
#include <set>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/expr/type_coercion.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void SplitConjuncts(const expr::ExprPtr& condition, std::vector<expr::ExprPtr>* out) {
  if (condition->kind() == expr::ExprKind::kCall) {
    const auto& call = static_cast<const expr::Call&>(*condition);
    if (Lower(call.name()) == "and" && call.children().size() == 2) {
      SplitConjuncts(call.children()[0], out);
      SplitConjuncts(call.children()[1], out);
      return;
    }
  }
  out->push_back(condition);
}

// The smallest and largest input column a bound expression reads, or {-1, -1} for none.
void ColumnRange(const expr::BoundExpr& e, int* low, int* high) {
  if (e.kind() == expr::BoundKind::kColumn) {
    const int index = static_cast<const expr::BoundColumn&>(e).index();
    *low = *low < 0 ? index : std::min(*low, index);
    *high = std::max(*high, index);
  }
  for (const auto& child : e.children()) ColumnRange(*child, low, high);
}

// Which side an expression reads: 0 none, 1 left only, 2 right only, 3 both.
int SideOf(const expr::BoundExpr& e, int num_left) {
  int low = -1, high = -1;
  ColumnRange(e, &low, &high);
  if (low < 0) return 0;
  if (high < num_left) return 1;
  if (low >= num_left) return 2;
  return 3;
}

expr::AttributeList Nullable(expr::AttributeList attributes) {
  for (auto& a : attributes) a.nullable = true;
  return attributes;
}

// A copy of `plan` whose columns have fresh ids, for a join of a plan with itself.
PlanPtr WithFreshIds(PlanPtr plan, const AnalysisContext& context) {
  std::vector<expr::NamedExpr> exprs;
  expr::AttributeList output = plan->output();
  for (size_t i = 0; i < output.size(); ++i) {
    const auto& a = output[i];
    exprs.push_back({std::make_shared<expr::BoundColumn>(static_cast<int>(i), a.type, a.nullable,
                                                         a.name),
                     a.name, std::nullopt});
    output[i].id = context.ids->Next();
  }
  return std::make_shared<Project>(std::move(plan), std::move(exprs), std::move(output));
}

}  // namespace

arrow::Result<JoinType> ParseJoinType(const std::string& how) {
  std::string name = Lower(how);
  name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
  if (name == "inner") return JoinType::kInner;
  if (name == "cross") return JoinType::kCross;
  if (name == "outer" || name == "full" || name == "fullouter") return JoinType::kFullOuter;
  if (name == "left" || name == "leftouter") return JoinType::kLeftOuter;
  if (name == "right" || name == "rightouter") return JoinType::kRightOuter;
  if (name == "semi" || name == "leftsemi") return JoinType::kLeftSemi;
  if (name == "anti" || name == "leftanti") return JoinType::kLeftAnti;
  return SparkError("UNSUPPORTED_JOIN_TYPE",
                    "Unsupported join type '" + how +
                        "'. Supported join types include: 'inner', 'outer', 'full', "
                        "'fullouter', 'full_outer', 'leftouter', 'left', 'left_outer', "
                        "'rightouter', 'right', 'right_outer', 'leftsemi', 'left_semi', "
                        "'semi', 'leftanti', 'left_anti', 'anti', 'cross'.");
}

std::string JoinTypeName(JoinType type) {
  switch (type) {
    case JoinType::kInner: return "Inner";
    case JoinType::kCross: return "Cross";
    case JoinType::kLeftOuter: return "LeftOuter";
    case JoinType::kRightOuter: return "RightOuter";
    case JoinType::kFullOuter: return "FullOuter";
    case JoinType::kLeftSemi: return "LeftSemi";
    case JoinType::kLeftAnti: return "LeftAnti";
  }
  return "Inner";
}

arrow::Result<std::shared_ptr<const Join>> Join::Make(PlanPtr left, PlanPtr right, JoinType type,
                                                      const expr::ExprPtr& condition,
                                                      const AnalysisContext& context) {
  std::set<int64_t> left_ids;
  for (const auto& a : left->output()) left_ids.insert(a.id);
  for (const auto& a : right->output()) {
    if (left_ids.count(a.id)) {
      right = WithFreshIds(right, context);
      break;
    }
  }
  const auto& left_output = left->output();
  const auto& right_output = right->output();
  const int num_left = static_cast<int>(left_output.size());
  expr::AttributeList combined = left_output;
  combined.insert(combined.end(), right_output.begin(), right_output.end());
  expr::BindScope scope = ScopeOf(*left, context);
  scope.attributes = &combined;
  const expr::BindScope left_scope = ScopeOf(*left, context);
  const expr::BindScope right_scope = ScopeOf(*right, context);

  std::vector<expr::BoundExprPtr> left_keys, right_keys;
  std::vector<bool> null_safe;
  expr::BoundExprPtr residual;
  std::string condition_sql;
  if (condition) {
    ARROW_ASSIGN_OR_RAISE(auto whole, expr::Bind(*condition, scope));
    const auto id = whole->type()->id();
    if (id != arrow::Type::BOOL && id != arrow::Type::NA) {
      return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                        "Cannot resolve \"" + whole->sql() +
                            "\" due to data type mismatch: the join condition requires the "
                            "\"BOOLEAN\" type, however it has the type \"" +
                            expr::SqlTypeName(*whole->type()) + "\".");
    }
    condition_sql = whole->sql();
    std::vector<expr::ExprPtr> conjuncts;
    SplitConjuncts(condition, &conjuncts);
    for (const auto& conjunct : conjuncts) {
      bool is_key = false;
      if (conjunct->kind() == expr::ExprKind::kCall) {
        const auto& call = static_cast<const expr::Call&>(*conjunct);
        const bool equal_null_safe = call.name() == "<=>";
        if ((call.name() == "=" || call.name() == "==" || equal_null_safe) &&
            call.children().size() == 2) {
          ARROW_ASSIGN_OR_RAISE(auto a, expr::Bind(*call.children()[0], scope));
          ARROW_ASSIGN_OR_RAISE(auto b, expr::Bind(*call.children()[1], scope));
          const int side_a = SideOf(*a, num_left), side_b = SideOf(*b, num_left);
          const expr::Expr* left_side = nullptr;
          const expr::Expr* right_side = nullptr;
          if (side_a == 1 && side_b == 2) {
            left_side = call.children()[0].get();
            right_side = call.children()[1].get();
          } else if (side_a == 2 && side_b == 1) {
            left_side = call.children()[1].get();
            right_side = call.children()[0].get();
          }
          if (left_side != nullptr) {
            auto l = expr::Bind(*left_side, left_scope);
            auto r = expr::Bind(*right_side, right_scope);
            if (l.ok() && r.ok()) {
              auto common = expr::CommonType((*l)->type(), (*r)->type());
              if (common != nullptr && expr::IsGroupableType(*common)) {
                ARROW_ASSIGN_OR_RAISE(auto lk, expr::MakeCast(*l, common, expr::CastKind::kImplicit,
                                                             *context.config));
                ARROW_ASSIGN_OR_RAISE(auto rk, expr::MakeCast(*r, common, expr::CastKind::kImplicit,
                                                             *context.config));
                left_keys.push_back(std::move(lk));
                right_keys.push_back(std::move(rk));
                null_safe.push_back(equal_null_safe);
                is_key = true;
              }
            }
          }
        }
      }
      if (is_key) continue;
      ARROW_ASSIGN_OR_RAISE(auto bound, expr::Bind(*conjunct, scope));
      ARROW_ASSIGN_OR_RAISE(bound, expr::MakeCast(bound, arrow::boolean(),
                                                  expr::CastKind::kImplicit, *context.config));
      if (residual == nullptr) {
        residual = std::move(bound);
      } else {
        const std::string sql = "(" + residual->sql() + " AND " + bound->sql() + ")";
        residual = std::make_shared<expr::BoundLogical>(expr::BoundKind::kAnd, residual,
                                                        std::move(bound), sql);
      }
    }
  }
  if (type == JoinType::kCross && condition) type = JoinType::kInner;
  expr::AttributeList output;
  switch (type) {
    case JoinType::kInner:
    case JoinType::kCross:
      output = combined;
      break;
    case JoinType::kLeftOuter:
      output = left_output;
      for (const auto& a : Nullable(right_output)) output.push_back(a);
      break;
    case JoinType::kRightOuter:
      output = Nullable(left_output);
      for (const auto& a : right_output) output.push_back(a);
      break;
    case JoinType::kFullOuter:
      output = Nullable(combined);
      break;
    case JoinType::kLeftSemi:
    case JoinType::kLeftAnti:
      output = left_output;
      break;
  }
  return std::make_shared<Join>(std::move(left), std::move(right), type, std::move(left_keys),
                                std::move(right_keys), std::move(null_safe), std::move(residual),
                                std::move(condition_sql), std::move(output));
}

arrow::Result<PlanPtr> Join::MakeUsing(PlanPtr left, PlanPtr right, JoinType type,
                                       const std::vector<std::string>& using_columns,
                                       const AnalysisContext& context) {
  const bool case_sensitive = context.config->case_sensitive();
  auto find = [&](const expr::AttributeList& attributes, const std::string& name) -> int {
    for (size_t j = 0; j < attributes.size(); ++j) {
      if (case_sensitive ? attributes[j].name == name
                         : Lower(attributes[j].name) == Lower(name)) {
        return static_cast<int>(j);
      }
    }
    return -1;
  };
  auto names_of = [](const expr::AttributeList& attributes) {
    std::string text;
    for (size_t j = 0; j < attributes.size(); ++j) {
      text += (j ? ", " : "") + QuoteIdentifier(attributes[j].name);
    }
    return text;
  };
  // Fresh ids on the right first, so the key references below stay unambiguous.
  std::set<int64_t> left_ids;
  for (const auto& a : left->output()) left_ids.insert(a.id);
  for (const auto& a : right->output()) {
    if (left_ids.count(a.id)) {
      right = WithFreshIds(right, context);
      break;
    }
  }
  std::vector<int> left_index, right_index;
  expr::ExprPtr condition;
  for (const auto& name : using_columns) {
    const int l = find(left->output(), name), r = find(right->output(), name);
    if (l < 0 || r < 0) {
      const bool left_side = l < 0;
      return SparkError("UNRESOLVED_USING_COLUMN_FOR_JOIN",
                        "USING column " + QuoteIdentifier(name) + " cannot be resolved on the " +
                            (left_side ? "left" : "right") +
                            " side of the join. The " + (left_side ? "left" : "right") +
                            "-side columns: [" +
                            names_of(left_side ? left->output() : right->output()) + "].");
    }
    left_index.push_back(l);
    right_index.push_back(r);
    const auto& la = left->output()[l];
    const auto& ra = right->output()[r];
    auto equal = expr::CallFunction(
        "=", {std::make_shared<expr::ColumnRef>(std::vector<std::string>{la.name}, la.id),
              std::make_shared<expr::ColumnRef>(std::vector<std::string>{ra.name}, ra.id)});
    condition = condition ? expr::CallFunction("and", {condition, equal}) : equal;
  }
  const expr::AttributeList left_output = left->output();
  const expr::AttributeList right_output = right->output();
  ARROW_ASSIGN_OR_RAISE(auto join, Make(left, right, type, condition, context));
  auto ref = [](const expr::Attribute& a) -> expr::ExprPtr {
    return std::make_shared<expr::ColumnRef>(std::vector<std::string>{a.name}, a.id);
  };
  std::vector<expr::ExprPtr> exprs;
  for (size_t k = 0; k < using_columns.size(); ++k) {
    const auto& la = left_output[left_index[k]];
    const auto& ra = join->children()[1]->output()[right_index[k]];
    switch (join->join_type()) {
      case JoinType::kRightOuter:
        exprs.push_back(ref(ra));
        break;
      case JoinType::kFullOuter:
        exprs.push_back(std::make_shared<expr::Alias>(
            expr::CallFunction("coalesce", {ref(la), ref(ra)}), la.name));
        break;
      default:
        exprs.push_back(ref(la));
        break;
    }
  }
  for (size_t j = 0; j < left_output.size(); ++j) {
    if (std::find(left_index.begin(), left_index.end(), static_cast<int>(j)) == left_index.end()) {
      exprs.push_back(ref(left_output[j]));
    }
  }
  if (join->join_type() != JoinType::kLeftSemi && join->join_type() != JoinType::kLeftAnti) {
    const auto& joined_right = join->children()[1]->output();
    for (size_t j = 0; j < joined_right.size(); ++j) {
      if (std::find(right_index.begin(), right_index.end(), static_cast<int>(j)) ==
          right_index.end()) {
        exprs.push_back(ref(joined_right[j]));
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto project, Project::Make(join, exprs, context));
  return PlanPtr(project);
}

std::string Join::Describe() const {
  std::string text = "Join " + JoinTypeName(type_);
  if (!condition_sql_.empty()) text += ", " + condition_sql_;
  return text;
}

}  // namespace sluice::plan
