#include "server/http_session.h"

#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/core/detect_ssl.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <optional>

#include "server/content_encoding.h"
#include "server/deadline.h"
#include "server/http_server.h"
#include "server/request_headers.h"
#include "server/response_head.h"
#include "server/session_registry.h"

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

void StartSession(Socket&& socket, net::ssl::context* tls, const Router& router,
                  const ServerOptions& options, SessionRegistry& registry,
                  std::function<void()> on_last_closed) {
  if (tls != nullptr) {
    std::make_shared<Session<true>>(std::move(socket), tls, router, options, registry,
                                    std::move(on_last_closed))
        ->Start();
  } else {
    std::make_shared<Session<false>>(std::move(socket), nullptr, router, options, registry,
                                     std::move(on_last_closed))
        ->Start();
  }
}

}  // namespace ddbd
