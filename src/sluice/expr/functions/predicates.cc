// Null tests and set/range membership: isnull, isnotnull, IN, BETWEEN.
#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

ScalarResolver NullTest(bool want_null) {
  return [want_null](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    ResolvedCall resolved;
    resolved.args = call.args;
    resolved.return_type = arrow::boolean();
    resolved.nullable = false;
    resolved.kernel = ArrowKernel(want_null ? "is_null" : "is_valid");
    return resolved;
  };
}

// a IN (v1, v2, ...): null when a is null, true on a match, else null when some v is null, else
// false. That is exactly OR over a = v_i in three-valued logic.
arrow::Result<ResolvedCall> ResolveIn(CallSite call) {
  if (call.args.size() < 2) return CheckArgCount(call, 2, SIZE_MAX, "> 1");
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& arg : call.args) types.push_back(arg->type());
  auto common = CommonType(types);
  if (common == nullptr) {
    return DataTypeMismatch(call, "DATA_DIFF_TYPES",
                            "Input to `in` should all be the same type, but it's [" +
                                [&] {
                                  std::string list;
                                  for (size_t i = 0; i < types.size(); ++i) {
                                    list += (i ? ", \"" : "\"") + SqlTypeName(*types[i]) + "\"";
                                  }
                                  return list;
                                }() +
                                "].");
  }
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, common));
  resolved.return_type = arrow::boolean();
  const FunctionRegistry& registry = FunctionRegistry::Builtins();
  const ScalarResolver* equal = registry.FindScalar("=");
  // One equality kernel serves every list element: they all have the common type.
  CallSite equal_call{"=", {resolved.args[0], resolved.args[1]}, call.config};
  ARROW_ASSIGN_OR_RAISE(auto equality, (*equal)(equal_call));
  Kernel equal_kernel = equality.kernel;
  resolved.kernel = [equal_kernel](const std::vector<arrow::Datum>& args,
                                   const EvalContext& context,
                                   int64_t num_rows) -> arrow::Result<arrow::Datum> {
    arrow::Datum result(false);
    for (size_t i = 1; i < args.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto matches, equal_kernel({args[0], args[i]}, context, num_rows));
      ARROW_ASSIGN_OR_RAISE(result, cp::CallFunction("or_kleene", {result, matches}));
    }
    return result;
  };
  return resolved;
}

// a BETWEEN lo AND hi is lo <= a AND a <= hi.
arrow::Result<ResolvedCall> ResolveBetween(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 3, 3, "3"));
  const FunctionRegistry& registry = FunctionRegistry::Builtins();
  CallSite low{">=", {call.args[0], call.args[1]}, call.config};
  CallSite high{"<=", {call.args[0], call.args[2]}, call.config};
  ARROW_ASSIGN_OR_RAISE(auto low_call, (*registry.FindScalar(">="))(low));
  ARROW_ASSIGN_OR_RAISE(auto high_call, (*registry.FindScalar("<="))(high));
  ResolvedCall resolved;
  resolved.args = {low_call.args[0], low_call.args[1], high_call.args[0], high_call.args[1]};
  resolved.return_type = arrow::boolean();
  resolved.nullable = AnyNullable(call.args);
  resolved.can_fail = low_call.can_fail || high_call.can_fail;
  resolved.kernel = [low = low_call.kernel, high = high_call.kernel](
                        const std::vector<arrow::Datum>& args, const EvalContext& context,
                        int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto above, low({args[0], args[1]}, context, num_rows));
    ARROW_ASSIGN_OR_RAISE(auto below, high({args[2], args[3]}, context, num_rows));
    return cp::CallFunction("and_kleene", {above, below});
  };
  return resolved;
}

}  // namespace

void RegisterPredicateFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("isnull", NullTest(true));
  registry.RegisterScalar("isnotnull", NullTest(false));
  registry.RegisterScalar("in", ResolveIn);
  registry.RegisterScalar("between", ResolveBetween);
}

}  // namespace sluice::expr
