// transformWithState: a StatefulProcessor called per grouping key with the key's new rows and
// its expired timers, keeping state variables across batches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/binder.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"
#include "sluice/plan/output_mode.h"
#include "sluice/plan/stateful_processor.h"

namespace sluice::plan {

/// Groups its input by `grouping`; in each batch calls the processor's handleInputRows for
/// each key with rows, then handleExpiredTimer for each timer due; outputs the rows the calls
/// return, with `output_schema`.
class TransformWithState final : public LogicalPlan {
 public:
  /// `initial_state` (a batch plan, grouped by `initial_grouping` of the grouping's types) is
  /// optional: when given, its rows reach handleInitialState in the query's first batch.
  static arrow::Result<std::shared_ptr<const TransformWithState>> Make(
      PlanPtr child, const std::vector<expr::ExprPtr>& grouping,
      std::shared_ptr<StatefulProcessor> processor, std::shared_ptr<arrow::Schema> output_schema,
      OutputMode output_mode, TimeMode time_mode, const AnalysisContext& context,
      PlanPtr initial_state = nullptr, const std::vector<expr::ExprPtr>& initial_grouping = {});

  const std::vector<expr::NamedExpr>& grouping() const { return grouping_; }
  /// The initial state's grouping, bound against children()[1] (when there is one).
  const std::vector<expr::NamedExpr>& initial_grouping() const { return initial_grouping_; }
  bool has_initial_state() const { return children().size() > 1; }
  const std::shared_ptr<StatefulProcessor>& processor() const { return processor_; }
  const std::shared_ptr<arrow::Schema>& output_schema() const { return output_schema_; }
  OutputMode output_mode() const { return output_mode_; }
  TimeMode time_mode() const { return time_mode_; }
  /// The struct type of the key passed to the handlers: the grouping columns.
  const std::shared_ptr<arrow::StructType>& key_type() const { return key_type_; }
  std::string Describe() const override;

  TransformWithState(std::vector<PlanPtr> children, std::vector<expr::NamedExpr> grouping,
                     std::vector<expr::NamedExpr> initial_grouping,
                     std::shared_ptr<StatefulProcessor> processor,
                     std::shared_ptr<arrow::Schema> output_schema, OutputMode output_mode,
                     TimeMode time_mode, expr::AttributeList output);

 private:
  std::vector<expr::NamedExpr> grouping_;
  std::vector<expr::NamedExpr> initial_grouping_;
  std::shared_ptr<StatefulProcessor> processor_;
  std::shared_ptr<arrow::Schema> output_schema_;
  OutputMode output_mode_;
  TimeMode time_mode_;
  std::shared_ptr<arrow::StructType> key_type_;
};

}  // namespace sluice::plan
