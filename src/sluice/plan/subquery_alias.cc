#include "sluice/plan/subquery_alias.h"

namespace sluice::plan {

std::shared_ptr<const SubqueryAlias> SubqueryAlias::Make(PlanPtr child, std::string alias) {
  expr::AttributeList output = child->output();
  for (auto& attribute : output) attribute.qualifier = {alias};
  return std::make_shared<SubqueryAlias>(std::move(child), std::move(alias), std::move(output));
}

}  // namespace sluice::plan
