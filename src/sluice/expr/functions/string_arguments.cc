#include "sluice/expr/functions/string_arguments.h"

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"

namespace sluice::expr {

namespace {

bool IsAtomic(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::MAP:
    case arrow::Type::STRUCT:
      return false;
    default:
      return true;
  }
}

bool IsNumericOrString(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == arrow::Type::DECIMAL128 || type.id() == arrow::Type::STRING ||
         type.id() == arrow::Type::NA;
}

}  // namespace

arrow::Result<std::vector<BoundExprPtr>> CoerceStringArguments(
    const CallSite& call, const std::vector<StringParam>& params) {
  std::vector<BoundExprPtr> args;
  args.reserve(call.args.size());
  for (size_t i = 0; i < call.args.size(); ++i) {
    const auto& arg = call.args[i];
    const auto& type = *arg->type();
    const StringParam param = i < params.size() ? params[i] : params.back();
    std::shared_ptr<arrow::DataType> target;
    switch (param) {
      case StringParam::kString:
        if (!IsAtomic(type)) return UnexpectedInputType(call, i, "\"STRING\"");
        target = arrow::utf8();
        break;
      case StringParam::kStringOrBinary:
        if (!IsAtomic(type)) return UnexpectedInputType(call, i, "(\"STRING\" or \"BINARY\")");
        target = type.id() == arrow::Type::BINARY ? arrow::binary() : arrow::utf8();
        break;
      case StringParam::kInt:
        if (!IsNumericOrString(type)) return UnexpectedInputType(call, i, "\"INT\"");
        target = arrow::int32();
        break;
    }
    ARROW_ASSIGN_OR_RAISE(auto cast, MakeCast(arg, target, CastKind::kImplicit, *call.config));
    args.push_back(std::move(cast));
  }
  return args;
}

arrow::Result<ResolvedCall> ResolveStringCall(const CallSite& call,
                                              const StringSignature& signature,
                                              std::shared_ptr<arrow::DataType> return_type) {
  const size_t max = signature.params.size();
  ARROW_RETURN_NOT_OK(CheckArgCount(call, max - signature.optional, max,
                                    signature.expected_count.empty()
                                        ? std::to_string(max)
                                        : signature.expected_count));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CoerceStringArguments(call, signature.params));
  resolved.return_type = std::move(return_type);
  resolved.nullable = AnyNullable(resolved.args);
  return resolved;
}

std::optional<std::string> ConstantString(const CallSite& call, size_t index, bool* is_null) {
  const arrow::Scalar* scalar = ConstantArgument(call, index);
  if (is_null) *is_null = false;
  if (scalar == nullptr) return std::nullopt;
  if (!scalar->is_valid) {
    if (is_null) *is_null = true;
    return std::nullopt;
  }
  if (scalar->type->id() != arrow::Type::STRING) return std::nullopt;
  return std::string(static_cast<const arrow::BaseBinaryScalar&>(*scalar).view());
}

std::optional<int64_t> ConstantInt(const CallSite& call, size_t index) {
  const arrow::Scalar* scalar = ConstantArgument(call, index);
  if (scalar == nullptr || !scalar->is_valid || !arrow::is_integer(scalar->type->id())) {
    return std::nullopt;
  }
  auto cast = scalar->CastTo(arrow::int64());
  if (!cast.ok()) return std::nullopt;
  return static_cast<const arrow::Int64Scalar&>(**cast).value;
}

}  // namespace sluice::expr
