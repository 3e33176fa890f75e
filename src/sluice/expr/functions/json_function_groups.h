#pragma once

// The JSON functions come in files of their own; RegisterJsonFunctions calls them all. Also the
// reading of the options argument they share.

#include <map>
#include <string>

#include <arrow/result.h>

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

/// to_json (json_to_json.cc).
void RegisterToJson(FunctionRegistry& registry);

/// The constant options map at argument `index` (map('k', 'v', ...)), keys as written; an
/// argument that is not a constant map of strings is Spark's INVALID_OPTIONS error.
arrow::Result<std::map<std::string, std::string>> JsonOptionsArgument(const CallSite& call,
                                                                      size_t index);

}  // namespace sluice::expr
