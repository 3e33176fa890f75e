// The settings of the web UI, its metrics endpoint and the console progress bar, read once when a session starts (Spark's
// names where Spark has the setting; Sluice binds to the loopback address unless told).
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/common/session_config.h"

namespace sluice::server {

/// Typed web UI settings with their defaults. A value.
struct WebUiSettings {
  /// spark.ui.enabled: off by default, so a program never opens a port unasked.
  bool enabled = false;
  /// spark.driver.bindAddress: the address the UI listens on; the loopback address by default,
  /// so only this machine reaches it.
  std::string bind_address = "127.0.0.1";
  /// spark.ui.port: the first port tried; 0 takes any free port.
  int32_t port = 4040;
  /// spark.port.maxRetries: how many following ports are tried when one is taken, as Spark
  /// moves from 4040 to 4041.
  int32_t max_port_retries = 16;
  /// spark.ui.showConsoleProgress: a progress bar on standard error, when it is a terminal,
  /// for queries working through a backlog. Off by default, as in Spark outside its shells.
  bool show_console_progress = false;
  /// spark.sql.streaming.ui.retainedQueries: finished queries kept for the UI.
  int64_t retained_queries = 100;
  /// spark.sql.streaming.ui.retainedProgressUpdates: progress reports kept per query.
  int64_t retained_progress_updates = 100;

  /// Reads the settings; an invalid value fails naming its key.
  static arrow::Result<WebUiSettings> FromConfig(const SessionConfig& config);
};

/// True for the settings read only when the session starts (a later change has no effect, so
/// RuntimeConfig refuses it as Spark refuses to change its core settings).
bool IsStaticWebUiSetting(const std::string& key);

}  // namespace sluice::server
