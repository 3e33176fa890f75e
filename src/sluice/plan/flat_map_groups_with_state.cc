#include "sluice/plan/flat_map_groups_with_state.h"

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/plan/project.h"
#include "sluice/types/spark_types.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<const FlatMapGroupsWithState>> FlatMapGroupsWithState::Make(
    PlanPtr child, const std::vector<expr::ExprPtr>& grouping,
    FlatMapGroupsWithStateFunction function, std::shared_ptr<arrow::Schema> output_schema,
    std::shared_ptr<arrow::Schema> state_schema, OutputMode output_mode,
    GroupStateTimeout timeout, bool is_map, const AnalysisContext& context) {
  if (!function) return SparkError("ILLEGAL_ARGUMENT", "The function of groupsWithState is null.");
  if (output_schema == nullptr || state_schema == nullptr) {
    return SparkError("ILLEGAL_ARGUMENT", "groupsWithState needs an output and a state schema.");
  }
  if (output_mode == OutputMode::kComplete) {
    return SparkError("ILLEGAL_ARGUMENT",
                      "The output mode of flatMapGroupsWithState must be Append or Update");
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, expr::BindSelectList(grouping, ScopeOf(*child, context)));
  expr::AttributeList output;
  for (const auto& field : output_schema->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto type, types::ToSparkArrowType(field->type()));
    output.push_back({field->name(), type, field->nullable(), context.ids->Next(), {}});
  }
  return std::make_shared<FlatMapGroupsWithState>(
      std::move(child), std::move(bound), std::move(function), std::move(output_schema),
      std::move(state_schema), output_mode, timeout, is_map, std::move(output));
}

FlatMapGroupsWithState::FlatMapGroupsWithState(
    PlanPtr child, std::vector<expr::NamedExpr> grouping, FlatMapGroupsWithStateFunction function,
    std::shared_ptr<arrow::Schema> output_schema, std::shared_ptr<arrow::Schema> state_schema,
    OutputMode output_mode, GroupStateTimeout timeout, bool is_map, expr::AttributeList output)
    : LogicalPlan(PlanKind::kFlatMapGroupsWithState, {std::move(child)}, std::move(output)),
      grouping_(std::move(grouping)),
      function_(std::move(function)),
      output_schema_(std::move(output_schema)),
      state_schema_(std::move(state_schema)),
      output_mode_(output_mode),
      timeout_(timeout),
      is_map_(is_map) {
  arrow::FieldVector fields;
  for (const auto& key : grouping_) {
    fields.push_back(arrow::field(key.name, key.expr->type(), key.expr->nullable()));
  }
  key_type_ = std::make_shared<arrow::StructType>(fields);
}

std::string FlatMapGroupsWithState::Describe() const {
  std::string keys;
  for (const auto& key : grouping_) keys += (keys.empty() ? "" : ", ") + key.expr->sql();
  return std::string(is_map_ ? "MapGroupsWithState" : "FlatMapGroupsWithState") + " [" + keys +
         "], " + OutputModeName(output_mode_);
}

}  // namespace sluice::plan
