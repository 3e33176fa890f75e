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
    OutputMode output_mode, TimeMode time_mode, const AnalysisContext& context) {
  if (processor == nullptr || output_schema == nullptr) {
    return SparkError("ILLEGAL_ARGUMENT", "transformWithState needs a processor and a schema.");
  }
  if (output_mode == OutputMode::kComplete) {
    return SparkError("STATEFUL_PROCESSOR_UNSUPPORTED_OUTPUT_MODE",
                      "transformWithState supports the output modes append and update, not "
                      "complete.");
  }
  ARROW_ASSIGN_OR_RAISE(auto bound, expr::BindSelectList(grouping, ScopeOf(*child, context)));
  expr::AttributeList output;
  for (const auto& field : output_schema->fields()) {
    ARROW_ASSIGN_OR_RAISE(auto type, types::ToSparkArrowType(field->type()));
    output.push_back({field->name(), type, field->nullable(), context.ids->Next(), {}});
  }
  return std::make_shared<TransformWithState>(std::move(child), std::move(bound),
                                              std::move(processor), std::move(output_schema),
                                              output_mode, time_mode, std::move(output));
}

TransformWithState::TransformWithState(PlanPtr child, std::vector<expr::NamedExpr> grouping,
                                       std::shared_ptr<StatefulProcessor> processor,
                                       std::shared_ptr<arrow::Schema> output_schema,
                                       OutputMode output_mode, TimeMode time_mode,
                                       expr::AttributeList output)
    : LogicalPlan(PlanKind::kTransformWithState, {std::move(child)}, std::move(output)),
      grouping_(std::move(grouping)),
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
