// Typed reads of session settings, failing with Spark's INVALID_CONF_VALUE error that names the
// key, so every layer parses its settings the same way.
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/common/session_config.h"

namespace sluice {

/// The integer setting `key`, `default_value` when unset; an error when it is not an integer
/// or is below `minimum`.
arrow::Result<int64_t> IntConfigValue(const SessionConfig& config, const std::string& key,
                                      int64_t default_value, int64_t minimum);

/// The boolean setting `key` ("true" or "false"), `default_value` when unset.
arrow::Result<bool> BoolConfigValue(const SessionConfig& config, const std::string& key,
                                    bool default_value);

}  // namespace sluice
