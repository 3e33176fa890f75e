// Results of costly calls kept per distinct input value. A regex run costs hundreds of
// nanoseconds a row, a hash lookup tens: where a column repeats its values (urls, channels,
// user agents), `regexp_extract(url, ...)` is run once per distinct url and the other rows take
// the kept result. Kept by one operator (a projection, a filter) for the batches it evaluates,
// and dropped with it at the end of the micro-batch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include <arrow/datum.h>
#include <arrow/result.h>

#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

class CallMemo;

/// The memos of the costly calls (BoundCall::costly_per_value) one operator evaluates; the
/// operator puts it in the EvalContext it evaluates with. Not thread-safe.
class CallMemos {
 public:
  CallMemos();
  ~CallMemos();
  CallMemos(const CallMemos&) = delete;
  CallMemos& operator=(const CallMemos&) = delete;

  /// Whether a call with `args` can be memoized on `args[varying]`: a non-empty string or
  /// binary array, with every other argument a scalar.
  static bool Applies(const std::vector<arrow::Datum>& args, size_t varying);

  /// `call`'s result for `args`, of which `args[varying]` is an array Applies to and the others
  /// are the same for every batch: the kernel runs on the values not seen before, once each,
  /// in the order of their first rows (so the first error is the one of the first failing
  /// row). A memo that rarely finds its values, after a trial, stops keeping them and runs the
  /// kernel on every row.
  arrow::Result<arrow::Datum> Evaluate(const BoundCall& call, std::vector<arrow::Datum> args,
                                       size_t varying, const EvalContext& context,
                                       int64_t num_rows);

  /// Rows the memos looked up, and of those the ones whose value was new, over all memos.
  int64_t lookups() const;
  int64_t misses() const;

 private:
  std::unordered_map<const BoundCall*, std::unique_ptr<CallMemo>> memos_;
};

/// The evaluation context of one operator: the query's, with memos of the operator's own.
/// For an operator that evaluates its expressions on one thread at a time.
class OperatorEvalContext {
 public:
  explicit OperatorEvalContext(const EvalContext& query) : context_(query) {
    context_.memos = &memos_;
  }
  OperatorEvalContext(const OperatorEvalContext&) = delete;
  OperatorEvalContext& operator=(const OperatorEvalContext&) = delete;

  const EvalContext& get() const { return context_; }

 private:
  CallMemos memos_;
  EvalContext context_;
};

}  // namespace sluice::expr
