#include "sluice/common/config_values.h"

#include <charconv>

#include "sluice/common/errors.h"

namespace sluice {

arrow::Result<int64_t> IntConfigValue(const SessionConfig& config, const std::string& key,
                                      int64_t default_value, int64_t minimum) {
  auto text = config.Get(key);
  if (!text) return default_value;
  int64_t value = 0;
  auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < minimum) {
    return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                      "The value '" + *text + "' in the config \"" + key +
                          "\" is invalid. It should be an integer of at least " +
                          std::to_string(minimum) + ".");
  }
  return value;
}

arrow::Result<bool> BoolConfigValue(const SessionConfig& config, const std::string& key,
                                    bool default_value) {
  auto text = config.Get(key);
  if (!text) return default_value;
  if (*text == "true") return true;
  if (*text == "false") return false;
  return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                    "The value '" + *text + "' in the config \"" + key +
                        "\" is invalid. It should be a boolean: true or false.");
}

}  // namespace sluice
