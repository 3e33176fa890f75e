// The web UI of a session: its HTTP server, the history of its queries, and the routes.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>

#include "sluice/execution/query_manager.h"
#include "sluice/server/web_ui_settings.h"

namespace sluice::server {

class HttpServer;
class QueryHistory;
struct HttpRequest;
struct HttpResponse;

/// Serves, while it lives:
///   /                        the list of active and completed queries (HTML)
///   /query?id=<runId>        one run's charts and last progress report (HTML)
///   /api/v1/queries          the runs as JSON
///   /api/v1/queries/<runId>  one run with its retained progress reports as JSON
///   /metrics                 Prometheus text format
/// It learns about queries only through a listener on the session's query manager, added at
/// Start and removed when the WebUi is destroyed.
class WebUi {
 public:
  /// Starts listening as `settings` say and follows the queries of `streams`.
  static arrow::Result<std::unique_ptr<WebUi>> Start(
      const WebUiSettings& settings, std::shared_ptr<execution::StreamingQueryManager> streams);
  ~WebUi();

  /// "http://<address>:<port>", as PySpark's SparkContext.uiWebUrl.
  const std::string& url() const { return url_; }

 private:
  WebUi(std::shared_ptr<execution::StreamingQueryManager> streams,
        std::shared_ptr<QueryHistory> history);
  HttpResponse Answer(const HttpRequest& request) const;

  std::shared_ptr<execution::StreamingQueryManager> streams_;
  std::shared_ptr<QueryHistory> history_;
  std::unique_ptr<HttpServer> server_;
  std::string url_;
};

}  // namespace sluice::server
