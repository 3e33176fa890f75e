#include "sluice/server/web_ui.h"

#include <string_view>

#include "sluice/server/http_server.h"
#include "sluice/server/prometheus_metrics.h"
#include "sluice/server/query_api_json.h"
#include "sluice/server/query_history.h"
#include "sluice/server/web_ui_page.h"

namespace sluice::server {

namespace {

constexpr std::string_view kRunPrefix = "/api/v1/queries/";
constexpr const char* kJson = "application/json";

HttpResponse NotFound(std::string message) {
  return {404, "text/plain; charset=utf-8", std::move(message) + "\n"};
}

/// A literal IPv6 address goes in brackets in a URL.
std::string UrlHost(const std::string& address) {
  return address.find(':') == std::string::npos ? address : "[" + address + "]";
}

}  // namespace

arrow::Result<std::unique_ptr<WebUi>> WebUi::Start(
    const WebUiSettings& settings, std::shared_ptr<execution::StreamingQueryManager> streams) {
  auto history = std::make_shared<QueryHistory>(settings.retained_queries,
                                                settings.retained_progress_updates);
  auto ui = std::unique_ptr<WebUi>(new WebUi(streams, history));
  const WebUi* raw = ui.get();
  ARROW_ASSIGN_OR_RAISE(
      ui->server_,
      HttpServer::Start(settings.bind_address, settings.port, settings.max_port_retries,
                        [raw](const HttpRequest& request) { return raw->Answer(request); }));
  ui->url_ = "http://" + UrlHost(settings.bind_address) + ":" + std::to_string(ui->server_->port());
  streams->addListener(history);
  return ui;
}

WebUi::WebUi(std::shared_ptr<execution::StreamingQueryManager> streams,
             std::shared_ptr<QueryHistory> history)
    : streams_(std::move(streams)), history_(std::move(history)) {}

WebUi::~WebUi() {
  // The server goes first: its thread may be answering from the history.
  server_.reset();
  streams_->removeListener(history_);
}

HttpResponse WebUi::Answer(const HttpRequest& request) const {
  const std::string& path = request.path;
  if (path == "/" || path == "/query") {
    return {200, "text/html; charset=utf-8", std::string(WebUiPage())};
  }
  if (path == "/metrics") {
    return {200, kPrometheusContentType, PrometheusMetricsText(history_->Runs())};
  }
  if (path == "/api/v1/queries") {
    return {200, kJson, QueryRunsJson(history_->Runs())};
  }
  if (path.starts_with(kRunPrefix)) {
    std::string run_id = path.substr(kRunPrefix.size());
    auto run = history_->FindRun(run_id);
    if (!run) return NotFound("No query run " + run_id + " is known to this session.");
    return {200, kJson, QueryRunJson(*run)};
  }
  return NotFound("Nothing is served at " + path + ".");
}

}  // namespace sluice::server
