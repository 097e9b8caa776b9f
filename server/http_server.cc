#include "server/http_server.h"

#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <boost/asio/ssl/context.hpp>
#include <csignal>
#include <optional>
#include <thread>
#include <vector>

#include "server/deadline.h"
#include "server/http_session.h"
#include "server/session_registry.h"
#include "server/tls_context.h"

namespace ddbd {
namespace {

namespace net = boost::asio;

}  // namespace

struct HttpServer::Impl {
  Impl(ServerOptions server_options, const Router& server_router)
      : options(std::move(server_options)),
        router(server_router),
        contexts(MakeContexts(options.threads)),
        io(*contexts.front()),
        acceptor(io),
        tls_acceptor(io),
        signals(io, SIGINT, SIGTERM),
        grace_timer(io),
        sweep_timer(io) {
    registry.on_removed = [this] { OnSessionClosed(); };
    registry.metrics = options.metrics;
    registry.answer_budget_bytes = options.answer_budget_bytes;
  }

  static std::vector<std::unique_ptr<net::io_context>> MakeContexts(unsigned threads) {
    std::vector<std::unique_ptr<net::io_context>> made;
    // Concurrency hint 1: each context is run by one thread only.
    for (unsigned i = 0; i < std::max(1u, threads); ++i) {
      made.push_back(std::make_unique<net::io_context>(1));
    }
    return made;
  }

  // Accepts on `listener`: the API port (HTTPS when main_tls), or the --tls-port one.
  void Accept(bool tls_listener) {
    net::ip::tcp::acceptor& listener = tls_listener ? tls_acceptor : acceptor;
    const bool tls = tls_listener || main_tls;
    // Connections go to the threads in turn.
    net::io_context& owner = *contexts[next_context++ % contexts.size()];
    listener.async_accept(owner.get_executor(), [this, tls_listener, tls, &listener](
                                                    boost::system::error_code ec, Socket socket) {
      if (ec) {
        if (listener.is_open()) Accept(tls_listener);
        return;
      }
      boost::system::error_code ignored;
      socket.set_option(net::ip::tcp::no_delay(true), ignored);  // answers are small: send them now
      auto on_last_closed = [this] {
        net::post(io, [this] {
          grace_timer.cancel();
          sweep_timer.cancel();
        });
      };
      StartSession(std::move(socket), tls ? &*tls_context : nullptr, router, options, registry,
                   std::move(on_last_closed));
      if (AtConnectionLimit(tls_listener)) return;  // the next accept waits for a close
      Accept(tls_listener);
    });
  }

  // --max-connections: true if accepting on that listener is paused. Checked again after
  // pausing, so a session that closed meanwhile cannot leave it paused with room to spare.
  bool AtConnectionLimit(bool tls_listener) {
    if (options.max_connections == 0 || registry.Size() < options.max_connections) return false;
    std::atomic<bool>& paused = accept_paused[tls_listener ? 1 : 0];
    paused = true;
    if (registry.Size() >= options.max_connections || !paused.exchange(false)) return true;
    return false;
  }

  // A session closed (on its thread): resume accepting where the limit had paused it.
  void OnSessionClosed() {
    for (int listener = 0; listener < 2; ++listener) {
      if (!accept_paused[listener].exchange(false)) continue;
      net::post(io, [this, listener] {
        net::ip::tcp::acceptor& which = listener == 1 ? tls_acceptor : acceptor;
        if (!stopping && which.is_open()) Accept(listener == 1);
      });
    }
  }

  // On the first context's thread.
  void BeginShutdown() {
    if (stopping.exchange(true)) return;
    spdlog::info("shutting down: finishing requests in flight");
    boost::system::error_code ignored;
    acceptor.close(ignored);
    tls_acceptor.close(ignored);
    signals.cancel(ignored);
    for (auto& guard : idle_guards) guard.reset();  // threads end with their last connection
    for (auto& session : registry.Live()) session->StopWhenIdle();
    if (registry.Empty()) {
      sweep_timer.cancel();
      return;
    }
    grace_timer.expires_after(std::chrono::milliseconds(options.shutdown_grace_ms));
    grace_timer.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      for (auto& context : contexts) context->stop();  // grace period over: drop what is left
    });
  }

  // Closes the connections whose deadline has passed (server/deadline.h), every sweep period,
  // until shutdown has seen the last connection close.
  void Sweep() {
    sweep_timer.expires_after(std::chrono::milliseconds(SweepPeriodMs(options.request_timeout_ms)));
    sweep_timer.async_wait([this](boost::system::error_code ec) {
      if (ec) return;
      for (auto& session : registry.Expired(CoarseNowNs())) session->TimeOut();
      if (stopping && registry.Empty()) return;
      Sweep();
    });
  }

  ServerOptions options;
  const Router& router;
  std::vector<std::unique_ptr<net::io_context>> contexts;  // one per I/O thread
  net::io_context& io;  // the first: also accepts, handles signals and shutdown
  // Keep the other threads' contexts running while they have no connection.
  std::vector<net::executor_work_guard<Executor>> idle_guards;
  size_t next_context = 0;
  net::ip::tcp::acceptor acceptor;               // --port: HTTP, or HTTPS when main_tls
  net::ip::tcp::acceptor tls_acceptor;           // --tls-port: HTTPS beside HTTP
  std::optional<net::ssl::context> tls_context;  // with --tls-cert and --tls-key
  bool main_tls = false;
  net::signal_set signals;
  net::steady_timer grace_timer;
  net::steady_timer sweep_timer;
  SessionRegistry registry;
  std::atomic<bool> stopping{false};
  std::atomic<bool> accept_paused[2] = {false, false};  // per listener, at --max-connections
};

HttpServer::HttpServer(ServerOptions options, const Router& router)
    : impl_(std::make_unique<Impl>(std::move(options), router)) {}

HttpServer::~HttpServer() = default;

namespace {

bool Bind(net::ip::tcp::acceptor& acceptor, const net::ip::address& address, uint16_t port,
          const std::string& host, std::string& error) {
  boost::system::error_code ec;
  const net::ip::tcp::endpoint endpoint(address, port);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (!ec) return true;
  error = "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message();
  return false;
}

}  // namespace

bool HttpServer::Listen(std::string& error) {
  boost::system::error_code ec;
  const auto address = net::ip::make_address(impl_->options.host, ec);
  if (ec) {
    error = "--host: '" + impl_->options.host + "' is not an IP address";
    return false;
  }
  const ServerOptions& options = impl_->options;
  if (!options.tls_cert.empty()) {
    impl_->tls_context.emplace(net::ssl::context::tls_server);
    if (!ConfigureServerTls(impl_->tls_context->native_handle(), options.tls_cert, options.tls_key,
                            error))
      return false;
    impl_->main_tls = options.tls_port < 0;
  }
  if (!Bind(impl_->acceptor, address, options.port, options.host, error)) return false;
  if (options.tls_port >= 0 && !options.tls_cert.empty()) {
    return Bind(impl_->tls_acceptor, address, static_cast<uint16_t>(options.tls_port), options.host,
                error);
  }
  return true;
}

uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }

std::optional<uint16_t> HttpServer::tls_port() const {
  if (!impl_->tls_acceptor.is_open()) return std::nullopt;
  return impl_->tls_acceptor.local_endpoint().port();
}

namespace {

// The loop the calling thread runs (HttpServer::Run), for AfterReadyWork.
thread_local net::io_context* running_loop = nullptr;

void RunLoop(net::io_context& loop) {
  running_loop = &loop;
  loop.run();
  running_loop = nullptr;
}

}  // namespace

void HttpServer::AfterReadyWork(std::function<void()> start) {
  if (running_loop == nullptr) return start();
  net::post(*running_loop, std::move(start));
}

void HttpServer::Run() {
  impl_->signals.async_wait([this](boost::system::error_code ec, int) {
    if (!ec) impl_->BeginShutdown();
  });
  impl_->Accept(false);
  if (impl_->tls_acceptor.is_open()) impl_->Accept(true);
  impl_->Sweep();
  std::vector<std::thread> extra;
  for (size_t i = 1; i < impl_->contexts.size(); ++i) {
    net::io_context& context = *impl_->contexts[i];
    impl_->idle_guards.push_back(net::make_work_guard(context));
    extra.emplace_back([&context] { RunLoop(context); });
  }
  RunLoop(impl_->io);
  for (auto& thread : extra) thread.join();
}

void HttpServer::Stop() {
  net::post(impl_->io, [this] { impl_->BeginShutdown(); });
}

}  // namespace ddbd
