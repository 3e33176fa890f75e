// Partial aggregation states: folding the exported state of one accumulator into another gives
// the same result as aggregating all rows in one (what a streaming aggregation relies on), and
// the key grouper groups keys as Spark does.
#include <cmath>
#include <limits>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/key_grouper.h"

namespace sluice::expr {
namespace {

class AggregateStateTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  std::shared_ptr<AggregateFunction> Resolve(const std::string& name,
                                             std::shared_ptr<arrow::DataType> type) {
    auto column = std::make_shared<BoundColumn>(0, type, true, "a");
    const auto* resolver = FunctionRegistry::Builtins().FindAggregate(name);
    EXPECT_NE(resolver, nullptr);
    return (*resolver)(CallSite{name, {column}, &config_}, false).ValueOrDie();
  }

  SessionConfig config_;
  EvalContext context_{&config_, 0};
};

TEST_F(AggregateStateTest, MergedStatesFinalizeLikeOneAccumulator) {
  arrow::DoubleBuilder builder;
  ASSERT_TRUE(builder.AppendValues({1.5, 2.0, -3.0, 10.25, 7.0, 0.5}).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  auto values = builder.Finish().ValueOrDie();
  const std::vector<GroupId> groups{0, 1, 0, 1, 0, 1, 0};
  for (const char* name : {"sum", "avg", "count", "min", "max", "first", "last", "var_samp",
                           "stddev_pop", "collect_list", "approx_count_distinct"}) {
    SCOPED_TRACE(name);
    auto function = Resolve(name, arrow::float64());
    // All rows in one accumulator.
    auto whole = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(whole->Resize(2).ok());
    ASSERT_TRUE(whole->Update(groups.data(), 7, {arrow::Datum(values)}, context_).ok());
    auto expected = whole->Finalize(context_).ValueOrDie();
    // The same rows split over two accumulators whose states are merged into a third.
    auto first = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    auto second = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(first->Resize(2).ok());
    ASSERT_TRUE(second->Resize(2).ok());
    ASSERT_TRUE(first->Update(groups.data(), 3, {arrow::Datum(values->Slice(0, 3))}, context_).ok());
    ASSERT_TRUE(
        second->Update(groups.data() + 3, 4, {arrow::Datum(values->Slice(3, 4))}, context_).ok());
    auto merged = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(merged->Resize(2).ok());
    const std::vector<GroupId> identity{0, 1};
    for (auto* part : {first.get(), second.get()}) {
      auto state = part->State().ValueOrDie();
      ASSERT_EQ(state.size(), function->state_fields().size());
      ASSERT_TRUE(merged->Merge(identity.data(), 2, state, context_).ok());
    }
    auto actual = merged->Finalize(context_).ValueOrDie();
    if (std::string(name) == "var_samp" || std::string(name) == "stddev_pop" ||
        std::string(name) == "avg") {
      for (int64_t g = 0; g < 2; ++g) {
        EXPECT_NEAR(static_cast<const arrow::DoubleArray&>(*actual).Value(g),
                    static_cast<const arrow::DoubleArray&>(*expected).Value(g), 1e-9);
      }
    } else {
      EXPECT_TRUE(actual->Equals(*expected)) << actual->ToString() << " vs "
                                             << expected->ToString();
    }
  }
}

TEST_F(AggregateStateTest, KeyGrouperGroupsNullsNaNAndZeros) {
  arrow::DoubleBuilder doubles;
  ASSERT_TRUE(doubles.AppendValues({0.0, -0.0, std::nan(""), -std::nan(""), 1.0}).ok());
  ASSERT_TRUE(doubles.AppendNull().ok());
  ASSERT_TRUE(doubles.AppendNull().ok());
  auto keys = doubles.Finish().ValueOrDie();
  auto grouper = KeyGrouper::Make({arrow::float64()}).ValueOrDie();
  std::vector<uint32_t> ids;
  ASSERT_TRUE(grouper->Consume({keys}, keys->length(), &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 1, 2, 3, 3}));
  EXPECT_EQ(grouper->num_groups(), 4);
  std::vector<int32_t> found;
  ASSERT_TRUE(grouper->Lookup({keys}, keys->length(), false, &found).ok());
  EXPECT_EQ(found, (std::vector<int32_t>{0, 0, 1, 1, 2, -1, -1}));

  arrow::Int64Builder longs;
  ASSERT_TRUE(longs.AppendValues({5, 7, 5}).ok());
  ASSERT_TRUE(longs.AppendNull().ok());
  auto ints = longs.Finish().ValueOrDie();
  arrow::StringBuilder strings;
  ASSERT_TRUE(strings.AppendValues({"a", "a", "a", "a"}).ok());
  auto texts = strings.Finish().ValueOrDie();
  auto pairs = KeyGrouper::Make({arrow::int64(), arrow::utf8()}).ValueOrDie();
  ASSERT_TRUE(pairs->Consume({ints, texts}, 4, &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 2}));
  auto uniques = pairs->GetUniques().ValueOrDie();
  EXPECT_EQ(uniques[0]->ToString(), "[\n  5,\n  7,\n  null\n]");
}

}  // namespace
}  // namespace sluice::expr
