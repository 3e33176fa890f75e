// Subexpressions written more than once in one operator's expressions are evaluated once per
// batch, and sharing never evaluates on every row what may fail and was guarded.
#include "sluice/expr/shared_subexpressions.h"

#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

namespace sluice::expr {
namespace {

namespace cp = arrow::compute;

class SharedSubexpressionsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(cp::Initialize().ok()); }

  void SetUp() override {
    arrow::Int64Builder a;
    ASSERT_TRUE(a.AppendValues({1, 2, 3, 4}).ok());
    arrow::Int64Builder b;
    ASSERT_TRUE(b.AppendValues({0, 1, 0, 2}).ok());
    batch_ = arrow::RecordBatch::Make(
        arrow::schema({arrow::field("a", arrow::int64()), arrow::field("b", arrow::int64())}), 4,
        {a.Finish().ValueOrDie(), b.Finish().ValueOrDie()});
  }

  BoundExprPtr Column(int index) {
    return std::make_shared<BoundColumn>(index, arrow::int64(), false, index == 0 ? "a" : "b");
  }
  BoundExprPtr Literal(int64_t value) {
    return std::make_shared<BoundLiteral>(std::make_shared<arrow::Int64Scalar>(value),
                                          std::to_string(value));
  }
  // A call of the arrow function `name` that counts its evaluations in calls_[name] (so
  // calls_ keeps its entries for the test's length).
  BoundExprPtr Call(const std::string& name, std::vector<BoundExprPtr> args,
                    bool can_fail = false) {
    std::string sql = name + "(";
    for (size_t i = 0; i < args.size(); ++i) sql += (i ? ", " : "") + args[i]->sql();
    sql += ")";
    int* calls = &calls_[name];
    Kernel kernel = [name, calls](const std::vector<arrow::Datum>& values, const EvalContext&,
                                  int64_t) {
      ++*calls;
      return cp::CallFunction(name, values);
    };
    return std::make_shared<BoundCall>(name, std::move(args), arrow::int64(), false, can_fail,
                                       kernel, sql);
  }
  BoundExprPtr Condition(BoundExprPtr value) {
    return std::make_shared<BoundCall>(
        "not_equal", std::vector<BoundExprPtr>{value, Literal(0)}, arrow::boolean(), false, false,
        [](const std::vector<arrow::Datum>& values, const EvalContext&, int64_t) {
          return cp::CallFunction("not_equal", values);
        },
        "(" + value->sql() + " != 0)");
  }
  BoundExprPtr CaseWhen(BoundExprPtr condition, BoundExprPtr value) {
    return std::make_shared<BoundCaseWhen>(std::vector<BoundExprPtr>{condition, value}, false,
                                           arrow::int64(), "CASE");
  }

  std::vector<std::string> SharedSql(const SharedSubexpressions& shared) {
    std::vector<std::string> sql;
    for (const auto& e : shared.shared()) sql.push_back(e->sql());
    return sql;
  }

  // The expressions' values over batch_, as `shared` evaluates them.
  std::vector<std::shared_ptr<arrow::Array>> Evaluate(const SharedSubexpressions& shared) {
    auto extended = shared.Extend(batch_, context_);
    EXPECT_TRUE(extended.ok()) << extended.status().ToString();
    std::vector<std::shared_ptr<arrow::Array>> values;
    for (const auto& e : shared.exprs()) {
      auto value = EvaluateToArray(*e, **extended, context_);
      EXPECT_TRUE(value.ok()) << value.status().ToString();
      if (value.ok()) values.push_back(*value);
    }
    return values;
  }

  std::shared_ptr<arrow::RecordBatch> batch_;
  EvalContext context_;
  std::map<std::string, int> calls_;
};

TEST_F(SharedSubexpressionsTest, ARepeatedSubexpressionIsEvaluatedOnce) {
  auto sum = Call("add", {Column(0), Column(1)});
  std::vector<BoundExprPtr> exprs = {Call("multiply", {sum, Literal(2)}),
                                     Call("subtract", {Call("add", {Column(0), Column(1)}),
                                                       Literal(1)})};
  SharedSubexpressions shared(exprs, batch_->num_columns());
  EXPECT_EQ(SharedSql(shared), std::vector<std::string>{"add(a, b)"});

  auto values = Evaluate(shared);
  EXPECT_EQ(calls_["add"], 1);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0]->ToString(), EvaluateToArray(*exprs[0], *batch_, context_)
                                       .ValueOrDie()
                                       ->ToString());
  EXPECT_EQ(values[1]->ToString(), EvaluateToArray(*exprs[1], *batch_, context_)
                                       .ValueOrDie()
                                       ->ToString());
}

TEST_F(SharedSubexpressionsTest, TheOutermostRepeatIsSharedAndWhatItHoldsOnlyWhenUsedElsewhere) {
  auto inner = [&] { return Call("add", {Column(0), Column(1)}); };
  auto outer = [&] { return Call("multiply", {inner(), Column(0)}); };
  SharedSubexpressions only_outer({outer(), Call("negate", {outer()})}, 2);
  EXPECT_EQ(SharedSql(only_outer), std::vector<std::string>{"multiply(add(a, b), a)"});

  SharedSubexpressions both({outer(), Call("negate", {outer()}), inner()}, 2);
  EXPECT_EQ(SharedSql(both),
            (std::vector<std::string>{"add(a, b)", "multiply(add(a, b), a)"}));
  auto values = Evaluate(both);
  EXPECT_EQ(calls_["add"], 1);
  EXPECT_EQ(calls_["multiply"], 1);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0]->ToString(), "[\n  1,\n  6,\n  9,\n  24\n]");
  EXPECT_EQ(values[2]->ToString(), "[\n  1,\n  3,\n  3,\n  6\n]");
}

TEST_F(SharedSubexpressionsTest, WhatMayFailIsSharedOnlyWhereEveryRowEvaluatesIt) {
  auto quotient = [&] { return Call("divide", {Column(0), Column(1)}, /*can_fail=*/true); };
  // Only in CASE branches guarded by b != 0: computing it for every row would divide by zero.
  SharedSubexpressions guarded({CaseWhen(Condition(Column(1)), quotient()),
                                CaseWhen(Condition(Column(1)), Call("negate", {quotient()}))},
                               2);
  EXPECT_EQ(SharedSql(guarded), std::vector<std::string>{"(b != 0)"});
  EXPECT_EQ(Evaluate(guarded).size(), 2u);

  // Once outside a branch it is evaluated on every row anyway.
  SharedSubexpressions unguarded({quotient(), CaseWhen(Condition(Column(1)), quotient())}, 2);
  EXPECT_EQ(SharedSql(unguarded), std::vector<std::string>{"divide(a, b)"});

  // What cannot fail is shared wherever it is.
  SharedSubexpressions safe({CaseWhen(Condition(Column(1)), Call("add", {Column(0), Column(1)})),
                             CaseWhen(Condition(Column(0)), Call("add", {Column(0), Column(1)}))},
                            2);
  EXPECT_EQ(SharedSql(safe), std::vector<std::string>{"add(a, b)"});
}

TEST_F(SharedSubexpressionsTest, ColumnsLiteralsAndConstantsAreNotShared) {
  auto constant = [&] { return Call("add", {Literal(1), Literal(2)}); };
  SharedSubexpressions shared({Call("add", {Column(0), constant()}),
                               Call("multiply", {Column(0), constant()})},
                              2);
  EXPECT_TRUE(shared.shared().empty());
  auto extended = shared.Extend(batch_, context_);
  ASSERT_TRUE(extended.ok());
  EXPECT_EQ(extended->get(), batch_.get());
}

TEST_F(SharedSubexpressionsTest, ABatchOfAnotherWidthIsRefused) {
  auto sum = [&] { return Call("add", {Column(0), Column(1)}); };
  SharedSubexpressions shared({sum(), Call("negate", {sum()})}, 2);
  ASSERT_EQ(shared.shared().size(), 1u);
  // A third column would sit where the shared one is read.
  auto wider = batch_->AddColumn(2, "c", batch_->column(0));
  ASSERT_TRUE(wider.ok());
  auto extended = shared.Extend(*wider, context_);
  ASSERT_FALSE(extended.ok());
  EXPECT_NE(extended.status().message().find("A batch of 3 columns"), std::string::npos)
      << extended.status().ToString();
}

}  // namespace
}  // namespace sluice::expr
