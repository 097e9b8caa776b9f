// One connection's life: read a request, hand it to the router, write its answer, until the client,
// a deadline or shutdown ends it (server/http_session.cc). The listener (server/http_server.cc)
// accepts and starts sessions; the registry (server/session_registry.h) is how it reaches them
// after. This header brings Asio in, so only those two translation units include it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <functional>

namespace boost::asio::ssl {
class context;
}  // namespace boost::asio::ssl

namespace ddbd {

class Router;
class SessionRegistry;
struct ServerOptions;

// Each I/O thread runs an io_context of its own and owns the connections handed to it, so a
// connection's handlers never run at once and need no strand, and threads share nothing on the
// request path: with one io_context run by every thread, each operation took its lock and woke
// the other threads, and two threads on two shared cores cost 60% more CPU per request than
// one. Concrete executor types rather than Asio's type-erased any_io_executor: copying and
// destroying those showed up at ~4% of a GetItem's server CPU.
using Executor = boost::asio::io_context::executor_type;
using Socket = boost::asio::ip::tcp::socket::rebind_executor<Executor>::other;

// Serves `socket` on its executor's thread from now on: HTTPS when `tls` is set (TLS 1.2 or newer,
// handshaken under the request timeout), plain HTTP otherwise. The session adds itself to
// `registry` and removes itself when it ends; once shutdown has begun, the last one to end calls
// `on_last_closed` (on its own thread). `tls`, `router`, `options` and `registry` must outlive
// every session.
void StartSession(Socket&& socket, boost::asio::ssl::context* tls, const Router& router,
                  const ServerOptions& options, SessionRegistry& registry,
                  std::function<void()> on_last_closed);

}  // namespace ddbd
