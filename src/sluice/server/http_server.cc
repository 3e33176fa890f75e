#include "sluice/server/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <string_view>
#include <vector>

namespace sluice::server {

namespace {

/// A request head larger than this is refused: the UI's requests are a few hundred bytes.
constexpr size_t kMaxRequestHeadBytes = 16 * 1024;
/// Connections beyond this wait in the listen backlog.
constexpr size_t kMaxConnections = 64;
/// A connection that has not sent its request head by then is closed.
constexpr auto kRequestTimeout = std::chrono::seconds(10);

using SteadyTime = std::chrono::steady_clock::time_point;

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 431:
      return "Request Header Fields Too Large";
    default:
      return "Internal Server Error";
  }
}

/// Writes the whole of `data`; the socket is blocking with a send timeout, so a client that
/// stops reading costs at most that timeout.
void SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return;
    data.remove_prefix(static_cast<size_t>(sent));
  }
}

void SendResponse(int fd, const HttpResponse& response, bool head_only) {
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " +
                     std::string(ReasonPhrase(response.status)) + "\r\n";
  head += "Content-Type: " + response.content_type + "\r\n";
  head += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n";
  if (response.status == 405) head += "Allow: GET, HEAD\r\n";
  head += "Connection: close\r\n\r\n";
  SendAll(fd, head);
  if (!head_only) SendAll(fd, response.body);
}

/// Parses the request line of a complete head ("GET /path?query HTTP/1.1").
bool ParseRequestLine(std::string_view head, HttpRequest* request) {
  size_t line_end = head.find("\r\n");
  std::string_view line = head.substr(0, line_end);
  size_t first_space = line.find(' ');
  if (first_space == std::string_view::npos) return false;
  size_t second_space = line.find(' ', first_space + 1);
  if (second_space == std::string_view::npos) return false;
  std::string_view target = line.substr(first_space + 1, second_space - first_space - 1);
  if (!line.substr(second_space + 1).starts_with("HTTP/1.")) return false;
  if (target.empty() || target.front() != '/') return false;
  request->method = std::string(line.substr(0, first_space));
  size_t question = target.find('?');
  request->path = std::string(target.substr(0, question));
  request->query =
      question == std::string_view::npos ? "" : std::string(target.substr(question + 1));
  return true;
}

/// Binds a listening socket to the first address of `address` at `port`; `bind_error` tells
/// why binding failed (EADDRINUSE: try the next port), 0 when it did not fail there.
arrow::Result<int> Listen(const std::string& address, int32_t port, int* bind_error) {
  *bind_error = 0;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  std::string service = std::to_string(port);
  int resolved = ::getaddrinfo(address.c_str(), service.c_str(), &hints, &found);
  if (resolved != 0) {
    return arrow::Status::IOError("the address does not resolve (spark.driver.bindAddress): ",
                                  ::gai_strerror(resolved));
  }
  int fd = ::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC, found->ai_protocol);
  if (fd < 0) {
    int error = errno;
    ::freeaddrinfo(found);
    return arrow::Status::IOError("no socket: ", std::strerror(error));
  }
  int on = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
  int bound = ::bind(fd, found->ai_addr, found->ai_addrlen);
  int error = errno;
  ::freeaddrinfo(found);
  if (bound != 0 || ::listen(fd, 64) != 0) {
    if (bound == 0) error = errno;
    ::close(fd);
    *bind_error = error;
    return arrow::Status::IOError(std::strerror(error));
  }
  return fd;
}

int32_t BoundPort(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  if (address.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port);
  }
  return ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

}  // namespace

arrow::Result<std::unique_ptr<HttpServer>> HttpServer::Start(const std::string& address,
                                                             int32_t port,
                                                             int32_t max_port_retries,
                                                             HttpHandler handler) {
  int listen_fd = -1;
  int32_t tried = port;
  std::string last_error;
  for (int32_t attempt = 0; attempt <= max_port_retries; ++attempt) {
    tried = port == 0 ? 0 : port + attempt;
    if (tried > 65535) break;
    int bind_error = 0;
    auto fd = Listen(address, tried, &bind_error);
    if (fd.ok()) {
      listen_fd = *fd;
      break;
    }
    if (bind_error != EADDRINUSE) {
      return arrow::Status::IOError("The web UI cannot listen on ", address, " at port ", tried,
                                    ": ", fd.status().message());
    }
    last_error = fd.status().message();
    if (port == 0) break;
  }
  if (listen_fd < 0) {
    return arrow::Status::IOError("The web UI cannot listen on ", address, " at ports ", port,
                                  " to ", tried, " (spark.ui.port, spark.port.maxRetries): ",
                                  last_error);
  }
  int wake[2];
  if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    int error = errno;
    ::close(listen_fd);
    return arrow::Status::IOError("The web UI cannot make its wake-up pipe: ",
                                  std::strerror(error));
  }
  ::fcntl(listen_fd, F_SETFL, O_NONBLOCK);
  auto server = std::unique_ptr<HttpServer>(
      new HttpServer(listen_fd, BoundPort(listen_fd), wake[0], wake[1], std::move(handler)));
  server->thread_ = std::thread([raw = server.get()] { raw->Serve(); });
  return server;
}

HttpServer::HttpServer(int listen_fd, int32_t port, int wake_read_fd, int wake_write_fd,
                       HttpHandler handler)
    : listen_fd_(listen_fd),
      port_(port),
      wake_read_fd_(wake_read_fd),
      wake_write_fd_(wake_write_fd),
      handler_(std::move(handler)) {}

HttpServer::~HttpServer() {
  stopping_.store(true);
  char byte = 0;
  (void)!::write(wake_write_fd_, &byte, 1);
  if (thread_.joinable()) thread_.join();
  ::close(listen_fd_);
  ::close(wake_read_fd_);
  ::close(wake_write_fd_);
}

void HttpServer::Serve() {
  struct Connection {
    std::string received;
    SteadyTime deadline;
  };
  std::map<int, Connection> connections;
  auto close_connection = [&connections](int fd) {
    ::close(fd);
    connections.erase(fd);
  };
  while (!stopping_.load()) {
    std::vector<pollfd> polled;
    polled.push_back({wake_read_fd_, POLLIN, 0});
    if (connections.size() < kMaxConnections) polled.push_back({listen_fd_, POLLIN, 0});
    for (const auto& [fd, connection] : connections) polled.push_back({fd, POLLIN, 0});
    if (::poll(polled.data(), polled.size(), 1000) < 0 && errno != EINTR) break;
    if (stopping_.load()) break;
    auto now = std::chrono::steady_clock::now();
    for (const pollfd& entry : polled) {
      if (entry.fd == wake_read_fd_ || entry.revents == 0) continue;
      if (entry.fd == listen_fd_) {
        int client = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0) continue;
        timeval send_timeout{5, 0};
        ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
        connections[client] = Connection{"", now + kRequestTimeout};
        continue;
      }
      Connection& connection = connections[entry.fd];
      char buffer[4096];
      ssize_t received = ::recv(entry.fd, buffer, sizeof(buffer), MSG_DONTWAIT);
      if (received <= 0) {
        if (received < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        close_connection(entry.fd);
        continue;
      }
      connection.received.append(buffer, static_cast<size_t>(received));
      size_t head_end = connection.received.find("\r\n\r\n");
      if (head_end == std::string::npos) {
        if (connection.received.size() > kMaxRequestHeadBytes) {
          SendResponse(entry.fd, {431, "text/plain; charset=utf-8", "Request too large\n"},
                       false);
          close_connection(entry.fd);
        }
        continue;
      }
      HttpRequest request;
      HttpResponse response;
      bool head_only = false;
      if (!ParseRequestLine(connection.received, &request)) {
        response = {400, "text/plain; charset=utf-8", "Bad request\n"};
      } else if (request.method != "GET" && request.method != "HEAD") {
        response = {405, "text/plain; charset=utf-8", "Only GET and HEAD are served\n"};
      } else {
        head_only = request.method == "HEAD";
        response = handler_(request);
      }
      SendResponse(entry.fd, response, head_only);
      close_connection(entry.fd);
    }
    for (auto it = connections.begin(); it != connections.end();) {
      if (it->second.deadline < now) {
        ::close(it->first);
        it = connections.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& [fd, connection] : connections) ::close(fd);
}

}  // namespace sluice::server
