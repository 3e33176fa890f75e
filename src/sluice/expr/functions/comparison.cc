// Spark's comparison operators (= == <=> != <> < <= > >=) and NOT. Values of different types
// meet at their common type first. Floating point follows Spark, not IEEE: NaN equals NaN and
// is greater than every other value.
#include <cmath>

#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

enum class Comparison { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

const char* ArrowName(Comparison comparison) {
  switch (comparison) {
    case Comparison::kEqual: return "equal";
    case Comparison::kNotEqual: return "not_equal";
    case Comparison::kLess: return "less";
    case Comparison::kLessEqual: return "less_equal";
    case Comparison::kGreater: return "greater";
    case Comparison::kGreaterEqual: return "greater_equal";
  }
  return "equal";
}

// Spark's total order on floating point: NaN is the largest value and equals itself.
template <typename C>
int CompareFloating(C a, C b) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

bool Holds(Comparison comparison, int order) {
  switch (comparison) {
    case Comparison::kEqual: return order == 0;
    case Comparison::kNotEqual: return order != 0;
    case Comparison::kLess: return order < 0;
    case Comparison::kLessEqual: return order <= 0;
    case Comparison::kGreater: return order > 0;
    case Comparison::kGreaterEqual: return order >= 0;
  }
  return false;
}

template <typename T>
arrow::Result<arrow::Datum> CompareFloatingArrays(Comparison comparison,
                                                  const std::vector<arrow::Datum>& args,
                                                  int64_t num_rows, arrow::MemoryPool* pool) {
  using C = typename arrow::TypeTraits<T>::CType;
  // Booleans are bit-packed, so compute into bytes and let Arrow pack them.
  auto compare = [comparison](C a, C b, int8_t* out) {
    *out = Holds(comparison, CompareFloating(a, b)) ? 1 : 0;
    return RowOutcome::kValue;
  };
  auto never = [](int64_t) -> arrow::Result<arrow::Datum> {
    return arrow::Status::Invalid("comparison cannot fail");
  };
  ARROW_ASSIGN_OR_RAISE(auto bytes, (ApplyBinary<T, T, arrow::Int8Type>(
                                        args[0], args[1], num_rows, arrow::int8(), pool, compare,
                                        never)));
  return cp::Cast(bytes, arrow::boolean());
}

arrow::Result<std::shared_ptr<arrow::DataType>> ComparisonType(const CallSite& call) {
  auto common = CommonType(call.args[0]->type(), call.args[1]->type());
  if (common == nullptr) {
    return DataTypeMismatch(call, "BINARY_OP_DIFF_TYPES",
                            "the left and right operands of the binary operator have "
                            "incompatible types (\"" +
                                SqlTypeName(*call.args[0]->type()) + "\" and \"" +
                                SqlTypeName(*call.args[1]->type()) + "\").");
  }
  // NULL = NULL compares two booleans that are both null, as Spark coerces it.
  if (common->id() == arrow::Type::NA) return arrow::boolean();
  if (common->id() == arrow::Type::MAP) {
    return DataTypeMismatch(call, "INVALID_ORDERING_TYPE",
                            "The `" + call.name + "` does not support ordering on type \"" +
                                SqlTypeName(*common) + "\".");
  }
  return common;
}

// A year-month interval compared by its months: Arrow has no comparison of month_interval.
arrow::Datum MonthsOf(const arrow::Datum& value) {
  if (value.is_scalar()) {
    const auto& months = value.scalar_as<arrow::MonthIntervalScalar>();
    return months.is_valid ? arrow::Datum(arrow::MakeScalar(months.value))
                           : arrow::Datum(arrow::MakeNullScalar(arrow::int32()));
  }
  return arrow::Datum(value.make_array()->View(arrow::int32()).ValueOrDie());
}

Kernel ComparisonKernel(Comparison comparison, const std::shared_ptr<arrow::DataType>& type) {
  const bool floating = arrow::is_floating(type->id());
  const bool is_float32 = type->id() == arrow::Type::FLOAT;
  if (type->id() == arrow::Type::INTERVAL_MONTHS) {
    Kernel on_months = ComparisonKernel(comparison, arrow::int32());
    return [on_months](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return on_months({MonthsOf(args[0]), MonthsOf(args[1])}, context, num_rows);
    };
  }
  return [comparison, floating, is_float32](const std::vector<arrow::Datum>& args,
                                            const EvalContext& context,
                                            int64_t num_rows) -> arrow::Result<arrow::Datum> {
    if (floating) {
      return is_float32 ? CompareFloatingArrays<arrow::FloatType>(comparison, args, num_rows,
                                                                  context.pool)
                        : CompareFloatingArrays<arrow::DoubleType>(comparison, args, num_rows,
                                                                   context.pool);
    }
    return cp::CallFunction(ArrowName(comparison), args);
  };
}

ScalarResolver BinaryComparison(Comparison comparison) {
  return [comparison](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    ARROW_ASSIGN_OR_RAISE(auto type, ComparisonType(call));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
    resolved.return_type = arrow::boolean();
    resolved.nullable = AnyNullable(resolved.args);
    resolved.kernel = ComparisonKernel(comparison, type);
    return resolved;
  };
}

// a <=> b: true when both are null, false when one is, else a = b.
arrow::Result<ResolvedCall> ResolveNullSafeEqual(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_ASSIGN_OR_RAISE(auto type, ComparisonType(call));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
  resolved.return_type = arrow::boolean();
  resolved.nullable = false;
  Kernel equal = ComparisonKernel(Comparison::kEqual, type);
  resolved.kernel = [equal](const std::vector<arrow::Datum>& args, const EvalContext& context,
                            int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto equals, equal(args, context, num_rows));
    ARROW_ASSIGN_OR_RAISE(auto left_null, cp::CallFunction("is_null", {args[0]}));
    ARROW_ASSIGN_OR_RAISE(auto right_null, cp::CallFunction("is_null", {args[1]}));
    ARROW_ASSIGN_OR_RAISE(auto both_null, cp::CallFunction("and", {left_null, right_null}));
    ARROW_ASSIGN_OR_RAISE(auto values_equal,
                          cp::CallFunction("coalesce", {equals, arrow::Datum(false)}));
    return cp::CallFunction("or", {both_null, values_equal});
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveNot(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (id != arrow::Type::BOOL && id != arrow::Type::NA) {
    return UnexpectedInputType(call, 0, "\"BOOLEAN\"");
  }
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::boolean()));
  resolved.return_type = arrow::boolean();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = ArrowKernel("invert");
  return resolved;
}

}  // namespace

void RegisterComparisonFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("=", BinaryComparison(Comparison::kEqual));
  registry.RegisterScalar("==", BinaryComparison(Comparison::kEqual));
  registry.RegisterScalar("!=", BinaryComparison(Comparison::kNotEqual));
  registry.RegisterScalar("<>", BinaryComparison(Comparison::kNotEqual));
  registry.RegisterScalar("<", BinaryComparison(Comparison::kLess));
  registry.RegisterScalar("<=", BinaryComparison(Comparison::kLessEqual));
  registry.RegisterScalar(">", BinaryComparison(Comparison::kGreater));
  registry.RegisterScalar(">=", BinaryComparison(Comparison::kGreaterEqual));
  registry.RegisterScalar("<=>", ResolveNullSafeEqual);
  registry.RegisterScalar("equal_null", ResolveNullSafeEqual);
  registry.RegisterScalar("not", ResolveNot);
  registry.RegisterScalar("!", ResolveNot);
}

}  // namespace sluice::expr
