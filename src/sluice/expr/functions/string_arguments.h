#pragma once

// Argument checking and implicit casts shared by the string and regex function resolvers.

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

/// What a string function's parameter accepts; the argument is implicitly cast to it.
enum class StringParam {
  kString,        // any atomic value, cast to STRING
  kInt,           // any numeric or string value, cast to INT
  kStringOrBinary // STRING or BINARY kept as is; other atomic values cast to STRING
};

/// Checks and casts the arguments of `call` for the parameters `params` (one per argument; the
/// call's argument count must already be checked). Wrong types give Spark's
/// DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE.
arrow::Result<std::vector<BoundExprPtr>> CoerceStringArguments(
    const CallSite& call, const std::vector<StringParam>& params);

/// A resolver for a function with `params` (the trailing `optional` of them may be left out),
/// returning `return_type`, whose kernel is built by `make_kernel` from the coerced call.
struct StringSignature {
  std::vector<StringParam> params;
  size_t optional = 0;
  std::string expected_count;  // Spark's wording of accepted counts, e.g. "[2, 3]"
};

/// Checks the count, coerces the arguments and fills a ResolvedCall with the usual null
/// propagation (nullable when any argument is).
arrow::Result<ResolvedCall> ResolveStringCall(const CallSite& call,
                                              const StringSignature& signature,
                                              std::shared_ptr<arrow::DataType> return_type);

/// The string value of constant argument `index`, or nullopt when it is not a non-null string
/// literal (a null literal sets *is_null when given).
std::optional<std::string> ConstantString(const CallSite& call, size_t index,
                                          bool* is_null = nullptr);

/// The integer value of constant argument `index` (any integer type), or nullopt.
std::optional<int64_t> ConstantInt(const CallSite& call, size_t index);

}  // namespace sluice::expr
