#pragma once

#include <memory>
#include <string>

#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// `df.alias("t")`: the same rows, with every column reachable as `t.column`.
class SubqueryAlias final : public LogicalPlan {
 public:
  static std::shared_ptr<const SubqueryAlias> Make(PlanPtr child, std::string alias);

  const std::string& alias() const { return alias_; }
  std::string Describe() const override { return "SubqueryAlias " + alias_; }

  SubqueryAlias(PlanPtr child, std::string alias, expr::AttributeList output)
      : LogicalPlan(PlanKind::kSubqueryAlias, {std::move(child)}, std::move(output)),
        alias_(std::move(alias)) {}

 private:
  std::string alias_;
};

}  // namespace sluice::plan
