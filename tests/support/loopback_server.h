// A real TCP server on the loopback interface for the socket source tests: one connection at
// a time, on a port the system picks, every wait bounded.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include <gtest/gtest.h>

namespace sluice::testing {

/// Listens on 127.0.0.1 from construction; closes everything when it goes.
class LoopbackServer {
 public:
  /// `patience`: how long Accept and PeerClosed wait before giving up.
  explicit LoopbackServer(std::chrono::milliseconds patience = std::chrono::seconds(10))
      : patience_ms_(static_cast<int>(patience.count())) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    EXPECT_EQ(bind(listener_, reinterpret_cast<sockaddr*>(&address), length), 0);
    EXPECT_EQ(listen(listener_, 1), 0);
    EXPECT_EQ(getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length), 0);
    port_ = ntohs(address.sin_port);
  }
  ~LoopbackServer() {
    CloseConnection();
    if (listener_ >= 0) close(listener_);
  }
  LoopbackServer(const LoopbackServer&) = delete;
  LoopbackServer& operator=(const LoopbackServer&) = delete;

  int port() const { return port_; }

  /// Waits for the source to connect; false if it did not in time.
  bool Accept() {
    pollfd ready{listener_, POLLIN, 0};
    if (poll(&ready, 1, patience_ms_) != 1) return false;
    connection_ = accept(listener_, nullptr, nullptr);
    return connection_ >= 0;
  }
  /// Sends `bytes` on the accepted connection; false if they did not all go.
  bool Send(const std::string& bytes) {
    return send(connection_, bytes.data(), bytes.size(), 0) ==
           static_cast<ssize_t>(bytes.size());
  }
  /// Closes the accepted connection (the source sees the end of the stream).
  void CloseConnection() {
    if (connection_ >= 0) close(connection_);
    connection_ = -1;
  }
  /// True once the peer closed its end (recv sees the end of the stream) within the patience.
  bool PeerClosed() {
    pollfd ready{connection_, POLLIN, 0};
    if (poll(&ready, 1, patience_ms_) != 1) return false;
    char byte;
    return recv(connection_, &byte, 1, 0) == 0;
  }

 private:
  int patience_ms_;
  int listener_ = -1;
  int connection_ = -1;
  int port_ = 0;
};

}  // namespace sluice::testing
