#include "sluice/expr/call_checks.h"

#include <array>
#include <cctype>

#include <arrow/compute/api.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/expression.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::expr {

namespace {
constexpr std::array<std::string_view, 10> kOrdinals = {
    "first", "second", "third", "fourth", "fifth",
    "sixth", "seventh", "eighth", "ninth", "tenth"};

std::string Ordinal(size_t index) {
  return index < kOrdinals.size() ? std::string(kOrdinals[index])
                                  : std::to_string(index + 1) + "th";
}
}  // namespace

std::string CallSql(const CallSite& call) {
  std::vector<std::string> names;
  names.reserve(call.args.size());
  for (const auto& arg : call.args) names.push_back(arg->sql());
  return FormatCall(call.name, names, false);
}

std::string SqlTypeName(const arrow::DataType& type) {
  std::string name = types::SimpleString(type);
  for (auto& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

arrow::Status CheckArgCount(const CallSite& call, size_t min, size_t max,
                            std::string_view expected) {
  if (call.args.size() >= min && call.args.size() <= max) return arrow::Status::OK();
  return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                    "The `" + call.name + "` requires " + std::string(expected) +
                        " parameters but the actual number is " +
                        std::to_string(call.args.size()) +
                        ". Please, refer to "
                        "'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a "
                        "fix.");
}

arrow::Status UnexpectedInputType(const CallSite& call, size_t index, std::string_view required) {
  const auto& arg = call.args[index];
  return SparkError("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE",
                    "Cannot resolve \"" + CallSql(call) +
                        "\" due to data type mismatch: The " + Ordinal(index) +
                        " parameter requires the " + std::string(required) + " type, however \"" +
                        arg->sql() + "\" has the type \"" + SqlTypeName(*arg->type()) + "\".");
}

arrow::Status DataTypeMismatch(const CallSite& call, std::string_view sub_class,
                               std::string_view reason) {
  return SparkError("DATATYPE_MISMATCH." + std::string(sub_class),
                    "Cannot resolve \"" + CallSql(call) + "\" due to data type mismatch: " +
                        std::string(reason));
}

const arrow::Scalar* ConstantArgument(const CallSite& call, size_t index) {
  if (index >= call.args.size() || call.args[index]->kind() != BoundKind::kLiteral) {
    return nullptr;
  }
  return static_cast<const BoundLiteral&>(*call.args[index]).value().get();
}

Kernel ArrowKernel(std::string name, std::shared_ptr<arrow::compute::FunctionOptions> options) {
  return [name = std::move(name), options = std::move(options)](
             const std::vector<arrow::Datum>& args, const EvalContext&,
             int64_t) -> arrow::Result<arrow::Datum> {
    return arrow::compute::CallFunction(name, args, options.get());
  };
}

arrow::Result<std::vector<BoundExprPtr>> CastArguments(
    const CallSite& call, const std::shared_ptr<arrow::DataType>& type) {
  std::vector<BoundExprPtr> cast;
  cast.reserve(call.args.size());
  for (const auto& arg : call.args) {
    ARROW_ASSIGN_OR_RAISE(auto converted, MakeCast(arg, type, CastKind::kImplicit, *call.config));
    cast.push_back(std::move(converted));
  }
  return cast;
}

bool AnyNullable(const std::vector<BoundExprPtr>& args) {
  for (const auto& arg : args) {
    if (arg->nullable()) return true;
  }
  return false;
}

}  // namespace sluice::expr
