// The HTTP/1.1 front end: accepts connections, reads requests with a body limit and timeouts,
// hands each to the Router, writes the answer, keeps connections alive. Beast and Asio stay
// inside http_server.cc (one costly translation unit); this header is cheap to include.
//
// Thread safety: construct, Listen and Run on one thread; Stop may be called from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "server/router.h"

namespace ddbd {

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8000;  // 0 picks a free port
  unsigned threads = 1;
  size_t body_limit_bytes = 16 * 1024 * 1024;  // DynamoDB's request limit; larger: HTTP 413
  int64_t request_timeout_ms = 60'000;         // to receive one request, and to wait for the next
  int64_t shutdown_grace_ms = 10'000;          // how long in-flight requests may take on shutdown
  // The most connections open at once; more wait in the listen backlog until one closes.
  // 0: no limit.
  size_t max_connections = 0;
  // HTTPS: a PEM certificate chain and key. With them and no tls_port, --port serves HTTPS;
  // with tls_port (>= 0; 0 picks a free port), HTTPS is served there beside HTTP on --port.
  std::string tls_cert;
  std::string tls_key;
  int tls_port = -1;
  Metrics* metrics = nullptr;  // counts connections (null: not counted); outlives the server
  // The most bytes of answers waiting for clients to take them, all connections together; past
  // it the slowest readers are dropped (SessionRegistry). 0: no limit.
  size_t answer_budget_bytes = size_t{256} << 20;
  // Hands freed memory back to the operating system (main's allocator); called after a large
  // answer is written, at most once a second per thread. Empty: nothing.
  std::function<void()> release_memory;
};

class HttpServer {
 public:
  // `router` must outlive the server.
  HttpServer(ServerOptions options, const Router& router);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens (and loads the TLS certificate and key). False with a one-line reason in
  // `error` if the address is unusable or the certificate or key cannot be used.
  bool Listen(std::string& error);
  // The bound port (after Listen), and the HTTPS one beside it when there is one.
  uint16_t port() const;
  std::optional<uint16_t> tls_port() const;
  // Serves until SIGINT, SIGTERM or Stop(); requests already received are answered first.
  void Run();
  void Stop();

  // The engine's GroupCommitStart (engine/api/sync_policy.h). On a thread running the server's
  // loop, `start` is posted behind the handlers that loop has queued (the rest of the requests
  // read in this round: their writes join the same group commit); on any other thread it runs
  // now.
  static void AfterReadyWork(std::function<void()> start);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ddbd
