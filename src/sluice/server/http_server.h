// A small HTTP/1.1 server for the web UI and the metrics endpoint: no dependency beyond POSIX
// sockets, so the UI works on a machine without internet or extra packages.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::server {

/// A request as the handler sees it: method, path and query string (without the '?'), as
/// sent (not percent-decoded).
struct HttpRequest {
  std::string method;
  std::string path;
  std::string query;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

/// Answers requests; called on the server's thread, one request at a time.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

/// Serves GET and HEAD requests on one thread that multiplexes its connections with poll(), so
/// a client that connects and says nothing (a browser's pre-connection) never holds up the
/// others. Every response closes its connection. Answers are expected to be built from memory
/// quickly: a slow handler delays every client.
class HttpServer {
 public:
  /// Listens on `address` (a numeric IPv4/IPv6 address or a host name) at `port`, or at the
  /// next of `max_port_retries` ports when it is taken (port 0 takes any free port), and starts
  /// serving. An error names the address and the ports tried.
  static arrow::Result<std::unique_ptr<HttpServer>> Start(const std::string& address,
                                                          int32_t port, int32_t max_port_retries,
                                                          HttpHandler handler);
  /// Stops serving and closes every connection; returns once the thread has ended.
  ~HttpServer();

  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  /// The port listened on.
  int32_t port() const { return port_; }

 private:
  HttpServer(int listen_fd, int32_t port, int wake_read_fd, int wake_write_fd,
             HttpHandler handler);
  void Serve();

  int listen_fd_;
  int32_t port_;
  int wake_read_fd_;
  int wake_write_fd_;
  HttpHandler handler_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace sluice::server
