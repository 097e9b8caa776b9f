// The tools' HTTP client (server/tools/http_client.h) against a one-answer server on a thread of
// its own: a chunked answer (an extension, a trailer) decoded; a length-sized one; broken chunked
// answers refused, never read past; and a call cancelled from another thread giving up at once.
#include "server/tools/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace ddbd {
namespace {

// Listens on a free loopback port; Serve answers one request with `answer` (then closes), or
// holds the connection open without answering when `answer` is empty, until Stop.
class OneAnswer {
 public:
  OneAnswer() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t length = sizeof address;
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) == 0);
    port_ = ntohs(address.sin_port);
    REQUIRE(::listen(listener_, 1) == 0);
  }
  ~OneAnswer() {
    if (thread_.joinable()) thread_.join();
    ::close(listener_);
  }
  void Serve(std::string answer) {
    thread_ = std::thread([this, answer = std::move(answer)] {
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) return;
      std::string request;
      char buffer[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        request.append(buffer, static_cast<size_t>(n));
      }
      if (answer.empty()) {
        std::this_thread::sleep_for(std::chrono::seconds(3));  // no answer
      } else {
        (void)::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL);
      }
      ::close(fd);
    });
  }
  // Answers `count` requests on one kept connection, each with `answer(index)` (empty: holds
  // the connection without answering for a second, then closes it), then accepts nothing more.
  void ServeMany(std::function<std::string(int)> answer, int count) {
    thread_ = std::thread([this, answer = std::move(answer), count] {
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) return;
      std::string request;
      char buffer[4096];
      for (int index = 0; index < count; ++index) {
        size_t end;
        while ((end = request.find("\r\n\r\n")) == std::string::npos) {
          const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
          if (n <= 0) break;
          request.append(buffer, static_cast<size_t>(n));
        }
        if (end == std::string::npos) break;
        request.erase(0, end + 4 + 2);  // the head and its "{}" body
        const std::string text = answer(index);
        if (text.empty()) {
          std::this_thread::sleep_for(std::chrono::seconds(1));
          break;
        }
        (void)::send(fd, text.data(), text.size(), MSG_NOSIGNAL);
      }
      ::close(fd);
      // A second connection would be a request sent again: accept for a moment, count it.
      pollfd ready{listener_, POLLIN, 0};
      if (::poll(&ready, 1, 300) == 1) {
        const int again = ::accept(listener_, nullptr, nullptr);
        if (again >= 0) {
          (void)answer(count);
          ::close(again);
        }
      }
    });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }
  Endpoint endpoint() const { return Endpoint{false, "127.0.0.1", port_}; }

 private:
  int listener_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
};

bool Ask(OneAnswer& server, HttpAnswer& answer, std::string& problem) {
  HttpClient client(server.endpoint(), false, 5'000);
  return client.Send("POST", "/", {{"Content-Type", "application/json"}}, "{}", answer, problem);
}

TEST_CASE("A chunked answer is decoded: extensions, trailers, chunks across reads") {
  OneAnswer server;
  server.Serve(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Amz-Function-Error: Unhandled\r\n\r\n"
      "7;x=1\r\n{\"batch\r\n"
      "A\r\nItemFailur\r\n"
      "6\r\nes\":[]\r\n"
      "1\r\n}\r\n"
      "0\r\nX-Trailer: 1\r\n\r\n");
  HttpAnswer answer;
  std::string problem;
  REQUIRE(Ask(server, answer, problem));
  CHECK(answer.status == 200);
  CHECK(answer.body == R"({"batchItemFailures":[]})");
  CHECK(answer.headers.at(1) ==
        std::pair<std::string, std::string>{"x-amz-function-error", "Unhandled"});
}

TEST_CASE("A length-sized answer and one running to the connection's end") {
  OneAnswer sized;
  sized.Serve("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\nboomTRAILING");
  HttpAnswer answer;
  std::string problem;
  REQUIRE(Ask(sized, answer, problem));
  CHECK(answer.status == 500);
  CHECK(answer.body == "boom");
  OneAnswer unsized;
  unsized.Serve("HTTP/1.0 200 OK\r\n\r\nall of it");
  REQUIRE(Ask(unsized, answer, problem));
  CHECK(answer.body == "all of it");
}

TEST_CASE("Broken chunked answers are refused") {
  const std::string head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
  const std::vector<std::pair<std::string, std::string>> broken = {
      {"zz\r\nabc\r\n0\r\n\r\n", "a broken chunked answer from 127.0.0.1:"},
      {"3\r\nabcX\r\n0\r\n\r\n", "a broken chunked answer from 127.0.0.1:"},    // no CRLF after
      {"10\r\nshort", "a broken chunked answer from 127.0.0.1:"},               // cut short
      {"3\r\nabc\r\n", "a broken chunked answer from 127.0.0.1:"},              // no last chunk
      {"ffffffffffffffffffff\r\n", "a broken chunked answer from 127.0.0.1:"},  // out of range
      {"4000001\r\n", "an answer of more than 64 MiB from 127.0.0.1:"},
      {std::string(5000, '1'), "a broken chunked answer from 127.0.0.1:"},  // an endless size line
  };
  for (const auto& [body, why] : broken) {
    INFO(body.substr(0, 40));
    OneAnswer server;
    server.Serve(head + body);
    HttpAnswer answer;
    std::string problem;
    CHECK_FALSE(Ask(server, answer, problem));
    CHECK(problem.starts_with(why));
  }
  OneAnswer gzip;
  gzip.Serve("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n");
  HttpAnswer answer;
  std::string problem;
  CHECK_FALSE(Ask(gzip, answer, problem));
  CHECK(problem.find("in transfer encoding gzip") != std::string::npos);
}

TEST_CASE("A call cancelled from another thread gives up at once") {
  OneAnswer server;
  server.Serve("");  // never answers
  std::atomic<bool> cancel = false;
  HttpClient client(server.endpoint(), false, 30'000);
  client.CancelWhen(&cancel);
  std::thread canceller([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  const auto started = std::chrono::steady_clock::now();
  HttpAnswer answer;
  std::string problem;
  CHECK_FALSE(client.Send("POST", "/", {}, "{}", answer, problem));
  const auto waited = std::chrono::steady_clock::now() - started;
  canceller.join();
  CHECK(waited < std::chrono::seconds(2));
  // Cancelled before it starts: not even a connection.
  CHECK_FALSE(client.Send("POST", "/", {}, "{}", answer, problem));
  CHECK(problem == "cancelled");
}

TEST_CASE("A request that timed out is not sent again on a new connection") {
  // A kept connection (the first answer), then a request the server takes and never answers:
  // after the timeout the client gives up rather than sending it again (a function would run
  // twice).
  OneAnswer server;
  std::atomic<int> requests = 0;
  server.ServeMany(
      [&requests](int index) {
        ++requests;
        return index == 0 ? std::string("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                          : std::string();
      },
      2);
  HttpClient client(server.endpoint(), false, 300);
  HttpAnswer answer;
  std::string problem;
  REQUIRE(client.Send("POST", "/", {}, "{}", answer, problem));
  CHECK_FALSE(client.Send("POST", "/", {}, "{}", answer, problem));
  server.Join();
  CHECK(requests == 2);
}

}  // namespace
}  // namespace ddbd
