// The HTTP front end with a stand-in handler: an answer that completes later, from another
// thread, does not hold up the I/O thread that read its request.
#include "server/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ddbd {
namespace {

using Clock = std::chrono::steady_clock;

// Target "slow" answers from a thread of its own 300 ms later; any other at once.
class DeferringHandler final : public RequestHandler {
 public:
  ~DeferringHandler() override {
    std::lock_guard lock(mutex_);
    for (std::thread& thread : threads_) thread.join();
  }
  DispatchResult Handle(std::string_view target, std::string_view body,
                        const RequestInfo&) const override {
    return {200, std::string(target) + ":" + std::string(body)};
  }
  void HandleAsync(std::string_view target, std::string body, const RequestInfo& info,
                   const DispatchDone& done) const override {
    if (target != "slow") return done(Handle(target, body, info));
    // The body is the handler's: read on the other thread, as a later completion would.
    std::lock_guard lock(mutex_);
    threads_.emplace_back([done, target, body = std::move(body)] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      done({200, std::string(target) + ":" + std::string(body)});
    });
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<std::thread> threads_;
};

int Connect(uint16_t port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0);
  return fd;
}

void Send(int fd, const std::string& target, const std::string& body) {
  const std::string request =
      "POST / HTTP/1.1\r\nHost: test\r\nContent-Type: "
      "application/x-amz-json-1.0\r\nX-Amz-Target: " +
      target + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  REQUIRE(write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size()));
}

// Reads one answer; returns its body.
std::string ReceiveBody(int fd) {
  std::string received;
  char chunk[4096];
  while (true) {
    const size_t end = received.find("\r\n\r\n");
    if (end != std::string::npos) {
      const size_t length_at = received.find("Content-Length: ");
      REQUIRE(length_at != std::string::npos);
      const size_t length = std::stoul(received.substr(length_at + 16));
      if (received.size() >= end + 4 + length) return received.substr(end + 4, length);
    }
    const ssize_t n = read(fd, chunk, sizeof(chunk));
    REQUIRE(n > 0);
    received.append(chunk, static_cast<size_t>(n));
  }
}

TEST_CASE("An answer that completes later leaves the I/O thread serving others") {
  DeferringHandler handler;
  Router router{handler, {}};
  ServerOptions options;
  options.port = 0;
  options.threads = 1;  // one I/O thread: a blocked one would hold up the second connection
  HttpServer server(options, router);
  std::string error;
  REQUIRE(server.Listen(error));
  std::thread serving([&server] { server.Run(); });

  const int slow = Connect(server.port());
  const int fast = Connect(server.port());
  const auto start = Clock::now();
  Send(slow, "slow", "{\"a\":1}");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the slow request is read first
  Send(fast, "fast", "{}");
  CHECK(ReceiveBody(fast) == "fast:{}");
  CHECK(Clock::now() - start < std::chrono::milliseconds(250));
  CHECK(ReceiveBody(slow) == "slow:{\"a\":1}");
  CHECK(Clock::now() - start >= std::chrono::milliseconds(300));
  // The connection that waited is kept alive and serves its next request.
  Send(slow, "again", "{}");
  CHECK(ReceiveBody(slow) == "again:{}");
  close(slow);
  close(fast);
  server.Stop();
  serving.join();
}

}  // namespace
}  // namespace ddbd
