#include "server/http_server.h"

#include <openssl/ssl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <csignal>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "server/deadline.h"
#include "server/request_headers.h"
#include "server/response_head.h"
#include "server/session_registry.h"
#include "server/tls_context.h"

namespace ddbd {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// DynamoDB answers HTTP 400 to a request line or headers over 16 KB (measured).
constexpr uint32_t kHeaderLimitBytes = 16 * 1024;
// An answer this large, once written, is worth handing its memory back to the system for.
constexpr size_t kLargeAnswerBytes = size_t{1} << 20;

// The most plaintext one TLS record carries.
constexpr size_t kTlsRecordBytes = 16 * 1024;

// An answer on the wire: the status line and headers, then the body.
struct Answer {
  std::string head;
  std::string body;
  bool close = false;  // the connection closes after it
};

// The status line's reason phrase ("OK", "Not Found", ...).
std::string_view Reason(int status) {
  return View(http::obsolete_reason(static_cast<http::status>(status)));
}

// Each I/O thread runs an io_context of its own and owns the connections handed to it, so a
// connection's handlers never run at once and need no strand, and threads share nothing on the
// request path: with one io_context run by every thread, each operation took its lock and woke
// the other threads, and two threads on two shared cores cost 60% more CPU per request than
// one. Concrete executor types rather than Asio's type-erased any_io_executor: copying and
// destroying those showed up at ~4% of a GetItem's server CPU.
using Executor = net::io_context::executor_type;
using Socket = tcp::socket::rebind_executor<Executor>::other;
// The socket itself, not Beast's basic_stream: its timeouts armed a timer per read and write
// (server/deadline.h replaces them), and each of its reads and writes was one composed
// operation more, with its own hold on the context's work count.
using Stream = Socket;
using TlsStream = beast::ssl_stream<Stream>;

// One connection: plain HTTP, or HTTPS (`kTls`: TLS 1.2 or newer, handshaken before the first
// read, under the request timeout).
template <bool kTls>
class Session final : public SessionBase,
                      public std::enable_shared_from_this<Session<kTls>>,
                      public HeaderSource {
 public:
  // The headers of the request being answered, for the signature check.
  void Values(std::string_view name, std::vector<std::string_view>& out) const override {
    const auto range = request_->equal_range(beast::string_view(name.data(), name.size()));
    for (auto it = range.first; it != range.second; ++it) out.push_back(View(it->value()));
  }

  // `tls` (kTls only) must outlive the session.
  Session(Socket&& socket, net::ssl::context* tls, const Router& router,
          const ServerOptions& options, SessionRegistry& registry,
          std::function<void()> on_last_closed)
      : peer_loopback_(IsLoopbackPeer(socket)),
        stream_(MakeStream(std::move(socket), tls)),
        router_(router),
        options_(options),
        registry_(registry),
        on_last_closed_(std::move(on_last_closed)) {}

  ~Session() {
    if (registry_.Remove(this) && stopping_) on_last_closed_();
  }

  void Start() {
    registry_.Add(this, this->weak_from_this());
    if constexpr (kTls) {
      net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
        self->deadline.Set(CoarseNowNs(), self->options_.request_timeout_ms);
        // Plain HTTP sent to the TLS port gets AWS's 400 (behaviours-to-match A2), not silence.
        beast::async_detect_ssl(self->Lowest(), self->buffer_,
                                [self](beast::error_code ec, bool is_tls) {
                                  if (ec) return self->Close();
                                  if (!is_tls) return self->RefusePlainHttp();
                                  // With the bytes the detection read. (Boost 1.81 checks this
                                  // handler for the signature void(error_code), so `used` has a
                                  // default.)
                                  self->stream_.async_handshake(
                                      net::ssl::stream_base::server, self->buffer_.data(),
                                      [self](beast::error_code handshake_ec, size_t used = 0) {
                                        if (handshake_ec) return self->Close();
                                        self->buffer_.consume(used);
                                        self->Read();
                                      });
                                });
      });
    } else {
      net::dispatch(stream_.get_executor(),
                    beast::bind_front_handler(&Session::Read, this->shared_from_this()));
    }
  }

  size_t PendingBytes() const override { return pending_bytes_.load(std::memory_order_relaxed); }
  int64_t PendingSinceNs() const override {
    return pending_since_ns_.load(std::memory_order_relaxed);
  }
  size_t TakePendingBytes() override {
    return pending_bytes_.exchange(0, std::memory_order_relaxed);
  }
  void Drop(size_t bytes) override {
    net::post(stream_.get_executor(), [self = this->shared_from_this(), bytes] {
      spdlog::warn(
          "dropped a connection whose client had not taken a {}-byte answer in {} ms: "
          "the answers waiting for clients exceeded --answer-buffer-bytes",
          bytes, (CoarseNowNs() - self->PendingSinceNs()) / 1'000'000);
      self->Close();
    });
  }

  void TimeOut() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      if (self->deadline.Passed(CoarseNowNs())) self->Close();
    });
  }

  void StopWhenIdle() override {
    net::post(stream_.get_executor(), [self = this->shared_from_this()] {
      self->stopping_ = true;
      if (!self->busy_ && (!self->parser_ || !self->parser_->got_some())) self->Close();
    });
  }

 private:
  void Read() {
    busy_ = false;
    if (stopping_) return Close();
    parser_.emplace();
    parser_->body_limit(options_.body_limit_bytes);
    parser_->header_limit(kHeaderLimitBytes);
    // The whole request, headers trickled byte by byte included, within the timeout.
    deadline.Set(CoarseNowNs(), options_.request_timeout_ms);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&Session::OnRead, this->shared_from_this()));
  }

  void OnRead(beast::error_code ec, std::size_t /*bytes*/) {
    deadline.Clear();  // the time to answer is not the client's
    if (ec == http::error::body_limit) return SendRefusal(http::status::payload_too_large);
    if (ec == http::error::header_limit) return SendRefusal(http::status::bad_request);
    // Malformed HTTP (a bad request line, header or chunk) is told so before the connection
    // closes; a client that went away, or the timeout, just closes.
    if (ec && ec.category() == http::make_error_code(http::error::bad_method).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      return SendRefusal(http::status::bad_request);
    }
    if (ec) return Close();  // end of stream, timeout or reset
    busy_ = true;
    request_ = parser_->release();
    const http::request<http::string_body>& request = *request_;
    HttpRequest plain;
    plain.method = View(request.method_string());
    std::string_view target = View(request.target());
    const size_t question = target.find('?');
    plain.path = target.substr(0, question);
    if (question != std::string_view::npos) plain.query = target.substr(question + 1);
    const std::string_view content_encoding = ReadHeaders(request, plain);
    plain.headers = this;
    plain.peer_loopback = peer_loopback_;
    plain.body = request.body();
    plain.body_owner = &request_->body();
    if (!content_encoding.empty()) {
      // The decoded body replaces the one sent; the size limit applies to it too.
      std::string decoded;
      switch (DecodeBody(content_encoding, plain.body, options_.body_limit_bytes, decoded)) {
        case BodyDecoding::kPlain:
          break;
        case BodyDecoding::kDecoded:
          // Both kept: the signature covers the bytes as sent, the dispatcher reads the others.
          decoded_body_ = std::move(decoded);
          plain.body_as_sent = plain.body;
          plain.body = decoded_body_;
          plain.body_owner = &decoded_body_;
          break;
        case BodyDecoding::kTooLarge:
          busy_ = false;
          return SendRefusal(http::status::payload_too_large);
        case BodyDecoding::kUnsupported:
        case BodyDecoding::kBroken:
          plain.body_unreadable = true;
          break;
      }
    }
    // The session keeps itself (and the request the views point into) until the answer is
    // written, which may come from another thread, later. The completion captures only `this`,
    // so it needs no allocation.
    answering_ = this->shared_from_this();
    router_.RouteAsync(plain, routed_, on_routed_);
  }

  // On the session's thread, once the router has answered: the answer goes out behind the
  // requests already read in this turn of the event loop (see Write).
  void SendAnswer() {
    const std::shared_ptr<Session> self = std::move(answering_);
    const bool keep_alive = request_->keep_alive() && !stopping_;
    auto answer = std::make_shared<Answer>();
    answer->head = ResponseHead(routed_, Reason(routed_.status), request_->version(),
                                routed_.body.size(), keep_alive);
    answer->body = std::move(routed_.body);
    // A HEAD request gets the head a GET would (its Content-Length included), not the body.
    if (request_->method() == http::verb::head) answer->body.clear();
    answer->close = !keep_alive;
    request_.reset();
    std::string().swap(decoded_body_);
    Send(std::move(answer));
  }

  // The request is not read to its end, so the connection closes after the answer.
  void SendRefusal(http::status status) {
    refused_ = true;
    auto answer = std::make_shared<Answer>();
    HttpResponse refusal;
    refusal.status = static_cast<int>(status);
    answer->head = ResponseHead(refusal, Reason(refusal.status), 11, 0, false);
    answer->close = true;
    Write(std::move(answer));
  }

  // The answer goes out after the requests already read in this turn of the event loop are
  // answered (post queues it behind them), so answers leave in bursts: a client waiting in
  // epoll is woken once per burst instead of once per answer, and a wakeup (a cross-core
  // interrupt in a VM) cost ~2.8 us of this thread's time per answer under load. One
  // connection alone sees no delay, as nothing else is queued.
  void Write(std::shared_ptr<Answer> answer) {
    net::post(stream_.get_executor(),
              [self = this->shared_from_this(), answer = std::move(answer)]() mutable {
                self->Send(std::move(answer));
              });
  }

  void Send(std::shared_ptr<Answer> answer) {
    // One clock read for the write's deadline and the answer's start.
    const int64_t now = CoarseNowNs();
    deadline.Set(now, options_.request_timeout_ms);
    // Counted against the server's budget until the client has taken it (Sent).
    const size_t bytes = answer->head.size() + answer->body.size();
    pending_since_ns_.store(now, std::memory_order_relaxed);
    pending_bytes_.store(bytes, std::memory_order_relaxed);
    registry_.AnswerPending(bytes);
    if constexpr (kTls) {
      // Over TLS, an answer larger than one record goes as two writes, the head and then the
      // body: Beast's ssl_stream, handed both buffers at once, sent the head's record and then
      // stalled until the timeout (issue 34: answers over ~16 KiB never arrived). Smaller ones
      // go together, which its write path flattens into one record.
      if (answer->head.size() + answer->body.size() > kTlsRecordBytes) {
        const net::const_buffer head = net::buffer(answer->head);
        net::async_write(stream_, head,
                         [self = this->shared_from_this(), answer = std::move(answer)](
                             beast::error_code ec, std::size_t) mutable {
                           if (ec) return self->Sent(ec, true);
                           self->SendBody(std::move(answer));
                         });
        return;
      }
    }
    // Named before the handler takes the pointers over: the buffers must outlive it.
    const std::array<net::const_buffer, 2> buffers = {net::buffer(answer->head),
                                                      net::buffer(answer->body)};
    net::async_write(stream_, buffers,
                     [self = this->shared_from_this(), answer = std::move(answer)](
                         beast::error_code ec, std::size_t) { self->Sent(ec, answer->close); });
  }

  // TLS only: the body of an answer whose head has gone.
  void SendBody(std::shared_ptr<Answer> answer) {
    const net::const_buffer body = net::buffer(answer->body);
    net::async_write(stream_, body,
                     [self = this->shared_from_this(), answer = std::move(answer)](
                         beast::error_code ec, std::size_t) { self->Sent(ec, answer->close); });
  }

  void Sent(beast::error_code ec, bool close) {
    const size_t bytes = pending_bytes_.exchange(0, std::memory_order_relaxed);
    registry_.AnswerDone(bytes);
    if (bytes >= kLargeAnswerBytes) ReleaseMemory(registry_.pending_bytes() < kLargeAnswerBytes);
    if (ec || close) return refused_ && !ec ? DrainThenClose() : Close();
    Read();
  }

  // After a large answer went (or was dropped): its pages go back to the system, at most once a
  // second per thread while large answers are still going out, and once they all have (`last`),
  // so memory that clients held does not stay with the process.
  void ReleaseMemory(bool last) {
    if (!options_.release_memory) return;
    thread_local int64_t last_ns = 0;
    const int64_t now = CoarseNowNs();
    if (!last && now - last_ns < 1'000'000'000) return;
    last_ns = now;
    options_.release_memory();
  }

  // After a refusal the client may still be sending the rest of its request; closing with unread
  // input makes the kernel reset the connection, and the client can lose the answer. So the
  // sending side is shut and the rest is read and dropped for up to a second, then it closes.
  void DrainThenClose() {
    if constexpr (kTls) return Close();  // TLS has no half-close of its own to drain behind
    beast::error_code ignored;
    Lowest().shutdown(tcp::socket::shutdown_send, ignored);
    deadline.Set(CoarseNowNs(), 1000);
    Drain(std::make_shared<std::array<char, 16 * 1024>>());
  }

  void Drain(std::shared_ptr<std::array<char, 16 * 1024>> scratch) {
    auto buffer = net::buffer(*scratch);
    stream_.async_read_some(buffer, [self = this->shared_from_this(), scratch = std::move(scratch)](
                                        beast::error_code ec, std::size_t) mutable {
      if (ec) return self->Close();
      self->Drain(std::move(scratch));
    });
  }

  // AWS's answer (an nginx page) to a plain HTTP request on its HTTPS port; then the connection
  // closes.
  void RefusePlainHttp() {
    auto answer = std::make_shared<std::string>(PlainHttpOnHttpsPortAnswer());
    net::async_write(
        Lowest(), net::buffer(*answer),
        [self = this->shared_from_this(), answer](beast::error_code, size_t) { self->Close(); });
  }

  void Close() {
    beast::error_code ignored;
    Lowest().shutdown(tcp::socket::shutdown_send, ignored);
    Lowest().close(ignored);
  }

  static std::conditional_t<kTls, TlsStream, Stream> MakeStream(
      Socket&& socket, [[maybe_unused]] net::ssl::context* tls) {
    if constexpr (kTls) {
      return TlsStream(std::move(socket), *tls);
    } else {
      return Stream(std::move(socket));
    }
  }
  Stream& Lowest() { return beast::get_lowest_layer(stream_); }

  // Read before the socket moves into the stream.
  static bool IsLoopbackPeer(const Socket& socket) {
    beast::error_code ec;
    const net::ip::address address = socket.remote_endpoint(ec).address();
    if (ec) return false;
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
      return net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6()).is_loopback();
    }
    return address.is_loopback();
  }

  const bool peer_loopback_;  // the client connected from a loopback address
  std::conditional_t<kTls, TlsStream, Stream> stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::request<http::string_body>> request_;  // the one being answered
  std::string decoded_body_;            // its body, when it was sent with a Content-Encoding
  HttpResponse routed_;                 // its answer, once routed
  std::shared_ptr<Session> answering_;  // keeps the session while its answer is pending
  // Called by the router once `routed_` holds the answer, on whichever thread produced it.
  const Router::RouteDone on_routed_ = [this] {
    net::post(stream_.get_executor(), [this] { SendAnswer(); });
  };
  const Router& router_;
  const ServerOptions& options_;
  SessionRegistry& registry_;
  std::function<void()> on_last_closed_;
  std::atomic<size_t> pending_bytes_ = 0;  // of the answer being written
  std::atomic<int64_t> pending_since_ns_ = 0;
  bool busy_ = false;      // a request is being answered
  bool refused_ = false;   // answered before its request was read to the end
  bool stopping_ = false;  // shutdown was requested
};

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
    tcp::acceptor& listener = tls_listener ? tls_acceptor : acceptor;
    const bool tls = tls_listener || main_tls;
    // Connections go to the threads in turn.
    net::io_context& owner = *contexts[next_context++ % contexts.size()];
    listener.async_accept(owner.get_executor(), [this, tls_listener, tls, &listener](
                                                    beast::error_code ec, Socket socket) {
      if (ec) {
        if (listener.is_open()) Accept(tls_listener);
        return;
      }
      beast::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);  // answers are small: send them now
      auto on_last_closed = [this] {
        net::post(io, [this] {
          grace_timer.cancel();
          sweep_timer.cancel();
        });
      };
      if (tls) {
        std::make_shared<Session<true>>(std::move(socket), &*tls_context, router, options, registry,
                                        on_last_closed)
            ->Start();
      } else {
        std::make_shared<Session<false>>(std::move(socket), nullptr, router, options, registry,
                                         on_last_closed)
            ->Start();
      }
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
        tcp::acceptor& which = listener == 1 ? tls_acceptor : acceptor;
        if (!stopping && which.is_open()) Accept(listener == 1);
      });
    }
  }

  // On the first context's thread.
  void BeginShutdown() {
    if (stopping.exchange(true)) return;
    spdlog::info("shutting down: finishing requests in flight");
    beast::error_code ignored;
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
    grace_timer.async_wait([this](beast::error_code ec) {
      if (ec) return;
      for (auto& context : contexts) context->stop();  // grace period over: drop what is left
    });
  }

  // Closes the connections whose deadline has passed (server/deadline.h), every sweep period,
  // until shutdown has seen the last connection close.
  void Sweep() {
    sweep_timer.expires_after(std::chrono::milliseconds(SweepPeriodMs(options.request_timeout_ms)));
    sweep_timer.async_wait([this](beast::error_code ec) {
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
  tcp::acceptor acceptor;                        // --port: HTTP, or HTTPS when main_tls
  tcp::acceptor tls_acceptor;                    // --tls-port: HTTPS beside HTTP
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

bool Bind(tcp::acceptor& acceptor, const net::ip::address& address, uint16_t port,
          const std::string& host, std::string& error) {
  beast::error_code ec;
  const tcp::endpoint endpoint(address, port);
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
  beast::error_code ec;
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
  impl_->signals.async_wait([this](beast::error_code ec, int) {
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
