#include "sluice/plan/limit.h"

#include "sluice/common/errors.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<const Limit>> Limit::Make(PlanPtr child, int64_t n) {
  if (n < 0) {
    return SparkError("INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE",
                      "The limit like expression \"" + std::to_string(n) +
                          "\" is invalid. The limit expression must be equal to or greater than "
                          "0, but got " + std::to_string(n) + ".");
  }
  return std::make_shared<Limit>(std::move(child), n);
}

}  // namespace sluice::plan
