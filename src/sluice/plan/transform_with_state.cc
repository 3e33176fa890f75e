#include "sluice/plan/transform_with_state.h"

#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/plan/project.h"
#include "sluice/types/spark_types.h"

namespace sluice::plan {

arrow::Result<TimeMode> ParseTimeMode(const std::string& name) {
  const std::string lower = AsciiLower(name);
  if (lower == "none") return TimeMode::kNone;
  if (lower == "processingtime") return TimeMode::kProcessingTime;
  if (lower == "eventtime") return TimeMode::kEventTime;
  return SparkError("STATEFUL_PROCESSOR_UNKNOWN_TIME_MODE",
                    "Unknown time mode " + name +
                        ". Accepted timeMode modes are 'none', 'processingTime', 'eventTime'");
}

arrow::Result<std::shared_ptr<const TransformWithState>> TransformWithState::Make(
    PlanPtr child, const std::vector<expr::ExprPtr>& grouping,
    std::shared_ptr<StatefulProcessor> processor, std::shared_ptr<arrow::Schema> output_schema,
    OutputMode output_mode, TimeMode time_mode, const AnalysisContext& context,
    PlanPtr initial_state, const std::vector<expr::ExprPtr>& initial_grouping) {
  if (processor == nullptr || output_schema == nullptr) {
    return SparkError("ILLEGAL_ARGUMENT", "transformWithState needs a processor and a schema.");
  }
  if (output_mode == OutputMode::kComplete) {
    return SparkError("STATEFUL_PROCESSOR_UNSUPPORTED_OUTPUT_MODE",
                      "transformWithState supports the output modes append and update, not "
                      "complete.");
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, expr::BindSelectList(grouping, ScopeOf(*child, context)));
  std::vector<expr::NamedExpr> initial_bound;
  std::vector<PlanPtr> children{child};
  if (initial_state != nullptr) {
    if (initial_state->is_streaming()) {
      return SparkError("STATEFUL_PROCESSOR_INITIAL_STATE_STREAMING",
                        "The initial state of transformWithState must be a batch DataFrame, not "
                        "a streaming one.");
    }
    ARROW_ASSIGN_OR_RAISE(initial_bound,
                          expr::BindSelectList(initial_grouping, ScopeOf(*initial_state, context)));
    bool same = initial_bound.size() == bound.size();
    for (size_t k = 0; same && k < bound.size(); ++k) {
      same = initial_bound[k].expr->type()->Equals(*bound[k].expr->type());
    }
    if (!same) {
      return SparkError("ILLEGAL_ARGUMENT",
                        "The initial state of transformWithState must be grouped by keys of the "
                        "same types as the input.");
    }
    children.push_back(std::move(initial_state));
  }
  expr::AttributeList output;
  for (const auto& field : output_schema->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto type, types::ToSparkArrowType(field->type()));
    output.push_back({field->name(), type, field->nullable(), context.ids->Next(), {}});
  }
  return std::make_shared<TransformWithState>(
      std::move(children), std::move(bound), std::move(initial_bound), std::move(processor),
      std::move(output_schema), output_mode, time_mode, std::move(output));
}

TransformWithState::TransformWithState(std::vector<PlanPtr> children,
                                       std::vector<expr::NamedExpr> grouping,
                                       std::vector<expr::NamedExpr> initial_grouping,
                                       std::shared_ptr<StatefulProcessor> processor,
                                       std::shared_ptr<arrow::Schema> output_schema,
                                       OutputMode output_mode, TimeMode time_mode,
                                       expr::AttributeList output)
    : LogicalPlan(PlanKind::kTransformWithState, std::move(children), std::move(output)),
      grouping_(std::move(grouping)),
      initial_grouping_(std::move(initial_grouping)),
      processor_(std::move(processor)),
      output_schema_(std::move(output_schema)),
      output_mode_(output_mode),
      time_mode_(time_mode) {
  arrow::FieldVector fields;
  for (const auto& key : grouping_) {
    fields.push_back(arrow::field(key.name, key.expr->type(), key.expr->nullable()));
  }
  key_type_ = std::make_shared<arrow::StructType>(fields);
}

std::string TransformWithState::Describe() const {
  std::string keys;
  for (const auto& key : grouping_) keys += (keys.empty() ? "" : ", ") + key.expr->sql();
  return "TransformWithState [" + keys + "], " + OutputModeName(output_mode_);
}

}  // namespace sluice::plan
