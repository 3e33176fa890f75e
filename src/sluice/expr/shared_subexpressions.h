// Subexpression elimination: a subexpression written more than once in the expressions of
// one operator (a projection's columns, a filter's condition) is computed once per batch, as
// Spark's generated code does (EquivalentExpressions). `split(url, '/')[3], split(url, '/')[4]`
// splits each url once.
#pragma once

#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

/// Expressions over one input whose common subexpressions are evaluated first, once, into
/// columns appended to the input batch; the expressions read those columns in their place.
///
/// Which subexpressions are shared keeps the rules of conditional evaluation
/// (bound_expression.h): one that can fail is shared only when some occurrence is evaluated on
/// every row anyway (not only inside a CASE branch, the right side of AND/OR or a later
/// coalesce argument), so sharing never raises an error Spark would not. Subexpressions that
/// read no column are constants per batch and are left alone, as are columns and literals.
class SharedSubexpressions {
 public:
  /// Finds what `exprs`, bound to an input of `input_columns` columns, share.
  SharedSubexpressions(const std::vector<BoundExprPtr>& exprs, int input_columns);

  /// The expressions, reading each shared subexpression from its column past the input's.
  /// They are evaluated over Extend(batch), never over the batch itself.
  const std::vector<BoundExprPtr>& exprs() const { return exprs_; }
  /// The shared subexpressions in evaluation order; each reads the earlier ones' columns.
  const std::vector<BoundExprPtr>& shared() const { return shared_; }

  /// `batch` with the shared subexpressions' values appended (the batch itself when nothing
  /// is shared). Fails when `batch` does not have the input's number of columns.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Extend(
      std::shared_ptr<arrow::RecordBatch> batch, const EvalContext& context) const;

 private:
  int input_columns_;
  std::vector<BoundExprPtr> exprs_;
  std::vector<BoundExprPtr> shared_;
};

}  // namespace sluice::expr
