#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

/// The SQL text of a call as Spark prints it in messages: `upper(a)`, `(a + 1)`.
std::string CallSql(const CallSite& call);

/// Spark's upper-case type name for messages: "INT", "DECIMAL(10,2)", "ARRAY<STRING>".
std::string SqlTypeName(const arrow::DataType& type);

/// WRONG_NUM_ARGS when the call has fewer than `min` or more than `max` arguments; `expected`
/// is how Spark words the accepted counts ("1", "[2, 3]", "> 0").
arrow::Status CheckArgCount(const CallSite& call, size_t min, size_t max,
                            std::string_view expected);

/// DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE for argument `index` (0-based), which should have
/// one of the types described by `required` (e.g. "\"STRING\"" or "(\"NUMERIC\" or \"STRING\")").
arrow::Status UnexpectedInputType(const CallSite& call, size_t index, std::string_view required);

/// DATATYPE_MISMATCH.<sub_class> with a free-form reason, for rules the helpers above don't cover.
arrow::Status DataTypeMismatch(const CallSite& call, std::string_view sub_class,
                               std::string_view reason);

/// The value of a literal argument, or nullptr when argument `index` is not a constant.
const arrow::Scalar* ConstantArgument(const CallSite& call, size_t index);

/// A kernel calling the Arrow compute function `name` with `options` on the arguments as is.
Kernel ArrowKernel(std::string name, std::shared_ptr<arrow::compute::FunctionOptions> options =
                                         nullptr);

/// Casts every argument of `call` to `type` (as implicit casts) and returns the new arguments.
arrow::Result<std::vector<BoundExprPtr>> CastArguments(const CallSite& call,
                                                       const std::shared_ptr<arrow::DataType>& type);

/// True when any argument is nullable: the usual nullability of a null-propagating function.
bool AnyNullable(const std::vector<BoundExprPtr>& args);

}  // namespace sluice::expr
