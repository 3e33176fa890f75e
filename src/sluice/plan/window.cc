#include "sluice/plan/window.h"

#include <cmath>
#include <limits>

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/plan/project.h"
#include "sluice/types/interval_types.h"

namespace sluice::plan {

namespace {

using BoundKind = expr::WindowFrameBound::Kind;
using FrameType = expr::WindowFrame::Type;

// The value of a constant expression (a frame offset, lag's offset, ntile's buckets), or an
// error naming `what` when it is not one.
arrow::Result<std::shared_ptr<arrow::Scalar>> ConstantValue(const expr::Expr& e,
                                                            const AnalysisContext& context,
                                                            const std::string& what) {
  const expr::AttributeList none;
  expr::BindScope scope;
  scope.attributes = &none;
  scope.config = context.config;
  scope.registry = context.registry;
  auto bound = expr::Bind(e, scope);
  if (!bound.ok()) {
    return SparkError("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT",
                      "Cannot resolve \"" + e.ToString() + "\" due to data type mismatch: the " +
                          what + " must be a constant.");
  }
  const auto one_row = arrow::RecordBatch::Make(arrow::schema({}), 1, arrow::ArrayVector{});
  expr::EvalContext eval;
  eval.config = context.config;
  ARROW_ASSIGN_OR_RAISE(auto value, expr::EvaluateToArray(**bound, *one_row, eval));
  return value->GetScalar(0);
}

arrow::Result<int64_t> ConstantInteger(const expr::Expr& e, const AnalysisContext& context,
                                       const std::string& what) {
  ARROW_ASSIGN_OR_RAISE(auto value, ConstantValue(e, context, what));
  if (!arrow::is_integer(value->type->id()) || !value->is_valid) {
    return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                      "Cannot resolve \"" + e.ToString() + "\" due to data type mismatch: the " +
                          what + " must be an integer, not \"" + value->ToString() + "\".");
  }
  ARROW_ASSIGN_OR_RAISE(auto as_long, value->CastTo(arrow::int64()));
  return static_cast<const arrow::Int64Scalar&>(*as_long).value;
}

bool IsNumeric(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         arrow::is_decimal(type.id());
}

std::string SpecSql(const std::vector<expr::BoundExprPtr>& partition,
                    const std::vector<SortKey>& order, const std::string& frame) {
  std::string text;
  auto add = [&](const std::string& part) { text += (text.empty() ? "" : " ") + part; };
  if (!partition.empty()) {
    std::string keys;
    for (const auto& key : partition) keys += (keys.empty() ? "" : ", ") + key->sql();
    add("PARTITION BY " + keys);
  }
  if (!order.empty()) {
    std::string keys;
    for (const auto& key : order) keys += (keys.empty() ? "" : ", ") + SortKeySql(key);
    add("ORDER BY " + keys);
  }
  add(frame);
  return "(" + text + ")";
}

// Resolves one end of `frame` for a window ordered by `order`.
arrow::Result<ResolvedFrameBound> ResolveBound(const expr::WindowFrameBound& bound,
                                               const expr::WindowFrame& frame,
                                               const std::vector<SortKey>& order,
                                               const AnalysisContext& context) {
  ResolvedFrameBound resolved;
  resolved.kind = bound.kind;
  if (bound.kind != BoundKind::kOffset) return resolved;
  if (frame.type == FrameType::kRows) {
    ARROW_ASSIGN_OR_RAISE(resolved.offset,
                          ConstantInteger(*bound.offset, context, "frame boundary"));
    resolved.real_offset = static_cast<double>(resolved.offset);
    return resolved;
  }
  if (order.size() != 1) {
    std::string keys;
    for (const auto& key : order) keys += (keys.empty() ? "" : ",") + SortKeySql(key);
    return SparkError("DATATYPE_MISMATCH.RANGE_FRAME_MULTI_ORDER",
                      "Cannot resolve \"" + frame.ToString() +
                          "\" due to data type mismatch: A range window frame with value "
                          "boundaries cannot be used in a window specification with multiple "
                          "order by expressions: " + keys + ".");
  }
  ARROW_ASSIGN_OR_RAISE(auto value, ConstantValue(*bound.offset, context, "frame boundary"));
  // A timestamp (date) key moves by a day-time interval: microseconds (whole days).
  const auto key_type = order[0].expr->type()->id();
  if ((key_type == arrow::Type::TIMESTAMP || key_type == arrow::Type::DATE32) &&
      types::IsDayTimeInterval(*value->type) && value->is_valid) {
    const int64_t micros = static_cast<const arrow::DurationScalar&>(*value).value;
    resolved.offset = key_type == arrow::Type::DATE32 ? micros / 86'400'000'000 : micros;
    resolved.real_offset = static_cast<double>(resolved.offset);
    return resolved;
  }
  if (!IsNumeric(*order[0].expr->type()) || !IsNumeric(*value->type) || !value->is_valid) {
    return SparkError("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE",
                      "Cannot resolve \"" + frame.ToString() +
                          "\" due to data type mismatch: The data type of the bound \"" +
                          expr::SqlTypeName(*order[0].expr->type()) +
                          "\" does not match the expected data type (\"NUMERIC\").");
  }
  // Decimal offsets (SQL's `1.5 PRECEDING`) convert with Spark's cast.
  ARROW_ASSIGN_OR_RAISE(
      auto as_double,
      ConstantValue(expr::Cast(bound.offset, arrow::float64()), context, "frame boundary"));
  resolved.real_offset = static_cast<const arrow::DoubleScalar&>(*as_double).value;
  resolved.offset = std::isfinite(resolved.real_offset)
                        ? static_cast<int64_t>(resolved.real_offset)
                        : 0;
  if (arrow::is_integer(value->type->id())) {
    ARROW_ASSIGN_OR_RAISE(auto as_long, value->CastTo(arrow::int64()));
    resolved.offset = static_cast<const arrow::Int64Scalar&>(*as_long).value;
  }
  return resolved;
}

expr::WindowFrame RowsFrame(expr::WindowFrameBound lower, expr::WindowFrameBound upper) {
  return {FrameType::kRows, std::move(lower), std::move(upper)};
}

// The frames ranking functions require (Spark's RowFrame / RangeFrame from UNBOUNDED
// PRECEDING to CURRENT ROW).
expr::WindowFrame RankingFrame(FrameType type) {
  return {type, expr::WindowFrameBound::UnboundedPreceding(),
          expr::WindowFrameBound::CurrentRow()};
}

std::string FrameSpecText(const expr::WindowFrame& frame) {
  auto bound = [](const expr::WindowFrameBound& b) -> std::string {
    switch (b.kind) {
      case BoundKind::kUnboundedPreceding:
        return "unboundedpreceding$()";
      case BoundKind::kCurrentRow:
        return "currentrow$()";
      case BoundKind::kUnboundedFollowing:
        return "unboundedfollowing$()";
      case BoundKind::kOffset:
        break;
    }
    return b.offset->ToString();
  };
  return std::string("specifiedwindowframe(") +
         (frame.type == FrameType::kRows ? "RowFrame" : "RangeFrame") + ", " +
         bound(frame.lower) + ", " + bound(frame.upper) + ")";
}

bool SameFrame(const expr::WindowFrame& a, const expr::WindowFrame& b) {
  return a.ToString() == b.ToString();
}

// A frame cannot start after everything or end before everything.
arrow::Status CheckFrameOrder(const expr::WindowFrame& frame) {
  if (frame.lower.kind != BoundKind::kUnboundedFollowing &&
      frame.upper.kind != BoundKind::kUnboundedPreceding) {
    return arrow::Status::OK();
  }
  return SparkError("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_INVALID_BOUND",
                    "Cannot resolve \"" + frame.ToString() +
                        "\" due to data type mismatch: Window frame upper bound \"" +
                        frame.upper.ToString() + "\" does not follow the lower bound \"" +
                        frame.lower.ToString() + "\".");
}

// Interval bounds of a RANGE frame must be of one type, as Spark requires (no coercion
// between `INTERVAL '1' HOUR` and `INTERVAL 5 MINUTES`).
arrow::Status CheckIntervalBoundTypes(const expr::WindowFrame& frame,
                                      const AnalysisContext& context) {
  if (frame.type != FrameType::kRange || frame.lower.kind != BoundKind::kOffset ||
      frame.upper.kind != BoundKind::kOffset) {
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto lower, ConstantValue(*frame.lower.offset, context, "frame boundary"));
  ARROW_ASSIGN_OR_RAISE(auto upper, ConstantValue(*frame.upper.offset, context, "frame boundary"));
  const bool intervals = types::IsDayTimeInterval(*lower->type) ||
                         types::IsDayTimeInterval(*upper->type) ||
                         types::IsYearMonthInterval(*lower->type) ||
                         types::IsYearMonthInterval(*upper->type);
  const std::string lower_type = expr::SqlTypeName(*lower->type);
  const std::string upper_type = expr::SqlTypeName(*upper->type);
  if (!intervals || lower_type == upper_type) return arrow::Status::OK();
  return SparkError("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_DIFF_TYPES",
                    "Cannot resolve \"" + frame.ToString() +
                        "\" due to data type mismatch: Window frame bounds \"" +
                        frame.lower.ToString() + "\" and \"" + frame.upper.ToString() +
                        "\" do not have the same type: \"" + lower_type + "\" <> \"" +
                        upper_type + "\".");
}

struct Resolved {
  WindowFunction function;
  std::string function_sql;
  expr::WindowFrame frame;  // as named
  std::shared_ptr<arrow::DataType> type;
  bool nullable = true;
};

arrow::Status RequireOrder(const std::string& name, const std::vector<SortKey>& order) {
  if (!order.empty()) return arrow::Status::OK();
  return SparkError("_LEGACY_ERROR_TEMP_1037",
                    "Window function " + name +
                        " requires window to be ordered, please add ORDER BY clause. For "
                        "example SELECT " + name +
                        "(value_expr) OVER (PARTITION BY window_partition ORDER BY "
                        "window_ordering) from table.");
}

// Ranking functions compute over a fixed frame; a different one written by the user is an
// error, as in Spark.
arrow::Status RequireFrame(const std::optional<expr::WindowFrame>& written,
                           const expr::WindowFrame& required) {
  if (!written || SameFrame(*written, required)) return arrow::Status::OK();
  return SparkError("_LEGACY_ERROR_TEMP_1036",
                    "Window Frame " + FrameSpecText(*written) +
                        " must match the required frame " + FrameSpecText(required) + ".");
}

arrow::Result<Resolved> ResolveFunction(const expr::WindowExpr& window, const PlanPtr& child,
                                        const std::vector<SortKey>& order,
                                        const AnalysisContext& context) {
  const expr::Expr& function = *window.function();
  if (function.kind() != expr::ExprKind::kCall) {
    return SparkError("UNSUPPORTED_EXPR_FOR_WINDOW",
                      "Expression \"" + function.ToString() +
                          "\" not supported within a window function.");
  }
  const auto& call = static_cast<const expr::Call&>(function);
  const std::string name = AsciiLower(call.name());
  const expr::BindScope scope = ScopeOf(*child, context);
  const expr::WindowFrame default_frame =
      order.empty() ? RowsFrame(expr::WindowFrameBound::UnboundedPreceding(),
                                expr::WindowFrameBound::UnboundedFollowing())
                    : expr::WindowFrame{FrameType::kRange,
                                        expr::WindowFrameBound::UnboundedPreceding(),
                                        expr::WindowFrameBound::CurrentRow()};
  Resolved resolved;
  auto& fn = resolved.function;
  resolved.nullable = false;
  auto ranking = [&](WindowFunctionKind kind, std::string sql,
                     std::shared_ptr<arrow::DataType> type,
                     FrameType frame_type) -> arrow::Status {
    ARROW_RETURN_NOT_OK(RequireOrder(name + "()", order));
    resolved.frame = RankingFrame(frame_type);
    ARROW_RETURN_NOT_OK(RequireFrame(window.frame(), resolved.frame));
    fn.kind = kind;
    resolved.function_sql = std::move(sql);
    resolved.type = std::move(type);
    return arrow::Status::OK();
  };
  auto no_arguments = [&]() -> arrow::Status {
    if (call.children().empty()) return arrow::Status::OK();
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `" + name + "` requires 0 parameters but the actual number is " +
                          std::to_string(call.children().size()) + ".");
  };
  // rank(), dense_rank() and percent_rank() take the ORDER BY keys as their arguments in
  // Spark; arguments written in SQL (`rank(a)`) are accepted and the window's order used.
  if (name == "row_number") {
    ARROW_RETURN_NOT_OK(no_arguments());
    ARROW_RETURN_NOT_OK(ranking(WindowFunctionKind::kRowNumber, "row_number()", arrow::int32(),
                                FrameType::kRows));
  } else if (name == "rank") {
    ARROW_RETURN_NOT_OK(
        ranking(WindowFunctionKind::kRank, "RANK()", arrow::int32(), FrameType::kRows));
  } else if (name == "dense_rank") {
    ARROW_RETURN_NOT_OK(ranking(WindowFunctionKind::kDenseRank, "DENSE_RANK()", arrow::int32(),
                                FrameType::kRows));
  } else if (name == "percent_rank") {
    ARROW_RETURN_NOT_OK(ranking(WindowFunctionKind::kPercentRank, "PERCENT_RANK()",
                                arrow::float64(), FrameType::kRows));
  } else if (name == "cume_dist") {
    ARROW_RETURN_NOT_OK(no_arguments());
    ARROW_RETURN_NOT_OK(ranking(WindowFunctionKind::kCumeDist, "cume_dist()", arrow::float64(),
                                FrameType::kRange));
  } else if (name == "ntile") {
    if (call.children().size() != 1) {
      return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        "The `ntile` requires 1 parameters but the actual number is " +
                            std::to_string(call.children().size()) + ".");
    }
    ARROW_ASSIGN_OR_RAISE(fn.offset,
                          ConstantInteger(*call.children()[0], context, "number of buckets"));
    if (fn.offset <= 0 || fn.offset > std::numeric_limits<int32_t>::max()) {
      return SparkError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                        "Cannot resolve \"ntile(" + call.children()[0]->ToString() +
                            ")\" due to data type mismatch: The buckets must be between (0, "
                            "2147483647] (current value = " + std::to_string(fn.offset) +
                            ").");
    }
    ARROW_RETURN_NOT_OK(ranking(WindowFunctionKind::kNtile,
                                "ntile(" + call.children()[0]->ToString() + ")", arrow::int32(),
                                FrameType::kRows));
  } else if (name == "lag" || name == "lead") {
    const auto& args = call.children();
    if (args.empty() || args.size() > 4) {
      return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        "The `" + name + "` requires [1, 2, 3, 4] parameters but the actual "
                        "number is " + std::to_string(args.size()) + ".");
    }
    ARROW_RETURN_NOT_OK(RequireOrder(name + "(" + args[0]->ToString() + ")", order));
    ARROW_ASSIGN_OR_RAISE(auto input, expr::Bind(*args[0], scope));
    int64_t offset = 1;
    if (args.size() >= 2) {
      ARROW_ASSIGN_OR_RAISE(offset, ConstantInteger(*args[1], context, "offset"));
    }
    expr::BoundExprPtr fallback =
        std::make_shared<expr::BoundLiteral>(arrow::MakeNullScalar(input->type()), "NULL");
    if (args.size() >= 3) {
      ARROW_ASSIGN_OR_RAISE(auto written, expr::Bind(*args[2], scope));
      ARROW_ASSIGN_OR_RAISE(fallback, expr::MakeCast(written, input->type(),
                                                     expr::CastKind::kImplicit,
                                                     *context.config));
    }
    if (args.size() == 4) {
      ARROW_ASSIGN_OR_RAISE(auto flag, ConstantValue(*args[3], context, "ignoreNulls flag"));
      fn.ignore_nulls = flag->is_valid && flag->type->id() == arrow::Type::BOOL &&
                        static_cast<const arrow::BooleanScalar&>(*flag).value;
    }
    fn.kind = WindowFunctionKind::kLag;
    fn.offset = name == "lag" ? -offset : offset;
    const std::string default_sql = args.size() >= 3 ? args[2]->ToString() : "NULL";
    resolved.function_sql = name + "(" + input->sql() + ", " + std::to_string(offset) + ", " +
                            default_sql + ")";
    auto at = expr::WindowFrameBound::Offset(expr::Lit(arrow::MakeScalar(fn.offset)));
    resolved.frame = RowsFrame(at, at);
    resolved.type = input->type();
    resolved.nullable = true;
    fn.args = {std::move(input), std::move(fallback)};
  } else if (name == "nth_value") {
    const auto& args = call.children();
    if (args.size() < 2 || args.size() > 3) {
      return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        "The `nth_value` requires [2, 3] parameters but the actual number is " +
                            std::to_string(args.size()) + ".");
    }
    ARROW_ASSIGN_OR_RAISE(auto input, expr::Bind(*args[0], scope));
    ARROW_ASSIGN_OR_RAISE(fn.offset, ConstantInteger(*args[1], context, "offset"));
    if (fn.offset <= 0) {
      return SparkError("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE",
                        "Cannot resolve \"nth_value(" + input->sql() + ", " +
                            std::to_string(fn.offset) +
                            ")\" due to data type mismatch: The offset must be between (0, "
                            "9223372036854775807] (current value = " +
                            std::to_string(fn.offset) + ").");
    }
    if (args.size() == 3) {
      ARROW_ASSIGN_OR_RAISE(auto flag, ConstantValue(*args[2], context, "ignoreNulls flag"));
      fn.ignore_nulls = flag->is_valid && flag->type->id() == arrow::Type::BOOL &&
                        static_cast<const arrow::BooleanScalar&>(*flag).value;
    }
    fn.kind = WindowFunctionKind::kNthValue;
    resolved.function_sql = "nth_value(" + input->sql() + ", " + std::to_string(fn.offset) + ")" +
                            (fn.ignore_nulls ? " ignore nulls" : "");
    resolved.frame = window.frame().value_or(default_frame);
    resolved.type = input->type();
    resolved.nullable = true;
    fn.args = {std::move(input)};
  } else if (context.registry->FindAggregate(name) != nullptr) {
    // The binder resolves the call (count(*), implicit casts) and hands over the aggregate.
    expr::BindScope aggregate_scope = scope;
    aggregate_scope.aggregate_handler =
        [&](const expr::Call& aggregate_call,
            std::vector<expr::BoundExprPtr> args) -> arrow::Result<expr::BoundExprPtr> {
      const std::string aggregate_name = AsciiLower(aggregate_call.name());
      if (fn.aggregate != nullptr) {
        return SparkError("NESTED_AGGREGATE_FUNCTION",
                          "It is not allowed to use an aggregate function in the argument of "
                          "another aggregate function. Please use the inner aggregate "
                          "function in a sub-query.");
      }
      const expr::AggregateResolver* resolver = context.registry->FindAggregate(aggregate_name);
      ARROW_ASSIGN_OR_RAISE(
          auto aggregate,
          (*resolver)(expr::CallSite{aggregate_name, std::move(args), context.config},
                      aggregate_call.distinct()));
      fn.aggregate = aggregate;
      return std::make_shared<expr::BoundLiteral>(arrow::MakeNullScalar(aggregate->result_type()),
                                                  aggregate->sql());
    };
    ARROW_RETURN_NOT_OK(expr::Bind(function, aggregate_scope).status());
    if (fn.aggregate->distinct()) {
      return SparkError("DISTINCT_WINDOW_FUNCTION_UNSUPPORTED",
                        "Distinct window functions are not supported: " + fn.aggregate->sql() +
                            ".");
    }
    fn.kind = WindowFunctionKind::kAggregate;
    resolved.function_sql = fn.aggregate->sql();
    resolved.frame = window.frame().value_or(default_frame);
    resolved.type = fn.aggregate->result_type();
    resolved.nullable = fn.aggregate->nullable();
  } else {
    return SparkError("UNSUPPORTED_EXPR_FOR_WINDOW",
                      "Expression \"" + function.ToString() +
                          "\" not supported within a window function.");
  }
  ARROW_RETURN_NOT_OK(CheckFrameOrder(resolved.frame));
  ARROW_RETURN_NOT_OK(CheckIntervalBoundTypes(resolved.frame, context));
  ARROW_ASSIGN_OR_RAISE(fn.frame.lower,
                        ResolveBound(resolved.frame.lower, resolved.frame, order, context));
  ARROW_ASSIGN_OR_RAISE(fn.frame.upper,
                        ResolveBound(resolved.frame.upper, resolved.frame, order, context));
  fn.frame.type = resolved.frame.type;
  const auto& lower = fn.frame.lower;
  const auto& upper = fn.frame.upper;
  if (lower.kind == BoundKind::kOffset && upper.kind == BoundKind::kOffset &&
      lower.real_offset > upper.real_offset) {
    return SparkError("DATATYPE_MISMATCH.SPECIFIED_WINDOW_FRAME_WRONG_COMPARISON",
                      "Cannot resolve \"" + resolved.frame.ToString() +
                          "\" due to data type mismatch: The lower bound of a window frame "
                          "must be less than or equal to the upper bound.");
  }
  return resolved;
}

}  // namespace

arrow::Result<std::shared_ptr<const Window>> Window::Make(
    PlanPtr child, const std::vector<std::shared_ptr<const expr::WindowExpr>>& windows,
    const AnalysisContext& context) {
  if (windows.empty()) return arrow::Status::Invalid("a Window node needs a window expression");
  const expr::BindScope scope = ScopeOf(*child, context);
  std::vector<expr::BoundExprPtr> partition_keys;
  for (const auto& key : windows[0]->partition_by()) {
    ARROW_ASSIGN_OR_RAISE(auto bound, expr::Bind(*key, scope));
    if (!expr::IsGroupableType(*bound->type())) {
      return SparkError("DATATYPE_MISMATCH.INVALID_ORDERING_TYPE",
                        "Cannot resolve \"" + bound->sql() +
                            "\" due to data type mismatch: A window cannot be partitioned by "
                            "type \"" + expr::SqlTypeName(*bound->type()) + "\".");
    }
    partition_keys.push_back(std::move(bound));
  }
  ARROW_ASSIGN_OR_RAISE(auto order_keys, BindSortKeys(windows[0]->order_by(), scope));
  std::vector<WindowFunction> functions;
  expr::AttributeList output = child->output();
  for (const auto& window : windows) {
    ARROW_ASSIGN_OR_RAISE(auto resolved, ResolveFunction(*window, child, order_keys, context));
    const std::string name =
        resolved.function_sql + " OVER " +
        SpecSql(partition_keys, order_keys, resolved.frame.ToString());
    output.push_back({name, resolved.type, resolved.nullable, context.ids->Next(), {}});
    functions.push_back(std::move(resolved.function));
  }
  return std::make_shared<Window>(std::move(child), std::move(partition_keys),
                                  std::move(order_keys), std::move(functions),
                                  std::move(output));
}

std::string Window::Describe() const {
  const size_t first = children()[0]->output().size();
  std::string text = "Window [";
  for (size_t i = first; i < output().size(); ++i) {
    if (i > first) text += ", ";
    text += output()[i].name + "#" + std::to_string(output()[i].id);
  }
  text += "], [";
  for (size_t i = 0; i < partition_keys_.size(); ++i) {
    text += (i > 0 ? ", " : "") + partition_keys_[i]->sql();
  }
  text += "], [";
  for (size_t i = 0; i < order_keys_.size(); ++i) {
    text += (i > 0 ? ", " : "") + SortKeySql(order_keys_[i]);
  }
  return text + "]";
}

const std::vector<std::string>& WindowFunctionNames() {
  static const std::vector<std::string> names = {"cume_dist", "dense_rank", "lag",
                                                  "lead",      "nth_value",  "ntile",
                                                  "percent_rank", "rank",   "row_number"};
  return names;
}

}  // namespace sluice::plan
