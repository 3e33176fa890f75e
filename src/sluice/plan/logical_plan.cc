#include "sluice/plan/logical_plan.h"

#include "sluice/expr/call_checks.h"
#include "sluice/plan/relation.h"

namespace sluice::plan {

bool LogicalPlan::is_streaming() const {
  if (kind_ == PlanKind::kRelation) {
    return static_cast<const Relation&>(*this).source().is_streaming();
  }
  for (const auto& child : children_) {
    if (child->is_streaming()) return true;
  }
  return false;
}

std::string LogicalPlan::TreeString() const {
  std::string out;
  AppendTree(out, 0);
  return out;
}

void LogicalPlan::AppendTree(std::string& out, int depth) const {
  if (depth > 0) out.append(static_cast<size_t>(depth - 1) * 3, ' ').append("+- ");
  out.append(Describe()).push_back('\n');
  for (const auto& child : children_) child->AppendTree(out, depth + 1);
}

std::string DescribeAttributes(const expr::AttributeList& attributes) {
  std::string text;
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (i > 0) text += ", ";
    text += attributes[i].name + "#" + std::to_string(attributes[i].id);
  }
  return text;
}

std::string ExplainText(const LogicalPlan& plan, bool extended) {
  std::string text = "== Analyzed Logical Plan ==\n";
  if (extended) {
    std::string columns;
    for (const auto& attribute : plan.output()) {
      if (!columns.empty()) columns += ", ";
      columns += attribute.name + ": " + expr::SqlTypeName(*attribute.type);
    }
    text += columns + "\n";
  }
  return text + plan.TreeString();
}

}  // namespace sluice::plan
