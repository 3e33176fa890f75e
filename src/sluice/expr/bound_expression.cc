#include "sluice/expr/bound_expression.h"

#include <algorithm>

#include <arrow/array.h>
#include <arrow/array/util.h>
#include <arrow/compute/api.h>
#include <arrow/buffer.h>
#include <arrow/scalar.h>
#include <arrow/util/bit_util.h>

#include "sluice/expr/bound_rewrite.h"
#include "sluice/expr/call_memos.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/functions/string_columns.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

arrow::Result<arrow::Datum> NullOf(const std::shared_ptr<arrow::DataType>& type) {
  return arrow::Datum(arrow::MakeNullScalar(type));
}

// A selection with nulls read as false, as a boolean array or scalar.
arrow::Result<arrow::Datum> SelectionMask(const arrow::Datum& selection) {
  if (selection.is_scalar()) {
    const auto& scalar = selection.scalar_as<arrow::BooleanScalar>();
    return arrow::Datum(std::make_shared<arrow::BooleanScalar>(scalar.is_valid && scalar.value));
  }
  if (selection.null_count() == 0) return selection;
  return cp::CallFunction("coalesce", {selection, arrow::Datum(false)});
}

// CASE's result when its values are strings: each row takes the value of the branch whose
// mask (`taken`, without nulls, at most one holding a row) holds it, or else `values`' last
// (the ELSE value) when there is one more value than masks, or null. Arrow's case_when appended
// row by row to a growing builder: q14's CASE of three literals was a tenth of its batch thread.
arrow::Result<arrow::Datum> CaseOfStrings(const arrow::ArrayVector& taken,
                                          const std::vector<arrow::Datum>& values,
                                          const std::shared_ptr<arrow::DataType>& type,
                                          int64_t num_rows, arrow::MemoryPool* pool) {
  std::vector<StringInput> inputs;
  inputs.reserve(values.size());
  int64_t bytes = 0;
  for (const auto& value : values) {
    inputs.emplace_back(value);
    bytes = std::max(bytes, inputs.back().TotalBytes(num_rows));
  }
  const StringInput* otherwise = values.size() > taken.size() ? &inputs.back() : nullptr;
  StringOutput out(num_rows, bytes, pool, type);
  std::vector<uint64_t> words(taken.size());
  for (int64_t begin = 0; begin < num_rows; begin += 64) {
    const int64_t n = std::min<int64_t>(64, num_rows - begin);
    for (size_t k = 0; k < taken.size(); ++k) {
      const arrow::ArrayData& mask = *taken[k]->data();
      words[k] = BitmapWord(mask.buffers[1]->data(), mask.offset + begin, n);
    }
    for (int64_t j = 0; j < n; ++j) {
      size_t k = 0;
      while (k < words.size() && ((words[k] >> j) & 1) == 0) ++k;
      const StringInput* input = k < words.size() ? &inputs[k] : otherwise;
      const int64_t row = begin + j;
      if (input != nullptr && input->IsValid(row)) {
        out.AppendRowFrom(*input, row);
      } else {
        out.AppendNullRow();
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto data, out.Finish());
  return arrow::Datum(std::move(data));
}

// Indices that scatter `count` compacted values back to the rows where `mask` (no nulls) is
// true: the k-th selected row takes value k, every other row a null index (a null result).
// Taking by these indices works for every type, nested ones included.
arrow::Result<std::shared_ptr<arrow::Array>> ScatterIndices(const arrow::Array& mask,
                                                            int64_t count,
                                                            arrow::MemoryPool* pool) {
  const auto& selected = static_cast<const arrow::BooleanArray&>(mask);
  const int64_t length = selected.length();
  ARROW_ASSIGN_OR_RAISE(auto data, arrow::AllocateBuffer(length * sizeof(int64_t), pool));
  ARROW_ASSIGN_OR_RAISE(auto validity, arrow::AllocateBitmap(length, pool));
  auto* out = reinterpret_cast<int64_t*>(data->mutable_data());
  uint8_t* bits = validity->mutable_data();
  int64_t next = 0;
  for (int64_t i = 0; i < length; ++i) {
    const bool take = selected.Value(i);
    arrow::bit_util::SetBitTo(bits, i, take);
    out[i] = take ? next++ : 0;
  }
  return std::make_shared<arrow::Int64Array>(length, std::move(data), std::move(validity),
                                             length - count);
}

}  // namespace

BoundExpr::BoundExpr(BoundKind kind, std::shared_ptr<arrow::DataType> type, bool nullable,
                     std::string sql, bool can_fail, std::vector<BoundExprPtr> children)
    : kind_(kind),
      type_(std::move(type)),
      nullable_(nullable),
      sql_(std::move(sql)),
      can_fail_(can_fail),
      children_(std::move(children)) {
  for (const auto& child : children_) can_fail_ = can_fail_ || child->can_fail();
}

BoundColumn::BoundColumn(int index, std::shared_ptr<arrow::DataType> type, bool nullable,
                         std::string name)
    : BoundExpr(BoundKind::kColumn, std::move(type), nullable, std::move(name), false, {}),
      index_(index) {}

arrow::Result<arrow::Datum> BoundColumn::Evaluate(const arrow::RecordBatch& batch,
                                                  const EvalContext&) const {
  return arrow::Datum(batch.column(index_));
}

BoundLiteral::BoundLiteral(std::shared_ptr<arrow::Scalar> value, std::string sql)
    : BoundExpr(BoundKind::kLiteral, value->type, !value->is_valid, std::move(sql), false, {}),
      value_(std::move(value)) {}

arrow::Result<arrow::Datum> BoundLiteral::Evaluate(const arrow::RecordBatch&,
                                                   const EvalContext&) const {
  return arrow::Datum(value_);
}

BoundCall::BoundCall(std::string function_name, std::vector<BoundExprPtr> args,
                     std::shared_ptr<arrow::DataType> type, bool nullable, bool can_fail,
                     Kernel kernel, std::string sql, std::vector<BoundExprPtr> site_args,
                     bool costly_per_value)
    : BoundExpr(BoundKind::kCall, std::move(type), nullable, std::move(sql), can_fail,
                std::move(args)),
      function_name_(std::move(function_name)),
      kernel_(std::move(kernel)),
      site_args_(std::move(site_args)),
      costly_per_value_(costly_per_value) {
  if (!costly_per_value_) return;
  // The other arguments read no column: they are the same for every batch an operator sees,
  // so a result kept for a value of the varying one stays right.
  for (size_t i = 0; i < children().size(); ++i) {
    if (ColumnsRead(*children()[i]).empty()) continue;
    if (memo_arg_ >= 0) {
      memo_arg_ = -1;
      return;
    }
    memo_arg_ = static_cast<int>(i);
  }
}

arrow::Result<arrow::Datum> BoundCall::Evaluate(const arrow::RecordBatch& batch,
                                                const EvalContext& context) const {
  std::vector<arrow::Datum> values;
  values.reserve(children().size());
  for (const auto& child : children()) {
    ARROW_ASSIGN_OR_RAISE(auto value, child->Evaluate(batch, context));
    values.push_back(std::move(value));
  }
  if (context.memos != nullptr && memo_arg_ >= 0 &&
      CallMemos::Applies(values, static_cast<size_t>(memo_arg_))) {
    return context.memos->Evaluate(*this, std::move(values), static_cast<size_t>(memo_arg_),
                                   context, batch.num_rows());
  }
  return kernel_(values, context, batch.num_rows());
}

BoundCaseWhen::BoundCaseWhen(std::vector<BoundExprPtr> children, bool has_else,
                             std::shared_ptr<arrow::DataType> type, std::string sql)
    : BoundExpr(BoundKind::kCaseWhen, std::move(type), true, std::move(sql), false,
                std::move(children)),
      has_else_(has_else) {}

arrow::Result<arrow::Datum> BoundCaseWhen::Evaluate(const arrow::RecordBatch& batch,
                                                    const EvalContext& context) const {
  const size_t num_branches = (children().size() - (has_else_ ? 1 : 0)) / 2;
  arrow::Datum remaining(true);
  arrow::FieldVector condition_fields;
  arrow::ArrayVector taken;
  std::vector<arrow::Datum> case_args(1);
  for (size_t i = 0; i < num_branches; ++i) {
    ARROW_ASSIGN_OR_RAISE(auto condition,
                          EvaluateSelected(*children()[2 * i], batch, remaining, context));
    ARROW_ASSIGN_OR_RAISE(condition, SelectionMask(condition));
    ARROW_ASSIGN_OR_RAISE(auto take, cp::CallFunction("and", {remaining, condition}));
    ARROW_ASSIGN_OR_RAISE(auto value,
                          EvaluateSelected(*children()[2 * i + 1], batch, take, context));
    ARROW_ASSIGN_OR_RAISE(remaining, cp::CallFunction("and_not", {remaining, take}));
    if (take.is_scalar()) {
      ARROW_ASSIGN_OR_RAISE(auto array,
                            arrow::MakeArrayFromScalar(*take.scalar(), batch.num_rows()));
      take = arrow::Datum(array);
    }
    std::string condition_name = "c";
    condition_name += std::to_string(i);
    condition_fields.push_back(arrow::field(std::move(condition_name), arrow::boolean()));
    taken.push_back(take.make_array());
    case_args.push_back(std::move(value));
  }
  if (has_else_) {
    ARROW_ASSIGN_OR_RAISE(auto otherwise,
                          EvaluateSelected(*children().back(), batch, remaining, context));
    case_args.push_back(std::move(otherwise));
  }
  const auto type_id = type()->id();
  if (type_id == arrow::Type::STRING || type_id == arrow::Type::BINARY) {
    return CaseOfStrings(taken, {case_args.begin() + 1, case_args.end()}, type(),
                         batch.num_rows(), context.pool);
  }
  ARROW_ASSIGN_OR_RAISE(auto conditions, arrow::StructArray::Make(taken, condition_fields));
  case_args[0] = arrow::Datum(conditions);
  return cp::CallFunction("case_when", case_args);
}

BoundLogical::BoundLogical(BoundKind kind, BoundExprPtr left, BoundExprPtr right, std::string sql)
    : BoundExpr(kind, arrow::boolean(), left->nullable() || right->nullable(), std::move(sql),
                false, {left, right}) {}

arrow::Result<arrow::Datum> BoundLogical::Evaluate(const arrow::RecordBatch& batch,
                                                   const EvalContext& context) const {
  ARROW_ASSIGN_OR_RAISE(auto left, children()[0]->Evaluate(batch, context));
  const bool is_and = kind() == BoundKind::kAnd;
  arrow::Datum right;
  if (children()[1]->can_fail()) {
    // AND needs the right side where the left is not false; OR where it is not true.
    ARROW_ASSIGN_OR_RAISE(auto decided,
                          cp::CallFunction("coalesce", {left, arrow::Datum(!is_and)}));
    ARROW_ASSIGN_OR_RAISE(auto undecided,
                          is_and ? arrow::Result<arrow::Datum>(decided)
                                 : cp::CallFunction("invert", {decided}));
    ARROW_ASSIGN_OR_RAISE(right, EvaluateSelected(*children()[1], batch, undecided, context));
  } else {
    ARROW_ASSIGN_OR_RAISE(right, children()[1]->Evaluate(batch, context));
  }
  return cp::CallFunction(is_and ? "and_kleene" : "or_kleene", {left, right});
}

BoundCoalesce::BoundCoalesce(std::vector<BoundExprPtr> args,
                             std::shared_ptr<arrow::DataType> type, std::string sql)
    : BoundExpr(BoundKind::kCoalesce, std::move(type), true, std::move(sql), false,
                std::move(args)) {}

arrow::Result<arrow::Datum> BoundCoalesce::Evaluate(const arrow::RecordBatch& batch,
                                                    const EvalContext& context) const {
  ARROW_ASSIGN_OR_RAISE(auto result, children()[0]->Evaluate(batch, context));
  for (size_t i = 1; i < children().size(); ++i) {
    ARROW_ASSIGN_OR_RAISE(auto missing, cp::CallFunction("is_null", {result}));
    ARROW_ASSIGN_OR_RAISE(auto next, EvaluateSelected(*children()[i], batch, missing, context));
    ARROW_ASSIGN_OR_RAISE(result, cp::CallFunction("coalesce", {result, next}));
  }
  return result;
}

arrow::Result<std::shared_ptr<arrow::Array>> EvaluateToArray(const BoundExpr& expr,
                                                            const arrow::RecordBatch& batch,
                                                            const EvalContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto value, expr.Evaluate(batch, context));
  if (value.is_scalar()) {
    return arrow::MakeArrayFromScalar(*value.scalar(), batch.num_rows(), context.pool);
  }
  if (value.is_chunked_array()) {
    return arrow::Concatenate(value.chunked_array()->chunks(), context.pool);
  }
  return value.make_array();
}

namespace {

/// The `count` rows of `batch` that `mask` selects, in the columns `expr` reads. The others
/// keep their place in the schema as the first `count` rows of themselves, which `expr` never
/// reads: copying them (a wide row's strings) cost more than evaluating `expr`.
arrow::Result<std::shared_ptr<arrow::RecordBatch>> SelectedRowsOfColumnsRead(
    const BoundExpr& expr, const arrow::RecordBatch& batch, const arrow::Datum& mask,
    int64_t count) {
  arrow::ArrayVector columns(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) {
    columns[static_cast<size_t>(c)] = batch.column(c)->Slice(0, count);
  }
  for (int c : ColumnsRead(expr)) {
    ARROW_ASSIGN_OR_RAISE(auto kept, cp::Filter(batch.column(c), mask));
    columns[static_cast<size_t>(c)] = kept.make_array();
  }
  return arrow::RecordBatch::Make(batch.schema(), count, std::move(columns));
}

}  // namespace

arrow::Result<arrow::Datum> EvaluateSelected(const BoundExpr& expr,
                                             const arrow::RecordBatch& batch,
                                             const arrow::Datum& selection,
                                             const EvalContext& context) {
  if (!expr.can_fail()) return expr.Evaluate(batch, context);
  ARROW_ASSIGN_OR_RAISE(auto mask, SelectionMask(selection));
  if (mask.is_scalar()) {
    if (mask.scalar_as<arrow::BooleanScalar>().value) return expr.Evaluate(batch, context);
    return NullOf(expr.type());
  }
  ARROW_ASSIGN_OR_RAISE(auto selected_count, cp::Sum(mask));
  const int64_t count =
      selected_count.scalar()->is_valid ? selected_count.scalar_as<arrow::UInt64Scalar>().value : 0;
  if (count == batch.num_rows()) return expr.Evaluate(batch, context);
  if (count == 0) return NullOf(expr.type());
  ARROW_ASSIGN_OR_RAISE(auto selected, SelectedRowsOfColumnsRead(expr, batch, mask, count));
  ARROW_ASSIGN_OR_RAISE(auto values, EvaluateToArray(expr, *selected, context));
  ARROW_ASSIGN_OR_RAISE(auto indices, ScatterIndices(*mask.make_array(), count, context.pool));
  cp::ExecContext exec(context.pool);
  return cp::Take(values, indices, cp::TakeOptions::NoBoundsCheck(), &exec);
}

}  // namespace sluice::expr
