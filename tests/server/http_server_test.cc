// The web UI's HTTP server over real sockets.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "sluice/server/http_server.h"
#include "support/http_get.h"

namespace sluice::server {
namespace {

using testing::HttpRequestTo;

HttpHandler EchoHandler() {
  return [](const HttpRequest& request) {
    return HttpResponse{200, "text/plain", request.method + " " + request.path + " ? " +
                                               request.query};
  };
}

TEST(HttpServerTest, AnswersGetWithTheHandlersBodyAndHeadWithoutIt) {
  auto server = HttpServer::Start("127.0.0.1", 0, 0, EchoHandler());
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto get = HttpRequestTo((*server)->port(), "/api/v1/queries?x=1");
  EXPECT_EQ(get.status, 200);
  EXPECT_EQ(get.body, "GET /api/v1/queries ? x=1");
  EXPECT_NE(get.headers.find("Content-Length: 25"), std::string::npos) << get.headers;
  EXPECT_NE(get.headers.find("Connection: close"), std::string::npos);
  auto head = HttpRequestTo((*server)->port(), "/", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
}

TEST(HttpServerTest, RefusesOtherMethodsAndMalformedRequests) {
  auto server = HttpServer::Start("127.0.0.1", 0, 0, EchoHandler());
  ASSERT_TRUE(server.ok());
  auto post = HttpRequestTo((*server)->port(), "/metrics", "POST");
  EXPECT_EQ(post.status, 405);
  EXPECT_NE(post.headers.find("Allow: GET, HEAD"), std::string::npos);
  auto no_slash = HttpRequestTo((*server)->port(), "metrics");
  EXPECT_EQ(no_slash.status, 400);
}

TEST(HttpServerTest, AClientThatSaysNothingDoesNotHoldUpOthers) {
  auto server = HttpServer::Start("127.0.0.1", 0, 0, EchoHandler());
  ASSERT_TRUE(server.ok());
  int silent = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>((*server)->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(silent, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  // Half a request, then nothing, as a stalled client would do.
  send(silent, "GET / HT", 8, MSG_NOSIGNAL);
  auto reply = HttpRequestTo((*server)->port(), "/after");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "GET /after ? ");
  close(silent);
}

TEST(HttpServerTest, MovesToTheNextPortWhenOneIsTaken) {
  auto first = HttpServer::Start("127.0.0.1", 0, 0, EchoHandler());
  ASSERT_TRUE(first.ok());
  int taken = (*first)->port();
  auto refused = HttpServer::Start("127.0.0.1", taken, 0, EchoHandler());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(std::to_string(taken)), std::string::npos)
      << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("spark.ui.port"), std::string::npos);
  auto next = HttpServer::Start("127.0.0.1", taken, 16, EchoHandler());
  if (!next.ok()) GTEST_SKIP() << "the following ports are taken too";
  EXPECT_GT((*next)->port(), taken);
  EXPECT_EQ(HttpRequestTo((*next)->port(), "/x").status, 200);
}

TEST(HttpServerTest, AnAddressThatDoesNotResolveIsNamed) {
  auto server = HttpServer::Start("no-such-host.invalid", 0, 0, EchoHandler());
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.status().message().find("no-such-host.invalid"), std::string::npos);
  EXPECT_NE(server.status().message().find("spark.driver.bindAddress"), std::string::npos);
}

}  // namespace
}  // namespace sluice::server
