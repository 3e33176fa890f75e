// The web UI's one page: HTML, CSS and script in a single response, with no external resource,
// so it works offline. Its script reads the JSON API and draws Spark's streaming-tab charts.
#pragma once

#include <string_view>

namespace sluice::server {

/// The page for "/" (the list of queries) and "/query?id=<runId>" (one run's charts and last
/// progress report); the script picks the view from the path.
std::string_view WebUiPage();

}  // namespace sluice::server
