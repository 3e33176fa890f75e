// A minimal HTTP/1.1 client for the web UI tests: one request per connection, every wait
// bounded, the response read until the server closes.
#pragma once

#include <string>

namespace sluice::testing {

struct HttpReply {
  /// 0 when no response came.
  int status = 0;
  std::string headers;
  std::string body;
};

/// Sends `method path` to 127.0.0.1:`port` and reads the whole response.
HttpReply HttpRequestTo(int port, const std::string& path, const std::string& method = "GET");

}  // namespace sluice::testing
