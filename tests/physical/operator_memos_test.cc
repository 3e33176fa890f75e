// An operator evaluates its costly calls with memos of its own (expr/call_memos.h): a filter
// on a regex runs it once per distinct text over all its batches.
#include <memory>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/function_registry.h"
#include "sluice/physical/project_operator.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

TEST(OperatorMemosTest, AFilterRunsACostlyConditionOncePerDistinctValueOverItsBatches) {
  ASSERT_TRUE(arrow::compute::Initialize().ok());
  auto schema = arrow::schema({arrow::field("s", arrow::utf8())});
  auto text = std::make_shared<expr::BoundColumn>(0, arrow::utf8(), true, "s");
  auto pattern = std::make_shared<expr::BoundLiteral>(
      std::make_shared<arrow::StringScalar>("a.c"), "a.c");
  SessionConfig config;
  const auto* rlike = expr::FunctionRegistry::Builtins().FindScalar("rlike");
  ASSERT_NE(rlike, nullptr);
  auto resolved = (*rlike)(expr::CallSite{"rlike", {text, pattern}, &config}).ValueOrDie();
  ASSERT_TRUE(resolved.costly_per_value);
  int64_t rows_seen = 0;
  expr::Kernel counting = [inner = resolved.kernel, &rows_seen](
                              const std::vector<arrow::Datum>& args,
                              const expr::EvalContext& context, int64_t rows) {
    rows_seen += rows;
    return inner(args, context, rows);
  };
  auto condition = std::make_shared<expr::BoundCall>(
      "rlike", resolved.args, resolved.return_type, resolved.nullable, resolved.can_fail,
      counting, "RLIKE(s, a.c)", std::vector<expr::BoundExprPtr>{}, resolved.costly_per_value);

  std::vector<std::shared_ptr<arrow::RecordBatch>> batches = {
      testing::MakeBatch(schema, {R"(["abc", "xyz", "abc", null, "aXc"])"}),
      testing::MakeBatch(schema, {R"(["xyz", "aXc", "abc", "abc"])"})};
  physical::ExecContext context;
  auto filter = physical::MakeFilter(
      condition, {plan::ColumnUse::Whole()},
      std::make_unique<testing::InMemoryBatchStream>(schema, batches), context);
  std::vector<int64_t> kept;
  while (true) {
    auto batch = filter->Next().ValueOrDie();
    if (batch == nullptr) break;
    kept.push_back(batch->num_rows());
  }
  EXPECT_EQ(kept, (std::vector<int64_t>{3, 3}));
  // Four distinct texts, null among them, out of nine rows.
  EXPECT_EQ(rows_seen, 4);
}

}  // namespace
}  // namespace sluice
