#include "support/http_get.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace sluice::testing {

HttpReply HttpRequestTo(int port, const std::string& path, const std::string& method) {
  HttpReply reply;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return reply;
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return reply;
  }
  std::string request = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[8192];
  ssize_t received;
  while ((received = recv(fd, buffer, sizeof(buffer), 0)) > 0) {
    response.append(buffer, static_cast<size_t>(received));
  }
  close(fd);
  size_t head_end = response.find("\r\n\r\n");
  if (!response.starts_with("HTTP/1.1 ") || head_end == std::string::npos) return reply;
  reply.status = std::atoi(response.c_str() + 9);
  reply.headers = response.substr(0, head_end);
  reply.body = response.substr(head_end + 4);
  return reply;
}

}  // namespace sluice::testing
