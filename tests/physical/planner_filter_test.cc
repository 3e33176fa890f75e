// In a micro-batch the physical planner pushes filters down as Spark's optimizer does
// (plan/pushed_filters.h): a filter is moved to where Spark's pushdown stops it, so its
// condition runs once for each row, as in Spark, whether it is pushed down or not.
#include <memory>
#include <vector>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

#include "expr/function_call_harness.h"
#include "sluice/api/column.h"
#include "sluice/api/functions.h"
#include "sluice/common/session_config.h"
#include "sluice/expr/function_registry.h"
#include "sluice/physical/planner.h"
#include "sluice/plan/data_source.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/project.h"
#include "sluice/plan/relation.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

namespace F = functions;

class PlannerFilterTest : public ::testing::TestWithParam<bool> {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  plan::AnalysisContext Analysis() {
    return {&config_, &expr::FunctionRegistry::Builtins(), &ids_};
  }

  /// The rows of `plan` run with filters pushed down or not (the test's parameter).
  std::vector<std::shared_ptr<arrow::RecordBatch>> Run(const plan::LogicalPlan& plan) {
    physical::ExecContext context;
    context.push_down_filters = GetParam();
    auto stream = physical::Execute(plan, context).ValueOrDie();
    std::vector<std::shared_ptr<arrow::RecordBatch>> batches;
    while (auto batch = stream->Next().ValueOrDie()) batches.push_back(batch);
    return batches;
  }

  SessionConfig config_;
  plan::AttributeIdGenerator ids_;
};

TEST_P(PlannerFilterTest, AFilterRunsItsConditionOncePerRow) {
  auto schema = arrow::schema({arrow::field("s", arrow::utf8())});
  auto table = arrow::Table::FromRecordBatches(
                   {testing::MakeBatch(schema, {R"(["a", "b", "a", null, "c"])"})})
                   .ValueOrDie();
  auto relation = plan::Relation::Make(std::make_shared<plan::InMemorySource>(table), Analysis());
  // s = 'a', its kernel counting the rows it is given.
  auto bound = plan::Filter::Make(relation, (F::col("s") == F::lit("a")).expr(), Analysis())
                   .ValueOrDie();
  int64_t rows_seen = 0;
  auto counting = testing::CountingRows(
      static_cast<const expr::BoundCall&>(*bound->condition()), &rows_seen);
  // Under a projection, which the pushdown passes through down to the scan.
  auto filter = std::make_shared<plan::Filter>(relation, counting);
  auto project = plan::Project::Make(filter, {F::col("s").expr()}, Analysis()).ValueOrDie();

  int64_t kept = 0;
  for (const auto& batch : Run(*project)) kept += batch->num_rows();
  EXPECT_EQ(kept, 2);
  EXPECT_EQ(rows_seen, 5);
}

INSTANTIATE_TEST_SUITE_P(PushedDownOrNot, PlannerFilterTest, ::testing::Bool());

}  // namespace
}  // namespace sluice
