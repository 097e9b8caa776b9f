#include "server/response_head.h"

#include <charconv>
#include <cstdint>
#include <ctime>
#include <string_view>

namespace ddbd {
namespace {

// The Date header's text, made once a second per thread: formatting it costs more than the rest
// of the headers together.
const std::string& HttpDate() {
  thread_local std::time_t second = -1;
  thread_local std::string text;
  const std::time_t now = std::time(nullptr);
  if (now != second) {
    std::tm parts{};
    gmtime_r(&now, &parts);
    char buffer[64];
    const size_t size = std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S GMT", &parts);
    text.assign(buffer, size);
    second = now;
  }
  return text;
}

// std::string::find_first_of("\r\n") calls memchr over the two-byte set once per byte of the
// value: ~1,600 instructions per answer for its three headers.
bool HasLineBreak(std::string_view value) {
  for (const char c : value) {
    if (c == '\r' || c == '\n') return true;
  }
  return false;
}

void AppendDecimal(std::string& out, uint64_t value) {
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, static_cast<size_t>(end - digits));
}

}  // namespace

std::string ResponseHead(const HttpResponse& answer, std::string_view reason, unsigned version,
                         size_t body_size, bool keep_alive) {
  std::string head;
  head.reserve(256);
  head += version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  AppendDecimal(head, static_cast<uint64_t>(answer.status));
  head += ' ';
  head += reason;
  head += "\r\n";
  for (const auto& [name, value] : answer.headers) {
    head += name;
    head += ": ";
    // Values the router echoes (CORS) come from the request's own fields, which cannot hold a
    // line break; dropping any anyway keeps a header from ever splitting the answer.
    if (!HasLineBreak(value)) {
      head += value;
    } else {
      for (char c : value) {
        if (c != '\r' && c != '\n') head += c;
      }
    }
    head += "\r\n";
  }
  // DynamoDB's own: the router's texts, never a client's. `name` ends with ": ".
  auto field = [&head](std::string_view name, std::string_view value) {
    head += name;
    head += value;
    head += "\r\n";
  };
  if (!answer.content_type.empty()) field("Content-Type: ", answer.content_type);
  if (answer.sends_request_id) field("x-amzn-RequestId: ", answer.request_id);
  if (!answer.content_encoding.empty()) field("Content-Encoding: ", answer.content_encoding);
  if (answer.crc32) {
    head += "x-amz-crc32: ";
    AppendDecimal(head, *answer.crc32);
    head += "\r\n";
  }
  head += "Date: ";
  head += HttpDate();
  head += "\r\nServer: Server\r\n";  // what DynamoDB sends
  head += "Content-Length: ";
  AppendDecimal(head, body_size);
  head += "\r\n";
  if (version == 10 && keep_alive) head += "Connection: keep-alive\r\n";
  if (version != 10 && !keep_alive) head += "Connection: close\r\n";
  head += "\r\n";
  return head;
}

std::string PlainHttpOnHttpsPortAnswer() {
  static constexpr std::string_view kBody =
      "<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n"
      "<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n"
      "<center>The plain HTTP request was sent to HTTPS port</center>\r\n</body>\r\n</html>\r\n";
  return "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nContent-Length: " +
         std::to_string(kBody.size()) + "\r\nConnection: close\r\n\r\n" + std::string(kBody);
}

}  // namespace ddbd
