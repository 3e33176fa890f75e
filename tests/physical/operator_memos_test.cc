// An operator evaluates its costly calls with memos of its own (expr/call_memos.h): a filter,
// a projection or an aggregation on a regex runs it once per distinct text over its batches.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

#include "api/relational_test_support.h"
#include "expr/function_call_harness.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/function_registry.h"
#include "sluice/physical/hash_aggregate.h"
#include "sluice/physical/project_operator.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/project.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

namespace F = functions;

/// `call`, a costly call, with a kernel that counts the rows it is given in `*rows_seen`.
std::shared_ptr<expr::BoundCall> Counting(const expr::BoundExpr& call, int64_t* rows_seen) {
  const auto& costly = static_cast<const expr::BoundCall&>(call);
  EXPECT_TRUE(costly.costly_per_value()) << costly.sql();
  return testing::CountingRows(costly, rows_seen);
}

/// Two batches of urls, four distinct ones among nine rows (null one of them).
std::vector<std::shared_ptr<arrow::RecordBatch>> Urls(const std::shared_ptr<arrow::Schema>& schema) {
  return {testing::MakeBatch(schema, {R"(["a=1", "b=2", "a=1", null, "c=3"])"}),
          testing::MakeBatch(schema, {R"(["b=2", "c=3", "a=1", "a=1"])"})};
}

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
  auto condition = Counting(
      expr::BoundCall("rlike", resolved.args, resolved.return_type, resolved.nullable,
                      resolved.can_fail, resolved.kernel, "RLIKE(s, a.c)", {},
                      resolved.costly_per_value),
      &rows_seen);

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

TEST(OperatorMemosTest, AProjectionRunsACostlyCallOncePerDistinctValueOverItsBatches) {
  ASSERT_TRUE(arrow::compute::Initialize().ok());
  auto session = SparkSession::builder().getOrCreate().ValueOrDie();
  auto table = testing::MakeTable({{"url", testing::Strings({"a=1"})}});
  auto df = session->createDataFrame(table).select(
      {F::regexp_extract(F::col("url"), "=(.)", 1).alias("digit")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  ASSERT_EQ(df.plan()->kind(), plan::PlanKind::kProject);
  const auto& project = static_cast<const plan::Project&>(*df.plan());
  int64_t rows_seen = 0;
  std::vector<expr::NamedExpr> exprs = project.exprs();
  exprs[0].expr = Counting(*exprs[0].expr, &rows_seen);
  plan::Project counted(project.children()[0], exprs, project.output());

  physical::ExecContext context;
  auto stream = physical::MakeProject(
      counted, {true},
      std::make_unique<testing::InMemoryBatchStream>(table->schema(), Urls(table->schema())),
      context);
  std::vector<std::string> digits;
  while (true) {
    auto batch = stream->Next().ValueOrDie();
    if (batch == nullptr) break;
    digits.push_back(batch->column(0)->ToString());
  }
  ASSERT_EQ(digits.size(), 2u);
  auto expected = [](const std::string& json) {
    return testing::MakeBatch(arrow::schema({arrow::field("d", arrow::utf8())}), {json})
        ->column(0)
        ->ToString();
  };
  EXPECT_EQ(digits[0], expected(R"(["1", "2", "1", null, "3"])"));
  EXPECT_EQ(digits[1], expected(R"(["2", "3", "1", "1"])"));
  EXPECT_EQ(rows_seen, 4);
}

TEST(OperatorMemosTest, AnAggregationRunsACostlyGroupingKeyOncePerDistinctValueOverItsBatches) {
  ASSERT_TRUE(arrow::compute::Initialize().ok());
  auto session = SparkSession::builder().getOrCreate().ValueOrDie();
  auto table = testing::MakeTable({{"url", testing::Strings({"a=1"})}});
  auto df = session->createDataFrame(table)
                .groupBy({F::regexp_extract(F::col("url"), "=(.)", 1).alias("digit")})
                .agg({F::count(F::lit(1)).alias("n")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  const plan::LogicalPlan* node = df.plan().get();
  while (node->kind() != plan::PlanKind::kAggregate) node = node->children().at(0).get();
  const auto& aggregate = static_cast<const plan::Aggregate&>(*node);
  int64_t rows_seen = 0;
  std::vector<expr::NamedExpr> grouping = aggregate.grouping();
  ASSERT_EQ(grouping.size(), 1u);
  grouping[0].expr = Counting(*grouping[0].expr, &rows_seen);
  plan::Aggregate counted(aggregate.children()[0], grouping, aggregate.aggregates(),
                          aggregate.intermediate(), aggregate.intermediate_sources(),
                          aggregate.results(), aggregate.output());

  physical::ExecContext context;
  auto stream = physical::MakeHashAggregate(
      counted,
      std::make_unique<testing::InMemoryBatchStream>(table->schema(), Urls(table->schema())),
      context);
  std::map<std::string, int64_t> counts;
  while (true) {
    auto batch = stream->Next().ValueOrDie();
    if (batch == nullptr) break;
    const auto& digits = static_cast<const arrow::StringArray&>(*batch->column(0));
    const auto& n = static_cast<const arrow::Int64Array&>(*batch->column(1));
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      counts[digits.IsNull(row) ? "null" : digits.GetString(row)] += n.Value(row);
    }
  }
  EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"1", 4}, {"2", 2}, {"3", 2}, {"null", 1}}));
  EXPECT_EQ(rows_seen, 4);
}

}  // namespace
}  // namespace sluice
