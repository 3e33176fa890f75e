// Spark's floating point math functions (sqrt, exp, ln, log, trigonometry, ...), abs,
// greatest/least, isnan/nanvl and the constants e() and pi(). Functions of doubles take any
// numeric (or string) argument cast to double, as Spark's implicit casts do.
#include <cmath>
#include <limits>

#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/math_function_groups.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

bool IsNumericOrString(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == arrow::Type::DECIMAL128 || type.id() == arrow::Type::STRING ||
         type.id() == arrow::Type::NA;
}

arrow::Result<std::vector<BoundExprPtr>> DoubleArguments(const CallSite& call) {
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (!IsNumericOrString(*call.args[i]->type())) {
      return UnexpectedInputType(call, i, "\"DOUBLE\"");
    }
  }
  return CastArguments(call, arrow::float64());
}

arrow::Status OverflowError(const arrow::DataType& type) {
  const std::string what = type.id() == arrow::Type::INT64   ? "long"
                           : type.id() == arrow::Type::INT32 ? "integer"
                           : type.id() == arrow::Type::INT16 ? "short"
                                                             : "byte";
  return SparkError("ARITHMETIC_OVERFLOW",
                    what + " overflow. If necessary set \"spark.sql.ansi.enabled\" to \"false\" "
                           "to bypass this error.");
}

arrow::Result<arrow::Datum> NeverFails(int64_t) {
  return arrow::Status::Invalid("unexpected failure of a math function");
}

// A function of one double; `fn` returns NaN or a value, `null_if(x)` makes the result null.
template <typename Fn, typename NullIf>
ScalarResolver UnaryDouble(Fn fn, NullIf null_if, bool may_be_null) {
  return [fn, null_if, may_be_null](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, DoubleArguments(call));
    resolved.return_type = arrow::float64();
    resolved.nullable = may_be_null || AnyNullable(resolved.args);
    resolved.kernel = [fn, null_if](const std::vector<arrow::Datum>& args,
                                    const EvalContext& context,
                                    int64_t num_rows) -> arrow::Result<arrow::Datum> {
      // A binary loop with a null-free scalar on the right keeps the fast typed path.
      arrow::Datum unused(std::make_shared<arrow::DoubleScalar>(0.0));
      return ApplyBinary<arrow::DoubleType, arrow::DoubleType, arrow::DoubleType>(
          args[0], unused, num_rows, arrow::float64(), context.pool,
          [&](double x, double, double* out) {
            if (null_if(x)) return RowOutcome::kNull;
            *out = fn(x);
            return RowOutcome::kValue;
          },
          NeverFails);
    };
    return resolved;
  };
}

template <typename Fn>
ScalarResolver UnaryDouble(Fn fn) {
  return UnaryDouble(fn, [](double) { return false; }, false);
}

template <typename Fn, typename NullIf>
ScalarResolver BinaryDouble(Fn fn, NullIf null_if, bool may_be_null) {
  return [fn, null_if, may_be_null](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, DoubleArguments(call));
    resolved.return_type = arrow::float64();
    resolved.nullable = may_be_null || AnyNullable(resolved.args);
    resolved.kernel = [fn, null_if](const std::vector<arrow::Datum>& args,
                                    const EvalContext& context,
                                    int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return ApplyBinary<arrow::DoubleType, arrow::DoubleType, arrow::DoubleType>(
          args[0], args[1], num_rows, arrow::float64(), context.pool,
          [&](double a, double b, double* out) {
            if (null_if(a, b)) return RowOutcome::kNull;
            *out = fn(a, b);
            return RowOutcome::kValue;
          },
          NeverFails);
    };
    return resolved;
  };
}

template <typename Fn>
ScalarResolver BinaryDouble(Fn fn) {
  return BinaryDouble(fn, [](double, double) { return false; }, false);
}

// log(x) with one argument is ln(x); log(base, x) is null when either is not positive.
arrow::Result<ResolvedCall> ResolveLog(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "[1, 2]"));
  if (call.args.size() == 1) {
    return UnaryDouble([](double x) { return std::log(x); }, [](double x) { return x <= 0; },
                       true)(std::move(call));
  }
  return BinaryDouble([](double base, double x) { return std::log(x) / std::log(base); },
                      [](double base, double x) { return base <= 0 || x <= 0; },
                      true)(std::move(call));
}

ScalarResolver Constant(double value) {
  return [value](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 0, 0, "0"));
    ResolvedCall resolved;
    resolved.return_type = arrow::float64();
    resolved.nullable = false;
    resolved.kernel = [value](const std::vector<arrow::Datum>&, const EvalContext&,
                              int64_t) -> arrow::Result<arrow::Datum> {
      return arrow::Datum(std::make_shared<arrow::DoubleScalar>(value));
    };
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveAbs(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  auto type = call.args[0]->type();
  if (type->id() == arrow::Type::STRING || type->id() == arrow::Type::NA) type = arrow::float64();
  if (!IsNumericOrString(*type)) return UnexpectedInputType(call, 0, "\"NUMERIC\"");
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
  resolved.return_type = type;
  resolved.nullable = AnyNullable(resolved.args);
  const bool checked = arrow::is_integer(type->id()) && call.config->ansi_enabled();
  resolved.can_fail = checked;
  resolved.kernel = [checked, type](const std::vector<arrow::Datum>& args, const EvalContext&,
                                    int64_t) -> arrow::Result<arrow::Datum> {
    auto result = cp::CallFunction(checked ? "abs_checked" : "abs", args);
    if (!result.ok() && checked) return OverflowError(*type);
    return result;
  };
  return resolved;
}

// greatest/least: the largest/smallest non-null argument at the arguments' common type; NaN is
// larger than any other value, as in Spark's ordering.
ScalarResolver GreatestLeast(bool greatest) {
  return [greatest](CallSite call) -> arrow::Result<ResolvedCall> {
    if (call.args.size() < 2) {
      return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                        "The `" + call.name + "` requires > 1 parameters but the actual number "
                        "is " + std::to_string(call.args.size()) + ".");
    }
    std::vector<std::shared_ptr<arrow::DataType>> types;
    for (const auto& arg : call.args) types.push_back(arg->type());
    auto type = NumericCommonType(types);
    if (type == nullptr || type->id() == arrow::Type::MAP) {
      std::string listed;
      for (size_t i = 0; i < types.size(); ++i) {
        listed += (i ? ", " : "") + std::string("\"") + SqlTypeName(*types[i]) + "\"";
      }
      return DataTypeMismatch(call, "DATA_DIFF_TYPES",
                              "Input to `" + call.name +
                                  "` should all be the same type, but it's [" + listed + "].");
    }
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
    resolved.return_type = type;
    resolved.nullable = true;
    for (const auto& arg : resolved.args) {
      if (!arg->nullable()) resolved.nullable = false;
    }
    const bool floating = arrow::is_floating(type->id());
    resolved.kernel = [greatest, floating, type](const std::vector<arrow::Datum>& args,
                                                 const EvalContext&,
                                                 int64_t) -> arrow::Result<arrow::Datum> {
      if (type->id() == arrow::Type::NA) return args[0];
      arrow::Datum result = args[0];
      for (size_t i = 1; i < args.size(); ++i) {
        const arrow::Datum& next = args[i];
        // Take `next` where the result so far is null, or where next is valid and wins.
        ARROW_ASSIGN_OR_RAISE(auto wins,
                              cp::CallFunction(greatest ? "greater" : "less", {next, result}));
        if (floating) {
          ARROW_ASSIGN_OR_RAISE(auto nan, cp::CallFunction("is_nan", {greatest ? next : result}));
          ARROW_ASSIGN_OR_RAISE(auto other_nan,
                                cp::CallFunction("is_nan", {greatest ? result : next}));
          ARROW_ASSIGN_OR_RAISE(auto not_other_nan, cp::CallFunction("invert", {other_nan}));
          ARROW_ASSIGN_OR_RAISE(wins, cp::CallFunction("and_kleene", {wins, not_other_nan}));
          if (greatest) {
            ARROW_ASSIGN_OR_RAISE(wins, cp::CallFunction("or_kleene", {wins, nan}));
          } else {
            ARROW_ASSIGN_OR_RAISE(auto next_nan, cp::CallFunction("is_nan", {next}));
            ARROW_ASSIGN_OR_RAISE(auto not_next_nan, cp::CallFunction("invert", {next_nan}));
            ARROW_ASSIGN_OR_RAISE(auto nan_wins, cp::CallFunction("and_kleene",
                                                                  {nan, not_next_nan}));
            ARROW_ASSIGN_OR_RAISE(wins, cp::CallFunction("or_kleene", {wins, nan_wins}));
          }
        }
        ARROW_ASSIGN_OR_RAISE(auto result_null, cp::CallFunction("is_null", {result}));
        ARROW_ASSIGN_OR_RAISE(auto next_valid, cp::CallFunction("is_valid", {next}));
        ARROW_ASSIGN_OR_RAISE(auto fill, cp::CallFunction("and", {result_null, next_valid}));
        ARROW_ASSIGN_OR_RAISE(auto wins_valid, cp::CallFunction("and_kleene", {wins, next_valid}));
        ARROW_ASSIGN_OR_RAISE(auto take, cp::CallFunction("or_kleene", {wins_valid, fill}));
        ARROW_ASSIGN_OR_RAISE(auto take_filled,
                              cp::CallFunction("coalesce", {take, arrow::Datum(false)}));
        ARROW_ASSIGN_OR_RAISE(result, cp::IfElse(take_filled, next, result));
      }
      return result;
    };
    return resolved;
  };
}

arrow::Result<ResolvedCall> ResolveIsNan(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, DoubleArguments(call));
  resolved.return_type = arrow::boolean();
  resolved.nullable = false;
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                       int64_t) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto nan, cp::CallFunction("is_nan", args));
    return cp::CallFunction("coalesce", {nan, arrow::Datum(false)});
  };
  return resolved;
}

// nanvl(a, b): b where a is NaN. Two floats stay float; anything else is read as double.
arrow::Result<ResolvedCall> ResolveNanvl(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ResolvedCall resolved;
  auto common = NumericCommonType({call.args[0]->type(), call.args[1]->type()});
  if (common != nullptr && common->id() == arrow::Type::FLOAT) {
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, common));
    resolved.return_type = common;
  } else {
    ARROW_ASSIGN_OR_RAISE(resolved.args, DoubleArguments(call));
    resolved.return_type = arrow::float64();
  }
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                       int64_t) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto nan, cp::CallFunction("is_nan", {args[0]}));
    ARROW_ASSIGN_OR_RAISE(auto pick, cp::CallFunction("coalesce", {nan, arrow::Datum(false)}));
    return cp::IfElse(pick, args[1], args[0]);
  };
  return resolved;
}

// Java's Math.pow, which differs from C's pow where the exponent is NaN (NaN even for a base of
// 1) and where a base of +-1 meets an infinite exponent (NaN, not 1).
double JavaPow(double base, double exponent) {
  if (std::isnan(exponent)) return exponent;
  if (std::isinf(exponent) && std::fabs(base) == 1.0) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return std::pow(base, exponent);
}

double JavaSignum(double x) {
  if (std::isnan(x) || x == 0) return x;
  return x > 0 ? 1.0 : -1.0;
}

}  // namespace

std::shared_ptr<arrow::DataType> NumericCommonType(
    const std::vector<std::shared_ptr<arrow::DataType>>& types) {
  auto common = CommonType(types);
  if (common == nullptr || common->id() != arrow::Type::FLOAT) return common;
  for (const auto& type : types) {
    if (arrow::is_integer(type->id())) return arrow::float64();
  }
  return common;
}

void RegisterMathFunctions(FunctionRegistry& registry) {
  const auto never = [](double) { return false; };
  registry.RegisterScalar("sqrt", UnaryDouble([](double x) { return std::sqrt(x); }));
  registry.RegisterScalar("cbrt", UnaryDouble([](double x) {
                            // glibc's cbrt is not correctly rounded on exact cubes; Java's is.
                            const double root = std::cbrt(x);
                            const double whole = std::nearbyint(root);
                            return whole * whole * whole == x ? whole : root;
                          }));
  registry.RegisterScalar("exp", UnaryDouble([](double x) { return std::exp(x); }));
  registry.RegisterScalar("expm1", UnaryDouble([](double x) { return std::expm1(x); }));
  registry.RegisterScalar("ln", UnaryDouble([](double x) { return std::log(x); },
                                            [](double x) { return x <= 0; }, true));
  registry.RegisterScalar("log10", UnaryDouble([](double x) { return std::log10(x); },
                                               [](double x) { return x <= 0; }, true));
  registry.RegisterScalar("log2", UnaryDouble([](double x) { return std::log2(x); },
                                              [](double x) { return x <= 0; }, true));
  registry.RegisterScalar("log1p", UnaryDouble([](double x) { return std::log1p(x); },
                                               [](double x) { return x <= -1; }, true));
  registry.RegisterScalar("log", ResolveLog);
  registry.RegisterScalar("sin", UnaryDouble([](double x) { return std::sin(x); }));
  registry.RegisterScalar("cos", UnaryDouble([](double x) { return std::cos(x); }));
  registry.RegisterScalar("tan", UnaryDouble([](double x) { return std::tan(x); }));
  registry.RegisterScalar("cot", UnaryDouble([](double x) { return 1.0 / std::tan(x); }));
  registry.RegisterScalar("sec", UnaryDouble([](double x) { return 1.0 / std::cos(x); }));
  registry.RegisterScalar("csc", UnaryDouble([](double x) { return 1.0 / std::sin(x); }));
  registry.RegisterScalar("asin", UnaryDouble([](double x) { return std::asin(x); }));
  registry.RegisterScalar("acos", UnaryDouble([](double x) { return std::acos(x); }));
  registry.RegisterScalar("atan", UnaryDouble([](double x) { return std::atan(x); }));
  registry.RegisterScalar("sinh", UnaryDouble([](double x) { return std::sinh(x); }));
  registry.RegisterScalar("cosh", UnaryDouble([](double x) { return std::cosh(x); }));
  registry.RegisterScalar("tanh", UnaryDouble([](double x) { return std::tanh(x); }));
  registry.RegisterScalar("asinh", UnaryDouble([](double x) { return std::asinh(x); }));
  registry.RegisterScalar("acosh", UnaryDouble([](double x) { return std::acosh(x); }));
  registry.RegisterScalar("atanh", UnaryDouble([](double x) { return std::atanh(x); }));
  // Java's Math.toDegrees / toRadians multiply by these constants.
  registry.RegisterScalar("degrees",
                          UnaryDouble([](double x) { return x * 57.29577951308232; }));
  registry.RegisterScalar("radians",
                          UnaryDouble([](double x) { return x * 0.017453292519943295; }));
  registry.RegisterScalar("signum", UnaryDouble(JavaSignum, never, false));
  registry.RegisterScalar("sign", UnaryDouble(JavaSignum, never, false));
  registry.RegisterScalar("rint", UnaryDouble([](double x) { return std::nearbyint(x); }));
  registry.RegisterScalar("pow", BinaryDouble(JavaPow));
  registry.RegisterScalar("power", BinaryDouble(JavaPow));
  registry.RegisterScalar("atan2",
                          BinaryDouble([](double y, double x) { return std::atan2(y, x); }));
  registry.RegisterScalar("hypot",
                          BinaryDouble([](double a, double b) { return std::hypot(a, b); }));
  registry.RegisterScalar("e", Constant(M_E));
  registry.RegisterScalar("pi", Constant(M_PI));
  registry.RegisterScalar("abs", ResolveAbs);
  registry.RegisterScalar("greatest", GreatestLeast(true));
  registry.RegisterScalar("least", GreatestLeast(false));
  registry.RegisterScalar("isnan", ResolveIsNan);
  registry.RegisterScalar("nanvl", ResolveNanvl);
  RegisterRoundingFunctions(registry);
  RegisterIntegerMathFunctions(registry);
}

}  // namespace sluice::expr
