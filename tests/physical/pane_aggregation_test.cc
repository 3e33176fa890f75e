// A sliding-window aggregation done per pane gives the groups and partial states of the rows
// exploded into their windows, and is chosen only where the split into panes cannot show.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

#include "api/relational_test_support.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/physical/generate_operator.h"
#include "sluice/physical/grouped_aggregation.h"
#include "sluice/physical/pane_aggregation.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/generate.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using physical::BatchGroups;

class PaneAggregationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  void SetUp() override {
    session_ = SparkSession::builder().getOrCreate().ValueOrDie();
    auto times = arrow::json::ArrayFromJSONString(
                     arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                     // Seconds 0, 1, 2.5, 3, 7, 7.9, 9, null, 12, 13, 21, 40.
                     "[0, 1000000, 2500000, 3000000, 7000000, 7900000, 9000000, null, "
                     "12000000, 13000000, 21000000, 40000000]")
                     .ValueOrDie();
    table_ = testing::MakeTable({{"k", testing::Ints({1, 2, 1, 1, 2, 1, 1, 2, 2, 1, 1, 2})},
                                 {"ts", times},
                                 {"v", testing::Ints({5, 3, 9, 1, 4, 4, 8, 7, 2, 6, 3, 1})}});
  }

  /// The aggregate node of `df` (groupBy(...).agg(...) over the table).
  static const plan::Aggregate& AggregateOf(const DataFrame& df) {
    EXPECT_EQ(df.plan()->kind(), plan::PlanKind::kAggregate);
    return static_cast<const plan::Aggregate&>(*df.plan());
  }

  /// The table in two batches, as two micro-batch reads would give it.
  std::vector<std::shared_ptr<arrow::RecordBatch>> Batches() const {
    auto batch = table_->CombineChunksToBatch().ValueOrDie();
    return {batch->Slice(0, 5), batch->Slice(5)};
  }

  /// Each group as text: its keys, then its partial states, sorted.
  static std::vector<std::string> Rows(const BatchGroups& groups) {
    std::vector<std::string> rows;
    for (int64_t g = 0; g < groups.num_groups; ++g) {
      std::string row;
      for (const auto& key : groups.keys) row += key->GetScalar(g).ValueOrDie()->ToString() + "|";
      for (const auto& state : groups.states) {
        row += state->GetScalar(g).ValueOrDie()->ToString() + "|";
      }
      rows.push_back(std::move(row));
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  /// The groups of the rows exploded into their windows, then grouped, as Spark does it.
  BatchGroups Exploded(const plan::Aggregate& aggregate) {
    const auto& generate = static_cast<const plan::Generate&>(*aggregate.children()[0]);
    auto stream = physical::MakeGenerate(
        generate, plan::ColumnMask(generate.output().size(), true),
        std::make_unique<testing::InMemoryBatchStream>(table_->schema(), Batches()), context_);
    auto grouped = physical::GroupedAggregation::Make(aggregate, context_.eval.pool).ValueOrDie();
    EXPECT_TRUE(grouped->ConsumeAll(*stream, context_.eval).ok());
    BatchGroups groups;
    groups.num_groups = grouped->num_groups();
    groups.keys = grouped->GroupKeys().ValueOrDie();
    groups.states = physical::ExportStates(grouped->accumulators()).ValueOrDie();
    return groups;
  }

  BatchGroups PerPane(const plan::Aggregate& aggregate) {
    auto panes = physical::PaneAggregation::Make(aggregate, context_.eval.pool).ValueOrDie();
    for (const auto& batch : Batches()) EXPECT_TRUE(panes->Consume(batch, context_.eval).ok());
    return panes->Finish(context_.eval).ValueOrDie();
  }

  std::shared_ptr<SparkSession> session_;
  std::shared_ptr<arrow::Table> table_;
  physical::ExecContext context_;
};

TEST_F(PaneAggregationTest, GivesTheGroupsAndStatesOfTheExplodedRows) {
  // 10 s windows every 4 s from 1 s: panes of 2 s from 1 s, five to a window. Keyed and
  // global, with a null time (no window) and times on pane and window bounds.
  auto df = session_->createDataFrame(table_);
  auto window = F::window(F::col("ts"), "10 seconds", "4 seconds", "1 second");
  auto aggregates = std::vector<Column>{
      F::count(F::lit(1)).alias("n"), F::count_if(F::col("v") > 3).alias("big"),
      F::min(F::col("v")).alias("lo"), F::max(F::col("v")).alias("hi")};
  for (const auto& grouped : {df.groupBy({F::col("k"), window}).agg(aggregates),
                              df.groupBy({window}).agg(aggregates)}) {
    ASSERT_TRUE(grouped.ok()) << grouped.status().ToString();
    const auto& aggregate = AggregateOf(grouped);
    ASSERT_TRUE(physical::PaneAggregation::Applies(aggregate));
    auto exploded = Exploded(aggregate);
    auto per_pane = PerPane(aggregate);
    EXPECT_GE(exploded.num_groups, 10);
    EXPECT_EQ(Rows(per_pane), Rows(exploded));
    EXPECT_EQ(per_pane.keys.size(), exploded.keys.size());
    for (size_t k = 0; k < per_pane.keys.size(); ++k) {
      EXPECT_TRUE(per_pane.keys[k]->type()->Equals(*exploded.keys[k]->type()));
    }
  }
}

TEST_F(PaneAggregationTest, WindowAndSlideWithoutACommonDivisorMakePanesOfAMicrosecond) {
  // gcd(10000001, 3000000) = 1: every distinct time is its own pane, each in up to four
  // windows; the result is still the explosion's.
  auto df = session_->createDataFrame(table_);
  auto grouped = df.groupBy({F::window(F::col("ts"), "10000001 microseconds", "3 seconds"),
                             F::col("k")})
                     .agg({F::count(F::lit(1)), F::max(F::col("v"))});
  ASSERT_TRUE(grouped.ok()) << grouped.status().ToString();
  const auto& aggregate = AggregateOf(grouped);
  ASSERT_TRUE(physical::PaneAggregation::Applies(aggregate));
  auto exploded = Exploded(aggregate);
  EXPECT_GE(exploded.num_groups, 10);
  EXPECT_EQ(Rows(PerPane(aggregate)), Rows(exploded));
}

TEST_F(PaneAggregationTest, IsChosenOnlyWhereTheSplitCannotShow) {
  auto df = session_->createDataFrame(table_);
  auto sliding = [&] { return F::window(F::col("ts"), "10 seconds", "5 seconds"); };
  auto applies = [&](const DataFrame& grouped) {
    EXPECT_TRUE(grouped.ok()) << grouped.status().ToString();
    return physical::PaneAggregation::Applies(AggregateOf(grouped));
  };
  EXPECT_TRUE(applies(df.groupBy({sliding(), F::col("k")}).agg({F::max(F::col("v"))})));
  // A sum's additions in another order may differ in the last bits, or overflow under ANSI.
  EXPECT_FALSE(applies(df.groupBy({sliding()}).agg({F::sum(F::col("v"))})));
  // first and collect_list see the rows in arrival order, not pane by pane.
  EXPECT_FALSE(applies(df.groupBy({sliding()}).agg({F::first(F::col("v"))})));
  EXPECT_FALSE(applies(df.groupBy({sliding()}).agg({F::collect_list(F::col("v"))})));
  EXPECT_FALSE(applies(df.groupBy({sliding()}).agg({F::countDistinct({F::col("v")})})));
  // A tumbling window is a projection: nothing is exploded.
  EXPECT_FALSE(applies(
      df.groupBy({F::window(F::col("ts"), "10 seconds")}).agg({F::count(F::lit(1))})));
}

}  // namespace
}  // namespace sluice
