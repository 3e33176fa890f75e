#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// UNION ALL: the rows of every child in turn, matched by position. The children have the
/// same number of columns and (after Make inserted casts) the same types; the output keeps the
/// first child's names and attributes, nullable where any child's column is.
class Union final : public LogicalPlan {
 public:
  /// By position: NUM_COLUMNS_MISMATCH when the column counts differ; each column widened to
  /// the children's common type (INCOMPATIBLE_COLUMN_TYPE when there is none).
  static arrow::Result<std::shared_ptr<const Union>> Make(std::vector<PlanPtr> children,
                                                          const AnalysisContext& context);

  /// unionByName: the right side's columns matched to the left's by name (case-insensitively
  /// unless the session is case sensitive). A left column missing on the right is an error,
  /// or with `allow_missing_columns` a null column; so is a right-only column, which then is
  /// appended to the output.
  static arrow::Result<std::shared_ptr<const Union>> MakeByName(PlanPtr left, PlanPtr right,
                                                                bool allow_missing_columns,
                                                                const AnalysisContext& context);

  std::string Describe() const override { return "Union false, false"; }

  Union(std::vector<PlanPtr> children, expr::AttributeList output)
      : LogicalPlan(PlanKind::kUnion, std::move(children), std::move(output)) {}
};

}  // namespace sluice::plan
