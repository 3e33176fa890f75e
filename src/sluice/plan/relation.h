#pragma once

#include <memory>

#include "sluice/plan/analysis_context.h"
#include "sluice/plan/data_source.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// A leaf reading all columns of a data source.
class Relation final : public LogicalPlan {
 public:
  /// Gives each column of the source a fresh attribute id.
  static std::shared_ptr<const Relation> Make(std::shared_ptr<const DataSource> source,
                                              const AnalysisContext& context);

  const DataSource& source() const { return *source_; }
  const std::shared_ptr<const DataSource>& source_ptr() const { return source_; }
  std::string Describe() const override;

  Relation(std::shared_ptr<const DataSource> source, expr::AttributeList output)
      : LogicalPlan(PlanKind::kRelation, {}, std::move(output)), source_(std::move(source)) {}

 private:
  std::shared_ptr<const DataSource> source_;
};

}  // namespace sluice::plan
