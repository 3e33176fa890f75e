// A costly call evaluated with memos runs its kernel once per distinct value of its varying
// argument, across batches, and gives what it gives without them: the same values, the same
// first error; a memo that finds few repeats gives up.
#include "sluice/expr/call_memos.h"

#include "expr/function_call_harness.h"

namespace sluice::expr {
namespace {

class CallMemosTest : public testing::FunctionCallTest {
 protected:
  // `name(args)` resolved, its kernel counting the rows it is given in rows_seen_.
  BoundExprPtr Counted(const std::string& name, std::vector<BoundExprPtr> args) {
    auto bound = Resolve(name, std::move(args)).ValueOrDie();
    return testing::CountingRows(static_cast<const BoundCall&>(*bound), &rows_seen_);
  }

  /// Evaluates `call` over `batch` with `memoized` and without memos: the same values.
  static void ExpectSameWithAndWithoutMemos(const BoundExpr& call,
                                            const arrow::RecordBatch& batch,
                                            const EvalContext& memoized) {
    auto plain = EvaluateToArray(call, batch, EvalContext());
    ASSERT_TRUE(plain.ok()) << plain.status().ToString();
    auto kept = EvaluateToArray(call, batch, memoized);
    ASSERT_TRUE(kept.ok()) << kept.status().ToString();
    EXPECT_TRUE((*kept)->Equals(**plain)) << (*kept)->ToString() << " vs " << (*plain)->ToString();
  }

  static std::shared_ptr<arrow::RecordBatch> Batch(const std::shared_ptr<arrow::Array>& text) {
    return arrow::RecordBatch::Make(arrow::schema({arrow::field("s", arrow::utf8())}),
                                    text->length(), {text});
  }

  static BoundExprPtr Text() { return std::make_shared<BoundColumn>(0, arrow::utf8(), true, "s"); }

  int64_t rows_seen_ = 0;
};

TEST_F(CallMemosTest, ACostlyCallRunsOncePerDistinctValueAcrossBatches) {
  auto call = Counted("regexp_extract",
                      {Text(), StringLit("(&|^)id=([^&]*)"), IntLit(2)});
  ASSERT_TRUE(static_cast<const BoundCall&>(*call).costly_per_value());
  const std::vector<std::shared_ptr<arrow::Array>> inputs = {
      Expected("string", R"(["a&id=1", "b", null, "a&id=1", "id=2&x", "b"])"),
      Expected("string", R"(["id=2&x", null, "c&id=3", "a&id=1"])"),
      // Sliced: the memo reads the values from the array's offset on.
      Expected("string", R"(["zz&id=9", "b", "c&id=3", "a&id=1", "id=4"])")->Slice(1, 3)};
  CallMemos memos;
  EvalContext memoized;
  memoized.memos = &memos;
  for (const auto& input : inputs) {
    ExpectSameWithAndWithoutMemos(*call, *Batch(input), memoized);
  }
  // Without memos every row; with them the five distinct values (null among them) once each.
  EXPECT_EQ(rows_seen_, 13 + 5);
  EXPECT_EQ(memos.lookups(), 13);
  EXPECT_EQ(memos.misses(), 5);
}

TEST_F(CallMemosTest, TheErrorIsTheFirstFailingRowsAndTheMemoIsNotUsedAfterIt) {
  // Group 2 of a regex with one group fails only on the rows that match.
  auto call = Counted("regexp_extract", {Text(), StringLit("(a)"), IntLit(2)});
  CallMemos memos;
  EvalContext memoized;
  memoized.memos = &memos;
  auto clean = Batch(Expected("string", R"(["x", "y", "x"])"));
  ASSERT_TRUE(EvaluateToArray(*call, *clean, memoized).ok());
  auto failing = Batch(Expected("string", R"(["y", "ba", "x", "ab"])"));
  auto plain = EvaluateToArray(*call, *failing, EvalContext());
  auto kept = EvaluateToArray(*call, *failing, memoized);
  ASSERT_FALSE(plain.ok());
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(kept.status().ToString(), plain.status().ToString());
  EXPECT_NE(kept.status().message().find("but got 2"), std::string::npos);
  // The memo that failed is given up: the kernel sees every row again, the memos none.
  const int64_t lookups = memos.lookups();
  rows_seen_ = 0;
  ASSERT_TRUE(EvaluateToArray(*call, *clean, memoized).ok());
  EXPECT_EQ(rows_seen_, 3);
  EXPECT_EQ(memos.lookups(), lookups);
}

TEST_F(CallMemosTest, AMemoOfValuesThatDoNotRepeatGivesUpAfterItsTrial) {
  auto call = Counted("regexp_replace", {Text(), StringLit("[0-9]+"), StringLit("#")});
  CallMemos memos;
  EvalContext memoized;
  memoized.memos = &memos;
  int next = 0;
  for (int b = 0; b < 3; ++b) {
    arrow::StringBuilder builder;
    for (int i = 0; i < 10000; ++i) {
      ASSERT_TRUE(builder.Append("v" + std::to_string(next++) + "x").ok());
    }
    ExpectSameWithAndWithoutMemos(*call, *Batch(builder.Finish().ValueOrDie()), memoized);
  }
  // The trial's two windows of 8,192 rows, all new, end within the second batch: the rest
  // of it and the third batch are not looked up.
  EXPECT_EQ(memos.lookups(), 16384);
  EXPECT_EQ(memos.misses(), 16384);
  EXPECT_EQ(rows_seen_, 30000 + 30000);
}

TEST_F(CallMemosTest, AMemoThatPaysIsKeptPastItsTrialWithinABatch) {
  auto call = Counted("regexp_replace", {Text(), StringLit("[0-9]+"), StringLit("#")});
  CallMemos memos;
  EvalContext memoized;
  memoized.memos = &memos;
  arrow::StringBuilder builder;
  for (int i = 0; i < 20000; ++i) ASSERT_TRUE(builder.Append("v" + std::to_string(i % 100)).ok());
  ExpectSameWithAndWithoutMemos(*call, *Batch(builder.Finish().ValueOrDie()), memoized);
  EXPECT_EQ(memos.lookups(), 20000);
  EXPECT_EQ(memos.misses(), 100);
  EXPECT_EQ(rows_seen_, 100 + 20000);
}

TEST_F(CallMemosTest, OnlyCostlyCallsOfOneVaryingStringAreMemoized) {
  CallMemos memos;
  EvalContext memoized;
  memoized.memos = &memos;
  auto batch = arrow::RecordBatch::Make(
      arrow::schema({arrow::field("s", arrow::utf8()), arrow::field("p", arrow::utf8())}), 2,
      {Expected("string", R"(["ab", "ab"])"), Expected("string", R"(["a", "b"])")});
  auto pattern = std::make_shared<BoundColumn>(1, arrow::utf8(), true, "p");
  // The pattern varies too: both arguments would have to be the key.
  auto by_column = Counted("regexp_extract", {Text(), pattern, IntLit(0)});
  auto values = EvaluateToArray(*by_column, *batch, memoized);
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_TRUE((*values)->Equals(*Expected("string", R"(["a", "b"])")));
  // Cheap calls are run on every row.
  auto upper = Counted("upper", {Text()});
  ASSERT_FALSE(static_cast<const BoundCall&>(*upper).costly_per_value());
  ASSERT_TRUE(EvaluateToArray(*upper, *batch, memoized).ok());
  EXPECT_EQ(memos.lookups(), 0);
}

TEST_F(CallMemosTest, RegexesAreCostlyPlainTextSearchesAreNot) {
  auto costly = [&](const std::string& name, std::vector<BoundExprPtr> args) {
    return static_cast<const BoundCall&>(*Resolve(name, std::move(args)).ValueOrDie())
        .costly_per_value();
  };
  EXPECT_TRUE(costly("rlike", {Text(), StringLit("a.c")}));
  EXPECT_FALSE(costly("rlike", {Text(), StringLit("abc")}));
  EXPECT_TRUE(costly("regexp_extract_all", {Text(), StringLit("(\\d+)"), IntLit(1)}));
  EXPECT_TRUE(costly("regexp_count", {Text(), StringLit("\\d")}));
  EXPECT_TRUE(costly("split", {Text(), StringLit("[/]")}));
  EXPECT_FALSE(costly("split", {Text(), StringLit("/")}));
  EXPECT_TRUE(costly("like", {Text(), StringLit("%a%b%")}));
  EXPECT_FALSE(costly("like", {Text(), StringLit("%ab%")}));
  EXPECT_TRUE(costly("ilike", {Text(), StringLit("%ab%")}));
}

}  // namespace
}  // namespace sluice::expr
