#include "server/health_check.h"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

namespace ddbd {
namespace {

using Clock = std::chrono::steady_clock;

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits until `fd` is ready for `events` or the deadline passes.
bool Wait(int fd, short events, Clock::time_point deadline) {
  pollfd ready{fd, events, 0};
  return ::poll(&ready, 1, RemainingMs(deadline)) == 1;
}

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// A non-blocking connection to the first address of `host`:`port` that answers, or -1.
int Connect(const std::string& host, uint16_t port, Clock::time_point deadline,
            std::string& problem) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int failed = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
      failed != 0) {
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

// The exchange itself, over a plain socket or TLS.
class Channel {
 public:
  virtual ~Channel() = default;
  virtual bool Send(const std::string& bytes, Clock::time_point deadline) = 0;
  // Appends what arrives until the server closes, up to `limit` bytes.
  virtual void Receive(std::string& out, size_t limit, Clock::time_point deadline) = 0;
};

class PlainChannel final : public Channel {
 public:
  explicit PlainChannel(int fd) : fd_(fd) {}
  bool Send(const std::string& bytes, Clock::time_point deadline) override {
    size_t sent = 0;
    while (sent < bytes.size()) {
      if (!Wait(fd_, POLLOUT, deadline)) return false;
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
      if (n > 0) sent += static_cast<size_t>(n);
    }
    return true;
  }
  void Receive(std::string& out, size_t limit, Clock::time_point deadline) override {
    char buffer[4096];
    while (out.size() < limit && Wait(fd_, POLLIN, deadline)) {
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
      if (n > 0) out.append(buffer, static_cast<size_t>(n));
    }
  }

 private:
  int fd_;
};

class TlsChannel final : public Channel {
 public:
  explicit TlsChannel(int fd) : fd_(fd), context_(SSL_CTX_new(TLS_client_method())) {
    if (context_ != nullptr) ssl_ = SSL_new(context_);
    if (ssl_ != nullptr) SSL_set_fd(ssl_, fd);
  }
  ~TlsChannel() override {
    if (ssl_ != nullptr) SSL_free(ssl_);
    if (context_ != nullptr) SSL_CTX_free(context_);
  }
  TlsChannel(const TlsChannel&) = delete;
  TlsChannel& operator=(const TlsChannel&) = delete;

  bool Handshake(Clock::time_point deadline) {
    if (ssl_ == nullptr) return false;
    return Retry([this] { return SSL_connect(ssl_); }, deadline) > 0;
  }
  bool Send(const std::string& bytes, Clock::time_point deadline) override {
    return Retry([&] { return SSL_write(ssl_, bytes.data(), static_cast<int>(bytes.size())); },
                 deadline) == static_cast<int>(bytes.size());
  }
  void Receive(std::string& out, size_t limit, Clock::time_point deadline) override {
    char buffer[4096];
    while (out.size() < limit) {
      const int n = Retry([&] { return SSL_read(ssl_, buffer, sizeof buffer); }, deadline);
      if (n <= 0) return;
      out.append(buffer, static_cast<size_t>(n));
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

}  // namespace

bool CheckHealth(const HealthCheckTarget& target, std::string& problem) {
  const auto deadline = Clock::now() + std::chrono::milliseconds(target.timeout_ms);
  std::string host = target.host;
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  Socket socket(Connect(host, target.port, deadline, problem));
  if (socket.fd() < 0) return false;
  std::unique_ptr<Channel> channel;
  if (target.tls) {
    auto tls = std::make_unique<TlsChannel>(socket.fd());
    if (!tls->Handshake(deadline)) {
      problem = "TLS handshake with " + host + ":" + std::to_string(target.port) + " failed";
      return false;
    }
    channel = std::move(tls);
  } else {
    channel = std::make_unique<PlainChannel>(socket.fd());
  }
  const std::string request = "GET / HTTP/1.1\r\nHost: " + host + ":" +
                              std::to_string(target.port) + "\r\nConnection: close\r\n\r\n";
  if (!channel->Send(request, deadline)) {
    problem = "cannot send the request";
    return false;
  }
  std::string answer;
  channel->Receive(answer, 16 * 1024, deadline);
  if (answer.rfind("HTTP/1.1 200", 0) != 0 || answer.find("healthy") == std::string::npos) {
    problem = answer.empty() ? "no answer within " + std::to_string(target.timeout_ms) + " ms"
                             : "unexpected answer: " + answer.substr(0, answer.find('\r'));
    return false;
  }
  return true;
}

}  // namespace ddbd
