// A small HTTP/1.1 client for ddbd's own commands (`ddbd health`, `ddbd dump`, `ddbd load`) and
// the services it calls (S3, Kinesis, stream triggers' functions): one kept-alive connection to
// one endpoint, plain or TLS (OpenSSL), answers sized by Content-Length, chunked, or running to
// the connection's end.
// Beast stays in http_server.cc; this needs only sockets.
//
// Thread safety: one client per thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ddbd {

struct Endpoint {
  bool tls = false;
  std::string host;
  uint16_t port = 80;
  // "http://localhost:8000", "https://dynamodb.eu-west-1.amazonaws.com" (a path is ignored).
  static std::optional<Endpoint> Parse(std::string_view url);
  // The Host header's value: the port only when it is not the scheme's.
  std::string HostHeader() const;
};

struct HttpAnswer {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
};

class HttpClient {
 public:
  // `verify_tls`: check the server's certificate against the system's CAs and its name (off for
  // the health check, which asks the server on this host).
  HttpClient(Endpoint endpoint, bool verify_tls, int timeout_ms);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // From now on a call gives up (false, "cancelled") within about 50 ms of `*cancel` becoming
  // true, from any thread: a server stopping does not wait out a slow peer's timeout.
  void CancelWhen(const std::atomic<bool>* cancel);
  // Sends one request and reads its answer; a kept connection the server closed meanwhile is
  // opened again once. False with the reason in `problem`.
  bool Send(std::string_view method, std::string_view path,
            const std::vector<std::pair<std::string, std::string>>& headers, std::string_view body,
            HttpAnswer& answer, std::string& problem);

 private:
  class Connection;
  bool Exchange(const std::string& request, HttpAnswer& answer, std::string& problem);
  // A chunked body: `pending` holds what was read after the head; the decoded bytes go to `body`.
  bool ReadChunks(std::string& pending, std::string& body,
                  std::chrono::steady_clock::time_point deadline, std::string& problem);

  const Endpoint endpoint_;
  const bool verify_tls_;
  const int timeout_ms_;
  const std::atomic<bool>* cancel_ = nullptr;
  std::unique_ptr<Connection> connection_;
};

}  // namespace ddbd
