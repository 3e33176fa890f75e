#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <arrow/result.h>

#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// LIMIT n: the first n rows of the child (in its order); stops reading the child once it has
/// them.
class Limit final : public LogicalPlan {
 public:
  /// A negative n is INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE, as in Spark.
  static arrow::Result<std::shared_ptr<const Limit>> Make(PlanPtr child, int64_t n);

  int64_t n() const { return n_; }
  std::string Describe() const override { return "GlobalLimit " + std::to_string(n_); }

  Limit(PlanPtr child, int64_t n)
      : LogicalPlan(PlanKind::kLimit, {child}, child->output()), n_(n) {}

 private:
  int64_t n_;
};

}  // namespace sluice::plan
