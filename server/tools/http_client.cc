#include "server/tools/http_client.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "protocol/ascii.h"

namespace ddbd {
namespace {

using Clock = std::chrono::steady_clock;

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// The cancel flag of the client calling on this thread (HttpClient::CancelWhen), if any: a wait
// looks at it every 50 ms and gives up once it is set.
thread_local const std::atomic<bool>* t_cancel = nullptr;
// Whether a wait on this thread ran out of time (HttpClient::Send does not send again then).
thread_local bool t_timed_out = false;

bool Wait(int fd, short events, Clock::time_point deadline) {
  pollfd ready{fd, events, 0};
  for (;;) {
    const int left = RemainingMs(deadline);
    const int slice = t_cancel == nullptr ? left : std::min(left, 50);
    if (::poll(&ready, 1, slice) == 1) return true;
    if (left == slice) {
      t_timed_out = true;
      return false;
    }
    if (t_cancel->load(std::memory_order_relaxed)) return false;
  }
}

// A non-blocking connection to the first address of `host`:`port` that answers, or -1.
int Connect(const std::string& host, uint16_t port, Clock::time_point deadline,
            std::string& problem) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  int failed = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  // "localhost" is the loopback address (RFC 6761) also where no /etc/hosts says so: a minimal
  // container image, a chroot.
  if (failed != 0 && EqualsIgnoringCase(host, "localhost")) {
    failed = ::getaddrinfo("127.0.0.1", service.c_str(), &hints, &found);
  }
  if (failed != 0) {
    problem = host + ": " + ::gai_strerror(failed);
    return -1;
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, ::freeaddrinfo);
  for (const addrinfo* address = found; address != nullptr; address = address->ai_next) {
    const int fd = ::socket(address->ai_family, address->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                            address->ai_protocol);
    if (fd < 0) continue;
    if (::connect(fd, address->ai_addr, address->ai_addrlen) == 0) return fd;
    if (errno == EINPROGRESS && Wait(fd, POLLOUT, deadline)) {
      int error = 0;
      socklen_t length = sizeof error;
      if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0) return fd;
      errno = error;
    }
    problem = "cannot connect to " + host + ":" + service + ": " + std::strerror(errno);
    ::close(fd);
  }
  return -1;
}

// The machine's CA certificates. OpenSSL's default paths (and SSL_CERT_FILE / SSL_CERT_DIR)
// first; the static release binary carries Debian's OpenSSL, whose default directory other
// distributions lay out differently, so the usual bundle files are tried too.
void TrustSystemCertificates(SSL_CTX* context) {
  SSL_CTX_set_default_verify_paths(context);
  if (std::getenv("SSL_CERT_FILE") != nullptr || std::getenv("SSL_CERT_DIR") != nullptr) return;
  if (::access(X509_get_default_cert_file(), R_OK) == 0) return;  // OpenSSL's own layout
  static constexpr const char* kBundles[] = {
      "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Alpine, Arch
      "/etc/pki/tls/certs/ca-bundle.crt",                   // Fedora, RHEL, Amazon Linux
      "/etc/ssl/ca-bundle.pem",                             // openSUSE
      "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // RHEL 7+
  };
  for (const char* bundle : kBundles) {
    if (::access(bundle, R_OK) == 0) {
      SSL_CTX_load_verify_locations(context, bundle, nullptr);
      break;
    }
  }
  ERR_clear_error();  // a path that was not there must not show in a later call's errors
}

}  // namespace

// One open connection: a socket, and a TLS session over it for https.
class HttpClient::Connection {
 public:
  Connection(int fd, SSL_CTX* context) : fd_(fd), context_(context) {}
  ~Connection() {
    if (ssl_ != nullptr) SSL_free(ssl_);
    if (context_ != nullptr) SSL_CTX_free(context_);
    ::close(fd_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  bool Handshake(const std::string& host, bool verify, Clock::time_point deadline) {
    ssl_ = SSL_new(context_);
    if (ssl_ == nullptr) return false;
    SSL_set_fd(ssl_, fd_);
    // SNI (SSL_set_tlsext_host_name is a macro with a C cast over this call).
    SSL_ctrl(ssl_, SSL_CTRL_SET_TLSEXT_HOSTNAME, TLSEXT_NAMETYPE_host_name,
             const_cast<char*>(host.c_str()));
    if (verify) {
      SSL_set_verify(ssl_, SSL_VERIFY_PEER, nullptr);
      SSL_set1_host(ssl_, host.c_str());
    }
    return Retry([this] { return SSL_connect(ssl_); }, deadline) > 0;
  }
  bool Send(std::string_view bytes, Clock::time_point deadline) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const std::string_view rest = bytes.substr(sent);
      ssize_t n = 0;
      if (ssl_ != nullptr) {
        n = Retry([&] { return SSL_write(ssl_, rest.data(), static_cast<int>(rest.size())); },
                  deadline);
        if (n <= 0) return false;
      } else {
        if (!Wait(fd_, POLLOUT, deadline)) return false;
        n = ::send(fd_, rest.data(), rest.size(), MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
        if (n < 0) n = 0;
      }
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // Appends what arrives next (at least one byte); false at the end of the stream or an error.
  bool Receive(std::string& out, Clock::time_point deadline) {
    char buffer[16384];
    if (ssl_ != nullptr) {
      const int n = Retry([&] { return SSL_read(ssl_, buffer, sizeof buffer); }, deadline);
      if (n <= 0) return false;
      out.append(buffer, static_cast<size_t>(n));
      return true;
    }
    for (;;) {
      if (!Wait(fd_, POLLIN, deadline)) return false;
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n > 0) {
        out.append(buffer, static_cast<size_t>(n));
        return true;
      }
      if (n == 0 || (errno != EAGAIN && errno != EINTR)) return false;
    }
  }

 private:
  // Repeats a non-blocking OpenSSL call while it wants to read or write, until the deadline.
  template <typename Call>
  int Retry(Call call, Clock::time_point deadline) {
    for (;;) {
      const int result = call();
      if (result > 0) return result;
      const int reason = SSL_get_error(ssl_, result);
      const short events = reason == SSL_ERROR_WANT_READ    ? POLLIN
                           : reason == SSL_ERROR_WANT_WRITE ? POLLOUT
                                                            : 0;
      if (events == 0 || !Wait(fd_, events, deadline)) return -1;
    }
  }

  int fd_;
  SSL_CTX* context_;
  SSL* ssl_ = nullptr;
};

std::optional<Endpoint> Endpoint::Parse(std::string_view url) {
  Endpoint endpoint;
  if (url.starts_with("https://")) {
    endpoint.tls = true;
    endpoint.port = 443;
    url.remove_prefix(8);
  } else if (url.starts_with("http://")) {
    url.remove_prefix(7);
  } else {
    return std::nullopt;
  }
  url = url.substr(0, url.find('/'));
  std::string_view host = url;
  if (const size_t colon = url.rfind(':');
      colon != std::string_view::npos && url.find(']', colon) == std::string_view::npos) {
    host = url.substr(0, colon);
    const std::string_view digits = url.substr(colon + 1);
    unsigned port = 0;
    const auto read = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (read.ec != std::errc() || read.ptr != digits.data() + digits.size() || port == 0 ||
        port > 65535) {
      return std::nullopt;
    }
    endpoint.port = static_cast<uint16_t>(port);
  }
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host.empty()) return std::nullopt;
  endpoint.host = host;
  return endpoint;
}

std::string Endpoint::HostHeader() const {
  const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return (tls ? port == 443 : port == 80) ? name : name + ":" + std::to_string(port);
}

HttpClient::HttpClient(Endpoint endpoint, bool verify_tls, int timeout_ms)
    : endpoint_(std::move(endpoint)), verify_tls_(verify_tls), timeout_ms_(timeout_ms) {}

HttpClient::~HttpClient() = default;

bool HttpClient::Send(std::string_view method, std::string_view path,
                      const std::vector<std::pair<std::string, std::string>>& headers,
                      std::string_view body, HttpAnswer& answer, std::string& problem) {
  std::string request;
  request.reserve(256 + body.size());
  request.append(method).append(" ").append(path).append(" HTTP/1.1\r\nHost: ");
  request.append(endpoint_.HostHeader()).append("\r\n");
  for (const auto& [name, value] : headers) request.append(name + ": " + value + "\r\n");
  request.append("Content-Length: " + std::to_string(body.size()) + "\r\n\r\n");
  request.append(body);
  // A kept connection may have been closed by the server since: one more try on a new one. Not
  // after a timeout: the peer had the request and is slow (a function would run twice).
  const bool reused = connection_ != nullptr;
  t_timed_out = false;
  if (Exchange(request, answer, problem)) return true;
  connection_.reset();
  return reused && !t_timed_out && Exchange(request, answer, problem);
}

bool HttpClient::ReadChunks(std::string& pending, std::string& body,
                            std::chrono::steady_clock::time_point deadline, std::string& problem) {
  // An answer's body is bounded as a request's is: a handler cannot make ddbd hold gigabytes.
  constexpr size_t kMaxBody = size_t{64} << 20;
  size_t at = 0;
  const auto line_end = [&]() -> size_t {
    size_t end;
    while ((end = pending.find("\r\n", at)) == std::string::npos) {
      if (pending.size() - at > 4096 || !connection_->Receive(pending, deadline)) {
        return std::string::npos;
      }
    }
    return end;
  };
  const auto broken = [&] {
    problem = "a broken chunked answer from " + endpoint_.HostHeader();
    return false;
  };
  while (true) {
    const size_t end = line_end();
    if (end == std::string::npos) return broken();
    size_t size = 0;
    const char* first = pending.data() + at;
    const char* last = pending.data() + end;
    const auto [stop, error] = std::from_chars(first, last, size, 16);
    if (error != std::errc() || stop == first || (stop != last && *stop != ';')) return broken();
    at = end + 2;
    if (size == 0) {
      // Trailers, if any, up to an empty line.
      while (true) {
        const size_t trailer = line_end();
        if (trailer == std::string::npos) return broken();
        const bool empty = trailer == at;
        at = trailer + 2;
        if (empty) break;
      }
      return true;
    }
    if (size > kMaxBody - body.size()) {
      problem = "an answer of more than 64 MiB from " + endpoint_.HostHeader();
      return false;
    }
    while (pending.size() < at + size + 2) {
      if (!connection_->Receive(pending, deadline)) return broken();
    }
    if (pending.compare(at + size, 2, "\r\n") != 0) return broken();
    body.append(pending, at, size);
    at += size + 2;
    if (at > (1 << 16)) {
      pending.erase(0, at);
      at = 0;
    }
  }
}

void HttpClient::CancelWhen(const std::atomic<bool>* cancel) { cancel_ = cancel; }

bool HttpClient::Exchange(const std::string& request, HttpAnswer& answer, std::string& problem) {
  // Waits on this thread look at the client's cancel flag until the exchange is over.
  struct CancelScope {
    explicit CancelScope(const std::atomic<bool>* cancel) { t_cancel = cancel; }
    ~CancelScope() { t_cancel = nullptr; }
  } scope(cancel_);
  if (cancel_ != nullptr && cancel_->load()) {
    problem = "cancelled";
    return false;
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms_);
  if (connection_ == nullptr) {
    const int fd = Connect(endpoint_.host, endpoint_.port, deadline, problem);
    if (fd < 0) return false;
    SSL_CTX* context = nullptr;
    if (endpoint_.tls) {
      context = SSL_CTX_new(TLS_client_method());
      if (context != nullptr && verify_tls_) TrustSystemCertificates(context);
    }
    connection_ = std::make_unique<Connection>(fd, context);
    if (endpoint_.tls && !connection_->Handshake(endpoint_.host, verify_tls_, deadline)) {
      problem = "TLS handshake with " + endpoint_.HostHeader() + " failed";
      connection_.reset();
      return false;
    }
  }
  if (!connection_->Send(request, deadline)) {
    problem = "cannot send to " + endpoint_.HostHeader();
    return false;
  }
  std::string received;
  size_t head_end = std::string::npos;
  while ((head_end = received.find("\r\n\r\n")) == std::string::npos) {
    if (received.size() > (1 << 20) || !connection_->Receive(received, deadline)) {
      problem = received.empty() ? "no answer from " + endpoint_.HostHeader()
                                 : "a broken answer from " + endpoint_.HostHeader();
      return false;
    }
  }
  const std::string_view head(received.data(), head_end);
  // "HTTP/1.1 200 OK"
  answer = HttpAnswer();
  if (head.size() < 12 || !head.starts_with("HTTP/1.")) {
    problem = "not an HTTP answer from " + endpoint_.HostHeader();
    return false;
  }
  std::from_chars(head.data() + 9, head.data() + 12, answer.status);
  std::optional<size_t> length;
  bool close = false;
  bool chunked = false;
  size_t line = head.find("\r\n");
  while (line != std::string_view::npos && line < head.size()) {
    const size_t next = head.find("\r\n", line + 2);
    const std::string_view field =
        head.substr(line + 2, (next == std::string_view::npos ? head.size() : next) - line - 2);
    line = next;
    const size_t colon = field.find(':');
    if (colon == std::string_view::npos) continue;
    std::string name = AsciiLower(field.substr(0, colon));
    const std::string value(TrimSpaces(field.substr(colon + 1)));
    if (name == "content-length") {
      size_t parsed = 0;
      std::from_chars(value.data(), value.data() + value.size(), parsed);
      length = parsed;
    } else if (name == "connection" && EqualsIgnoringCase(value, "close")) {
      close = true;
    } else if (name == "transfer-encoding" && !EqualsIgnoringCase(value, "identity")) {
      if (!EqualsIgnoringCase(value, "chunked")) {
        problem = "an answer from " + endpoint_.HostHeader() + " in transfer encoding " + value;
        return false;
      }
      chunked = true;  // a handler that streams its answer (Node's http without a length)
    }
    answer.headers.emplace_back(std::move(name), value);
  }
  std::string body = received.substr(head_end + 4);
  if (chunked) {
    std::string pending = std::move(body);
    if (!ReadChunks(pending, answer.body, deadline, problem)) {
      connection_.reset();
      return false;
    }
    if (close) connection_.reset();
    return true;
  }
  while (!length || body.size() < *length) {
    if (!connection_->Receive(body, deadline)) {
      if (!length) break;  // the body runs to the connection's end
      problem = "the answer from " + endpoint_.HostHeader() + " was cut short";
      return false;
    }
  }
  if (length) body.resize(*length);
  answer.body = std::move(body);
  if (close || !length) connection_.reset();
  return true;
}

}  // namespace ddbd
