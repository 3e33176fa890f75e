#include "sluice/plan/union.h"

#include <algorithm>

#include <arrow/scalar.h>

#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/type_coercion.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

namespace {

std::string Ordinal(size_t index) {
  static const char* kNames[] = {"first", "second", "third", "fourth", "fifth",
                                 "sixth", "seventh", "eighth", "ninth", "tenth"};
  if (index < 10) return kNames[index];
  return std::to_string(index + 1) + "th";
}

bool SameName(const std::string& a, const std::string& b, bool case_sensitive) {
  if (case_sensitive) return a == b;
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

// A projection of `child` computing `exprs`, whose output keeps the given attributes (ids,
// names, qualifiers), with each one's type and nullability taken from its expression.
PlanPtr ProjectKeeping(PlanPtr child, std::vector<expr::NamedExpr> exprs,
                       expr::AttributeList attributes) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    attributes[i].type = exprs[i].expr->type();
    attributes[i].nullable = exprs[i].expr->nullable();
  }
  return std::make_shared<Project>(std::move(child), std::move(exprs), std::move(attributes));
}

expr::BoundExprPtr ColumnOf(const expr::AttributeList& attributes, size_t index) {
  const auto& a = attributes[index];
  return std::make_shared<expr::BoundColumn>(static_cast<int>(index), a.type, a.nullable, a.name);
}

}  // namespace

arrow::Result<std::shared_ptr<const Union>> Union::Make(std::vector<PlanPtr> children,
                                                        const AnalysisContext& context) {
  const auto& first = children[0]->output();
  for (size_t c = 1; c < children.size(); ++c) {
    if (children[c]->output().size() != first.size()) {
      return SparkError("NUM_COLUMNS_MISMATCH",
                        "UNION can only be performed on inputs with the same number of columns, "
                        "but the first input has " + std::to_string(first.size()) +
                            " columns and the " + Ordinal(c) + " input has " +
                            std::to_string(children[c]->output().size()) + " columns.");
    }
  }
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (size_t i = 0; i < first.size(); ++i) {
    auto type = first[i].type;
    for (size_t c = 1; c < children.size(); ++c) {
      const auto& other = children[c]->output()[i].type;
      auto common = expr::CommonType(type, other);
      if (common == nullptr) {
        return SparkError("INCOMPATIBLE_COLUMN_TYPE",
                          "UNION can only be performed on tables with compatible column types. "
                          "The " + Ordinal(i) + " column of the " + Ordinal(c) +
                              " table is \"" + expr::SqlTypeName(*other) +
                              "\" type which is not compatible with \"" +
                              expr::SqlTypeName(*type) + "\" at the same column of the first "
                              "table..");
      }
      type = common;
    }
    types.push_back(type);
  }
  expr::AttributeList output = first;
  for (auto& child : children) {
    const auto& attributes = child->output();
    bool needs_cast = false;
    for (size_t i = 0; i < attributes.size(); ++i) {
      needs_cast = needs_cast || !attributes[i].type->Equals(*types[i]);
    }
    if (needs_cast) {
      std::vector<expr::NamedExpr> exprs;
      for (size_t i = 0; i < attributes.size(); ++i) {
        ARROW_ASSIGN_OR_RAISE(auto cast, expr::MakeCast(ColumnOf(attributes, i), types[i],
                                                        expr::CastKind::kImplicit,
                                                        *context.config));
        exprs.push_back({std::move(cast), attributes[i].name, std::nullopt});
      }
      child = ProjectKeeping(child, std::move(exprs), attributes);
    }
  }
  for (size_t i = 0; i < output.size(); ++i) {
    output[i].type = types[i];
    for (const auto& child : children) {
      output[i].nullable = output[i].nullable || child->output()[i].nullable;
    }
  }
  return std::make_shared<Union>(std::move(children), std::move(output));
}

arrow::Result<std::shared_ptr<const Union>> Union::MakeByName(PlanPtr left, PlanPtr right,
                                                              bool allow_missing_columns,
                                                              const AnalysisContext& context) {
  const bool case_sensitive = context.config->case_sensitive();
  const auto& left_attributes = left->output();
  const auto& right_attributes = right->output();
  auto find = [&](const expr::AttributeList& attributes, const std::string& name) -> int {
    for (size_t j = 0; j < attributes.size(); ++j) {
      if (SameName(attributes[j].name, name, case_sensitive)) return static_cast<int>(j);
    }
    return -1;
  };
  auto column_list = [](const expr::AttributeList& attributes) {
    std::string text;
    for (size_t j = 0; j < attributes.size(); ++j) {
      text += (j ? ", " : "") + attributes[j].name;
    }
    return text;
  };
  std::vector<expr::NamedExpr> right_exprs;
  expr::AttributeList right_output;
  for (const auto& a : left_attributes) {
    const int j = find(right_attributes, a.name);
    if (j < 0) {
      if (!allow_missing_columns) {
        return SparkError("_LEGACY_ERROR_TEMP_1201",
                          "Cannot resolve column name \"" + a.name + "\" among (" +
                              column_list(right_attributes) + ").");
      }
      right_exprs.push_back({std::make_shared<expr::BoundLiteral>(arrow::MakeNullScalar(a.type),
                                                                  "NULL"),
                             a.name, std::nullopt});
      right_output.push_back({a.name, a.type, true, context.ids->Next(), {}});
    } else {
      right_exprs.push_back({ColumnOf(right_attributes, j), right_attributes[j].name,
                             right_attributes[j]});
      right_output.push_back(right_attributes[j]);
    }
  }
  std::vector<expr::NamedExpr> left_exprs;
  expr::AttributeList left_output = left_attributes;
  for (size_t i = 0; i < left_attributes.size(); ++i) {
    left_exprs.push_back({ColumnOf(left_attributes, i), left_attributes[i].name,
                          left_attributes[i]});
  }
  if (allow_missing_columns) {
    for (size_t j = 0; j < right_attributes.size(); ++j) {
      const auto& a = right_attributes[j];
      if (find(left_attributes, a.name) >= 0) continue;
      left_exprs.push_back({std::make_shared<expr::BoundLiteral>(arrow::MakeNullScalar(a.type),
                                                                 "NULL"),
                            a.name, std::nullopt});
      left_output.push_back({a.name, a.type, true, context.ids->Next(), {}});
      right_exprs.push_back({ColumnOf(right_attributes, j), a.name, a});
      right_output.push_back(a);
    }
  }
  if (left_exprs.size() != left_attributes.size()) {
    left = ProjectKeeping(left, std::move(left_exprs), std::move(left_output));
  }
  right = ProjectKeeping(right, std::move(right_exprs), std::move(right_output));
  return Make({std::move(left), std::move(right)}, context);
}

}  // namespace sluice::plan
