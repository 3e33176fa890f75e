// mapGroupsWithState / flatMapGroupsWithState (PySpark: applyInPandasWithState): a user
// function called per key with the key's new rows and a state it keeps across batches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/binder.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/group_state.h"
#include "sluice/plan/logical_plan.h"
#include "sluice/plan/output_mode.h"

namespace sluice::plan {

/// Groups its input by `grouping` and calls `function` once per key with rows in a batch, and
/// on a stream once per key whose timeout passed (with no rows). Outputs what the calls return,
/// with `output_schema`. In a batch query every key starts without state and nothing times out.
class FlatMapGroupsWithState final : public LogicalPlan {
 public:
  /// Binds `grouping` against `child`. `output_mode` is the operator's own (append or update;
  /// mapGroupsWithState: update); `state_schema` is the layout of a key's state.
  static arrow::Result<std::shared_ptr<const FlatMapGroupsWithState>> Make(
      PlanPtr child, const std::vector<expr::ExprPtr>& grouping,
      FlatMapGroupsWithStateFunction function, std::shared_ptr<arrow::Schema> output_schema,
      std::shared_ptr<arrow::Schema> state_schema, OutputMode output_mode,
      GroupStateTimeout timeout, bool is_map, const AnalysisContext& context);

  const std::vector<expr::NamedExpr>& grouping() const { return grouping_; }
  const FlatMapGroupsWithStateFunction& function() const { return function_; }
  const std::shared_ptr<arrow::Schema>& output_schema() const { return output_schema_; }
  const std::shared_ptr<arrow::Schema>& state_schema() const { return state_schema_; }
  OutputMode output_mode() const { return output_mode_; }
  GroupStateTimeout timeout() const { return timeout_; }
  /// True for mapGroupsWithState (one row per call, update mode).
  bool is_map() const { return is_map_; }
  /// The struct type of the key passed to the function: the grouping columns.
  const std::shared_ptr<arrow::StructType>& key_type() const { return key_type_; }
  std::string Describe() const override;

  FlatMapGroupsWithState(PlanPtr child, std::vector<expr::NamedExpr> grouping,
                         FlatMapGroupsWithStateFunction function,
                         std::shared_ptr<arrow::Schema> output_schema,
                         std::shared_ptr<arrow::Schema> state_schema, OutputMode output_mode,
                         GroupStateTimeout timeout, bool is_map, expr::AttributeList output);

 private:
  std::vector<expr::NamedExpr> grouping_;
  FlatMapGroupsWithStateFunction function_;
  std::shared_ptr<arrow::Schema> output_schema_;
  std::shared_ptr<arrow::Schema> state_schema_;
  OutputMode output_mode_;
  GroupStateTimeout timeout_;
  bool is_map_;
  std::shared_ptr<arrow::StructType> key_type_;
};

}  // namespace sluice::plan
