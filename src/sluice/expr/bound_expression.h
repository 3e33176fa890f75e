#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <arrow/datum.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/eval_context.h"

namespace sluice::expr {

class BoundExpr;
/// Bound expressions are immutable once built and shared between operators and threads.
using BoundExprPtr = std::shared_ptr<const BoundExpr>;

/// A vectorized function body: computes one output value per row from its evaluated arguments
/// (each an array of `num_rows` values or a scalar standing for all rows). Returns an array of
/// `num_rows` values or a scalar. Must be pure: the same arguments give the same result.
using Kernel = std::function<arrow::Result<arrow::Datum>(
    const std::vector<arrow::Datum>& args, const EvalContext& context, int64_t num_rows)>;

enum class BoundKind { kColumn, kLiteral, kCall, kCaseWhen, kAnd, kOr, kCoalesce };

/// An expression resolved against an input schema: it knows its result type and evaluates over a
/// whole record batch at once. Immutable and thread-safe.
class BoundExpr {
 public:
  virtual ~BoundExpr() = default;

  BoundKind kind() const { return kind_; }
  const std::shared_ptr<arrow::DataType>& type() const { return type_; }
  bool nullable() const { return nullable_; }
  /// Spark's SQL rendering of the expression, used to name unaliased output columns and inside
  /// the names of enclosing expressions: `(a + 1)`, `upper(b)`.
  const std::string& sql() const { return sql_; }
  /// True when evaluation may fail for some rows (ANSI overflow, failing casts): such
  /// expressions are evaluated only on the rows a conditional selects, as Spark does.
  bool can_fail() const { return can_fail_; }
  const std::vector<BoundExprPtr>& children() const { return children_; }

  /// Evaluates over `batch`; the result is an array of batch.num_rows() values or a scalar.
  virtual arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                               const EvalContext& context) const = 0;

 protected:
  BoundExpr(BoundKind kind, std::shared_ptr<arrow::DataType> type, bool nullable, std::string sql,
            bool can_fail, std::vector<BoundExprPtr> children);

 private:
  BoundKind kind_;
  std::shared_ptr<arrow::DataType> type_;
  bool nullable_;
  std::string sql_;
  bool can_fail_;
  std::vector<BoundExprPtr> children_;
};

/// Reads column `index` of the input batch.
class BoundColumn final : public BoundExpr {
 public:
  BoundColumn(int index, std::shared_ptr<arrow::DataType> type, bool nullable, std::string name);
  int index() const { return index_; }
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;

 private:
  int index_;
};

/// A constant.
class BoundLiteral final : public BoundExpr {
 public:
  explicit BoundLiteral(std::shared_ptr<arrow::Scalar> value, std::string sql);
  const std::shared_ptr<arrow::Scalar>& value() const { return value_; }
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;

 private:
  std::shared_ptr<arrow::Scalar> value_;
};

/// A function applied to evaluated arguments: every argument is evaluated for every row.
class BoundCall final : public BoundExpr {
 public:
  BoundCall(std::string function_name, std::vector<BoundExprPtr> args,
            std::shared_ptr<arrow::DataType> type, bool nullable, bool can_fail, Kernel kernel,
            std::string sql, std::vector<BoundExprPtr> site_args = {},
            bool costly_per_value = false);
  const std::string& function_name() const { return function_name_; }
  const Kernel& kernel() const { return kernel_; }
  /// True when the kernel costs far more per row than a hash lookup (a regex run): an operator
  /// that keeps memos (EvalContext::memos) then computes each distinct value of its one
  /// varying argument once (call_memos.h).
  bool costly_per_value() const { return costly_per_value_; }
  /// The arguments as the call was written, when its resolver changed them (cast them, or
  /// took a literal such as from_json's options into the kernel): with the function name they
  /// decide what the kernel computes. Empty when the children are the arguments as written.
  const std::vector<BoundExprPtr>& site_args() const { return site_args_; }
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;

 private:
  std::string function_name_;
  Kernel kernel_;
  std::vector<BoundExprPtr> site_args_;
  bool costly_per_value_;
  /// The only argument that reads columns when the call is costly and has one; -1 otherwise.
  int memo_arg_ = -1;
};

/// CASE WHEN: each value is evaluated only on the rows its condition selects (so
/// `CASE WHEN b != 0 THEN a / b END` never divides by zero). Children: c1, v1, ..., [else]; all
/// values already have the result type.
class BoundCaseWhen final : public BoundExpr {
 public:
  BoundCaseWhen(std::vector<BoundExprPtr> children, bool has_else,
                std::shared_ptr<arrow::DataType> type, std::string sql);
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;

 private:
  bool has_else_;
};

/// AND / OR with Spark's three-valued logic; the right side is evaluated only where the left one
/// does not decide the result.
class BoundLogical final : public BoundExpr {
 public:
  BoundLogical(BoundKind kind, BoundExprPtr left, BoundExprPtr right, std::string sql);
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;
};

/// coalesce(a, b, ...): each argument is evaluated only where all earlier ones were null.
class BoundCoalesce final : public BoundExpr {
 public:
  BoundCoalesce(std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> type,
                std::string sql);
  arrow::Result<arrow::Datum> Evaluate(const arrow::RecordBatch& batch,
                                       const EvalContext& context) const override;
};

/// Evaluates `expr` over `batch` and returns a full-length array (scalars are broadcast).
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateToArray(const BoundExpr& expr,
                                                            const arrow::RecordBatch& batch,
                                                            const EvalContext& context);

/// Evaluates `expr` only on the rows where `selection` (a boolean array, nulls meaning false) is
/// true, when the expression can fail; elsewhere the result is null. Expressions that cannot fail
/// are evaluated on every row, which is cheaper than selecting.
arrow::Result<arrow::Datum> EvaluateSelected(const BoundExpr& expr,
                                             const arrow::RecordBatch& batch,
                                             const arrow::Datum& selection,
                                             const EvalContext& context);

}  // namespace sluice::expr
