#include "sluice/server/web_ui_settings.h"

#include <algorithm>

#include "sluice/common/config_values.h"
#include "sluice/common/errors.h"

namespace sluice::server {

namespace {

constexpr const char* kEnabled = "spark.ui.enabled";
constexpr const char* kBindAddress = "spark.driver.bindAddress";
constexpr const char* kPort = "spark.ui.port";
constexpr const char* kMaxRetries = "spark.port.maxRetries";
constexpr const char* kShowConsoleProgress = "spark.ui.showConsoleProgress";
constexpr const char* kRetainedQueries = "spark.sql.streaming.ui.retainedQueries";
constexpr const char* kRetainedProgress = "spark.sql.streaming.ui.retainedProgressUpdates";

}  // namespace

arrow::Result<WebUiSettings> WebUiSettings::FromConfig(const SessionConfig& config) {
  WebUiSettings settings;
  ARROW_ASSIGN_OR_RAISE(settings.enabled, BoolConfigValue(config, kEnabled, false));
  settings.bind_address = config.Get(kBindAddress).value_or(settings.bind_address);
  ARROW_ASSIGN_OR_RAISE(int64_t port, IntConfigValue(config, kPort, 4040, 0));
  if (port > 65535) {
    return SparkError("INVALID_CONF_VALUE.TYPE_MISMATCH",
                      "The value '" + std::to_string(port) + "' in the config \"" + kPort +
                          "\" is invalid. It should be a port number: 0 to 65535.");
  }
  settings.port = static_cast<int32_t>(port);
  ARROW_ASSIGN_OR_RAISE(int64_t retries, IntConfigValue(config, kMaxRetries, 16, 0));
  settings.max_port_retries = static_cast<int32_t>(std::min<int64_t>(retries, 65535));
  ARROW_ASSIGN_OR_RAISE(settings.show_console_progress,
                        BoolConfigValue(config, kShowConsoleProgress, false));
  ARROW_ASSIGN_OR_RAISE(settings.retained_queries,
                        IntConfigValue(config, kRetainedQueries, 100, 1));
  ARROW_ASSIGN_OR_RAISE(settings.retained_progress_updates,
                        IntConfigValue(config, kRetainedProgress, 100, 1));
  return settings;
}

bool IsStaticWebUiSetting(const std::string& key) {
  return key == kEnabled || key == kBindAddress || key == kPort || key == kMaxRetries ||
         key == kShowConsoleProgress || key == kRetainedQueries || key == kRetainedProgress;
}

}  // namespace sluice::server
