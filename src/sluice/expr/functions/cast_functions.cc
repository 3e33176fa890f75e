// Spark's cast-named functions: boolean(x), tinyint(x), smallint(x), int(x), bigint(x),
// float(x), double(x), decimal(x), string(x), binary(x), date(x) and timestamp(x). Each is
// CAST(x AS type) with the session's ANSI rules, and, as in Spark, is named after its argument
// alone (`double(a)` is the column `a`). Also typeof(x), the name of x's type.
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/types/spark_type_names.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

ScalarResolver CastAlias(std::shared_ptr<arrow::DataType> target) {
  return [target](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
    const std::string name = call.args[0]->sql();
    ARROW_ASSIGN_OR_RAISE(auto cast,
                          MakeCast(call.args[0], target, CastKind::kExplicit, *call.config));
    ResolvedCall resolved;
    resolved.return_type = target;
    resolved.nullable = cast->nullable();
    resolved.can_fail = cast->can_fail();
    resolved.args = {std::move(cast)};
    resolved.kernel = [](const std::vector<arrow::Datum>& args, const EvalContext&,
                         int64_t) -> arrow::Result<arrow::Datum> { return args[0]; };
    resolved.sql = name;
    return resolved;
  };
}

// typeof(x): Spark's simpleString of x's type ("int", "interval minute"), known when bound.
arrow::Result<ResolvedCall> ResolveTypeOf(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  auto name = std::make_shared<arrow::StringScalar>(types::SimpleString(*call.args[0]->type()));
  ResolvedCall resolved;
  resolved.return_type = arrow::utf8();
  resolved.nullable = false;
  resolved.args = call.args;
  resolved.kernel = [name](const std::vector<arrow::Datum>&, const EvalContext&,
                           int64_t) -> arrow::Result<arrow::Datum> { return arrow::Datum(name); };
  return resolved;
}

}  // namespace

void RegisterCastFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("typeof", ResolveTypeOf);
  registry.RegisterScalar("boolean", CastAlias(arrow::boolean()));
  registry.RegisterScalar("tinyint", CastAlias(arrow::int8()));
  registry.RegisterScalar("smallint", CastAlias(arrow::int16()));
  registry.RegisterScalar("int", CastAlias(arrow::int32()));
  registry.RegisterScalar("bigint", CastAlias(arrow::int64()));
  registry.RegisterScalar("float", CastAlias(arrow::float32()));
  registry.RegisterScalar("double", CastAlias(arrow::float64()));
  registry.RegisterScalar("decimal",
                          CastAlias(arrow::decimal128(types::kDefaultDecimalPrecision, 0)));
  registry.RegisterScalar("string", CastAlias(arrow::utf8()));
  registry.RegisterScalar("binary", CastAlias(arrow::binary()));
  registry.RegisterScalar("date", CastAlias(arrow::date32()));
  registry.RegisterScalar("timestamp", CastAlias(types::TimestampLtzType()));
}

}  // namespace sluice::expr
