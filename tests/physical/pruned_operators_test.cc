// Filters and generators copy only what the operators above them read (Spark's column and
// nested schema pruning): the rest of their output holds nulls, in the plan's layout.
#include <memory>
#include <string>
#include <vector>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

#include "api/relational_test_support.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/physical/generate_operator.h"
#include "sluice/physical/project_operator.h"
#include "sluice/plan/generate.h"
#include "support/batch_stream_fixture.h"

namespace sluice {
namespace {

namespace F = functions;
using plan::ColumnUse;
using plan::ColumnUses;

std::shared_ptr<arrow::Array> Json(const std::shared_ptr<arrow::DataType>& type,
                                   const std::string& json) {
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

class PrunedOperatorsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }
  physical::ExecContext context_;
};

TEST_F(PrunedOperatorsTest, FilterCopiesOnlyTheFieldsReadOfAStruct) {
  auto inner =
      arrow::struct_({arrow::field("x", arrow::int64()), arrow::field("y", arrow::utf8())});
  auto s_type = arrow::struct_({arrow::field("a", arrow::int64()), arrow::field("b", arrow::utf8()),
                                arrow::field("t", inner)});
  auto schema = arrow::schema({arrow::field("k", arrow::int64()), arrow::field("s", s_type),
                               arrow::field("keep", arrow::boolean())});
  auto batch = testing::MakeBatch(
      schema, {"[0, 1, 2, 3, 4]",
               R"([{"a": 0, "b": "zero", "t": {"x": 10, "y": "u"}},
                   {"a": 1, "b": "one", "t": {"x": 11, "y": "v"}},
                   null,
                   {"a": 3, "b": "three", "t": null},
                   {"a": 4, "b": "four", "t": {"x": 14, "y": "w"}}])",
               "[true, true, true, false, true]"});
  // Sliced, so the struct and its children start at an offset.
  auto input = std::make_unique<testing::InMemoryBatchStream>(
      schema, std::vector<std::shared_ptr<arrow::RecordBatch>>{batch->Slice(1)});
  // Above the filter: s.a and s.t.x are read, nothing else.
  ColumnUse s_use;
  s_use.fields["a"] = ColumnUse::Whole();
  s_use.fields["t"].fields["x"] = ColumnUse::Whole();
  ColumnUses required = {ColumnUse{}, s_use, ColumnUse{}};
  auto condition = std::make_shared<expr::BoundColumn>(2, arrow::boolean(), true, "keep");
  auto filter = physical::MakeFilter(condition, required, std::move(input), context_);

  auto out = filter->Next().ValueOrDie();
  ASSERT_NE(out, nullptr);
  ASSERT_TRUE(out->ValidateFull().ok());
  EXPECT_TRUE(out->schema()->Equals(*schema));
  ASSERT_EQ(out->num_rows(), 3);
  // The struct keeps its own nulls; the fields read are filtered, the others are null.
  auto expected_s = Json(s_type, R"([{"a": 1, "b": null, "t": {"x": 11, "y": null}},
                                     null,
                                     {"a": 4, "b": null, "t": {"x": 14, "y": null}}])");
  EXPECT_TRUE(out->column(1)->Equals(*expected_s)) << out->column(1)->ToString();
  EXPECT_EQ(out->column(0)->null_count(), 3);
  EXPECT_EQ(out->column(2)->null_count(), 3);
  EXPECT_EQ(filter->Next().ValueOrDie(), nullptr);
}

TEST_F(PrunedOperatorsTest, GenerateRepeatsOnlyTheColumnsReadAbove) {
  auto session = SparkSession::builder().getOrCreate().ValueOrDie();
  auto arrays = Json(arrow::list(arrow::field("element", arrow::int32())), "[[1, 2], null, [5]]");
  auto table = testing::MakeTable({{"id", testing::Ints({1, 2, 3})},
                                   {"payload", testing::Strings({"p", "q", "r"})},
                                   {"arr", arrays}});
  auto df = session->createDataFrame(table).select({"id", "payload", F::explode("arr")});
  ASSERT_TRUE(df.ok()) << df.status().ToString();
  const auto& generate_node = df.plan()->children().at(0);
  ASSERT_EQ(generate_node->kind(), plan::PlanKind::kGenerate);
  const auto& generate = static_cast<const plan::Generate&>(*generate_node);

  // Above it, only id and the generated col are read: payload is not, and arr only by the
  // generator itself.
  ColumnUses required = {ColumnUse::Whole(), ColumnUse{}, ColumnUse{}, ColumnUse::Whole()};
  auto of_child = plan::RequiredOfChildren(generate, required);
  ASSERT_EQ(of_child.size(), 1u);
  EXPECT_EQ(plan::ReadFlags(of_child[0]), (plan::ColumnMask{true, false, true}));

  auto batch = table->CombineChunksToBatch().ValueOrDie();
  auto input = std::make_unique<testing::InMemoryBatchStream>(
      batch->schema(), std::vector<std::shared_ptr<arrow::RecordBatch>>{batch});
  auto stream = physical::MakeGenerate(generate, plan::ReadFlags(required), std::move(input),
                                       context_);
  auto out = stream->Next().ValueOrDie();
  ASSERT_NE(out, nullptr);
  ASSERT_TRUE(out->ValidateFull().ok());
  ASSERT_EQ(out->num_rows(), 3);
  EXPECT_TRUE(out->column(0)->Equals(*Json(arrow::int32(), "[1, 1, 3]")));
  EXPECT_EQ(out->column(1)->null_count(), 3);
  EXPECT_EQ(out->column(2)->null_count(), 3);
  EXPECT_TRUE(out->column(3)->Equals(*Json(arrow::int32(), "[1, 2, 5]")));
}

}  // namespace
}  // namespace sluice
